// The async library entry points: `stabilize` and `validate` load the tokenizer the policy names,
// accept a Transcript or a provider payload, and run the pure core.
import type { TokenCache } from '../core/stabilize/meter.js';
import { sanitizeForPolicy, stabilizeTranscript } from '../core/stabilize/stabilize.js';
import type { StabilizeResult } from '../core/stabilize/types.js';
import type { Diagnostic } from '../core/types.js';
import type { CheckResult } from '../core/validate/types.js';
import { validateResult } from '../core/validate/validate.js';
import { loadPolicyTokenizer } from '../tokens/load.js';
import { toTranscript } from './input.js';
import type { TranscriptInput, TranscriptInputOptions } from './input.js';
import { resolvePolicy } from './policy.js';
import type { PolicyOption } from './policy.js';

export interface StabilizeApiOptions extends TranscriptInputOptions {
  /** A Policy or a partial policy object such as `{ budget: 4000 }`; default: the built-in policy. */
  policy?: PolicyOption;
  /**
   * Token counts by text, shared across calls so that an agent stabilizing before every model call
   * counts each message once. It grows with every distinct text: use one per session.
   */
  cache?: TokenCache;
  /**
   * Receives the policy's warnings (unknown keys, which are ignored) and the transcript's
   * diagnostics (unpaired tool calls, skipped records). None of them stops the run.
   */
  onDiagnostic?: (diagnostic: Diagnostic) => void;
  /** The key of `pii.strategy: hash` (docs/pii.md); a policy that hashes throws PiiKeyMissingError without it. */
  piiKey?: string;
}

async function prepare(input: TranscriptInput, options: StabilizeApiOptions) {
  const parsed = resolvePolicy(options.policy);
  const transcript = toTranscript(input, options);
  if (options.onDiagnostic) {
    for (const d of [...parsed.diagnostics, ...transcript.diagnostics]) options.onDiagnostic(d);
  }
  const tokenizer = await loadPolicyTokenizer(parsed.policy);
  const run = {
    policy: parsed.policy,
    tokenizer,
    rules: parsed.rules,
    ...(options.cache ? { cache: options.cache } : {}),
    ...(options.piiKey !== undefined ? { piiKey: options.piiKey } : {}),
  };
  // The same aliases as in the result: callers compare its ids with the transcript's.
  return { transcript: sanitizeForPolicy(transcript, parsed.policy, parsed.rules), run };
}

/**
 * Stabilizes a transcript under the policy (DESIGN §4): the context to send (`result.context`,
 * PII masked), the ledger of every decision, summaries, status and events.
 *
 * Throws an InputError when the policy is invalid or the payload is not a transcript; its
 * message lists file:line:column diagnostics and never quotes the input.
 */
export async function stabilize(
  input: TranscriptInput,
  options: StabilizeApiOptions = {},
): Promise<StabilizeResult> {
  const { transcript, run } = await prepare(input, options);
  return stabilizeTranscript(transcript, run);
}

/**
 * Runs the checks of DESIGN §5 on a result of `stabilize` for the same input and policy. With a
 * payload, the input is read again: convert it once with `toTranscript` to avoid that.
 */
export async function validate(
  input: TranscriptInput,
  result: StabilizeResult,
  options: StabilizeApiOptions = {},
): Promise<CheckResult[]> {
  const { transcript, run } = await prepare(input, options);
  return validateResult(transcript, result, run);
}
