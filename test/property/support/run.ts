// Shared steps of the stabilizer property tests: run the stabilizer with the word tokenizer, recount
// a context independently of the stabilizer's meter, and compare contexts on what a model receives.
import type { Policy } from '../../../src/core/policy/index.js';
import { commandKeys } from '../../../src/core/stabilize/families.js';
import { maskString } from '../../../src/core/stabilize/finalize.js';
import { createMasker, stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { TokenCache } from '../../../src/core/stabilize/meter.js';
import type { ContextItem, StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { ArtifactKind, Transcript } from '../../../src/core/types.js';
import { countWords, wordTokenizer } from './tokenizer.js';

/**
 * Every artifact as the context item the stabilizer would keep it as (nothing dropped or masked):
 * what the emitter tests write requests from. Emitters read `is_error` only when true.
 */
export function contextOf(t: Transcript): ContextItem[] {
  return t.artifacts.map((a) => ({
    id: a.id,
    kind: a.kind,
    ...(a.role !== undefined ? { role: a.role } : {}),
    tokens: 0,
    content: a.content,
    ...(a.tool !== undefined ? { tool: a.tool } : {}),
    ...(a.call_id !== undefined ? { call_id: a.call_id } : {}),
    ...(a.call_ids !== undefined ? { call_ids: a.call_ids } : {}),
    ...(a.tool_calls !== undefined ? { tool_calls: a.tool_calls } : {}),
    ...(a.is_error ? { is_error: true } : {}),
    line: a.source.line,
  }));
}

export function stabilize(transcript: Transcript, policy: Policy, cache?: TokenCache): StabilizeResult {
  return stabilizeTranscript(transcript, { policy, tokenizer: wordTokenizer, ...(cache ? { cache } : {}) });
}

/**
 * Tokens of one context item by the cost rules of DESIGN §4 stage 1, counted from scratch with
 * `count` (the word count unless told otherwise). Only text and image parts occur in these tests.
 */
export function recountItem(
  item: Pick<ContextItem, 'content' | 'tool_calls'>,
  policy: Policy,
  count: (text: string) => number = countWords,
): number {
  let n = policy.message_overhead;
  if (typeof item.content === 'string') n += count(item.content);
  else {
    for (const part of item.content) {
      if (part.type === 'text') n += count(String(part.text));
      else if (part.type === 'image_url' || part.type === 'image') n += policy.part_tokens.image;
      else throw new Error(`no ${part.type} part is expected in these tests`);
    }
  }
  for (const c of item.tool_calls ?? []) n += count(c.name) + count(c.arguments);
  return n;
}

export function recount(
  context: readonly ContextItem[],
  policy: Policy,
  count: (text: string) => number = countWords,
): number {
  return context.reduce((sum, item) => sum + recountItem(item, policy, count), 0);
}

/** What a model receives of each item: the comparison key of "the context is unchanged". */
export function projection(context: readonly ContextItem[]): unknown[] {
  return context.map((c) => ({
    id: c.id,
    kind: c.kind,
    content: c.content,
    ...(c.tool_calls ? { tool_calls: c.tool_calls } : {}),
    ...(c.call_id !== undefined ? { call_id: c.call_id } : {}),
  }));
}

const SECTION_OF: Record<ArtifactKind, string> = {
  system: 'system',
  policy: 'policy',
  task: 'task',
  phase: 'task',
  user: 'conversation',
  assistant: 'conversation',
  tool: 'conversation',
  retrieval: 'conversation',
  summary: 'summaries',
};
const DEFAULT_ORDER = ['system', 'policy', 'task', 'conversation', 'summaries'];

/** The section of a kind and its rank under `order` (sections it leaves out follow in default order). */
export function sectionRank(kind: ArtifactKind, order: readonly string[]): { section: string; rank: number } {
  const ranks = [...order, ...DEFAULT_ORDER.filter((s) => !order.includes(s))];
  const section = SECTION_OF[kind];
  return { section, rank: ranks.indexOf(section) };
}

/**
 * The known limit of idempotence (aggressive mode): a success that split two failures of one command
 * family into separate retry runs left the context after the collapse stage (as a duplicate, or
 * for the budget) while failures on both sides stayed. Read back without it, the failures form
 * one run and the older one collapses: the second pass lacks what the first one knew.
 */
export function lostRunSplit(t: Transcript, r: StabilizeResult, policy: Policy): boolean {
  if (!policy.resilience.enabled || policy.resilience.truncation_mode !== 'aggressive') return false;
  const masker = createMasker(policy);
  const kept = new Set(r.context.map((c) => c.id));
  const byId = new Map(t.artifacts.map((a) => [a.id, a]));
  const runs = new Map<string, { kept: boolean; failure: boolean }[]>();
  for (const a of t.artifacts) {
    const owner = byId.get(t.pairing.resultToCall[a.id] ?? '');
    const call = owner?.tool_calls?.find((c) => c.id === a.call_id);
    if (a.kind !== 'tool' || !call) continue;
    const family = commandKeys({ ...call, arguments: maskString(call.arguments, masker, {}) }).family;
    const failure = a.is_error === true || (a.exit_code ?? 0) !== 0 || (a.tags ?? []).includes('error');
    runs.set(family, [...(runs.get(family) ?? []), { kept: kept.has(a.id), failure }]);
  }
  for (const outcomes of runs.values()) {
    let failureKept = false;
    let lostSuccess = false;
    for (const o of outcomes) {
      if (o.failure && o.kept && failureKept && lostSuccess) return true;
      if (o.failure && o.kept) failureKept = true;
      if (!o.failure && o.kept) failureKept = lostSuccess = false;
      if (!o.failure && !o.kept && failureKept) lostSuccess = true;
    }
  }
  return false;
}
