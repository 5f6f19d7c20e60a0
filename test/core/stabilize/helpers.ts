// Shared by the stabilizer, validate, emit and seed tests: a word-count tokenizer (expected token
// counts can be worked out by hand), policies built from partial objects, and ledger lookups.
import { policyFromObject } from '../../../src/core/policy/index.js';
import type { Policy } from '../../../src/core/policy/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { LedgerEntry, StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import type { CheckResult } from '../../../src/core/validate/types.js';

/** One token per whitespace-separated word. */
export const wordTokenizer: Tokenizer = {
  name: 'words',
  version: '1',
  count: (text) => text.split(/\s+/).filter((w) => w.length > 0).length,
};

type DeepPartial<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : DeepPartial<T[K]> };

/**
 * A validated policy. Unless the test says otherwise the framing overhead is 0 tokens, so an
 * artifact costs exactly its word count.
 */
export function policy(overrides: DeepPartial<Policy> | Record<string, unknown> = {}): Policy {
  const parsed = policyFromObject({ message_overhead: 0, ...overrides }, { file: 'policy.yml' });
  if (!parsed.ok) throw new Error(parsed.diagnostics.map((d) => d.message).join('\n'));
  return parsed.policy;
}

export function run(
  transcript: Transcript,
  p: Policy = policy(),
  tokenizer: Tokenizer = wordTokenizer,
): StabilizeResult {
  return stabilizeTranscript(transcript, { policy: p, tokenizer });
}

/**
 * `overrides` with the budget one token under what the history takes: nothing is cut while a history
 * fits (stage 9), so a test of what a stage cuts puts the history just over the budget.
 */
export function pressed(
  transcript: Transcript,
  overrides: Record<string, unknown> = {},
  tokenizer: Tokenizer = wordTokenizer,
): Policy {
  const used = run(transcript, policy(overrides), tokenizer).budget.used;
  return policy({ ...overrides, budget: used - 1 });
}

export function check(
  transcript: Transcript,
  result: StabilizeResult,
  p: Policy,
  tokenizer: Tokenizer = wordTokenizer,
): Record<string, CheckResult> {
  const checks = validateResult(transcript, result, { policy: p, tokenizer });
  return Object.fromEntries(checks.map((c) => [c.name, c]));
}

/** The ledger entry of `id`; throws when there is none, so a typo fails loudly. */
export function entry(result: StabilizeResult, id: string): LedgerEntry {
  const e = result.ledger.find((x) => x.id === id);
  if (!e) throw new Error(`no ledger entry for ${id}`);
  return e;
}

/** `action/reason` of `id`: compact to assert. */
export function fate(result: StabilizeResult, id: string): string {
  const e = entry(result, id);
  return `${e.action}/${e.reason}`;
}

/** Ids of the stabilized context, in context order. */
export function ids(result: StabilizeResult): string[] {
  return result.context.map((c) => c.id);
}

export function item(result: StabilizeResult, id: string): StabilizeResult['context'][number] {
  const c = result.context.find((x) => x.id === id);
  if (!c) throw new Error(`${id} is not in the context`);
  return c;
}
