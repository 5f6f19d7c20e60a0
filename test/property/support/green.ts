// "A green check means the context works" (issue 9): the invariant the validate suite guarantees
// while the stabilizer itself may still drop the task, the latest request or every message, or emit
// a request an API refuses. For a stabilized result: whenever no error-severity check fails, the
// context really works (judged here from the transcript and the emitted requests, not from the
// checks' own code); and whatever the providers' rules find in an emitted request, the `provider`
// check reports under the same rule names.
import { emitContext } from '../../../src/core/emit/index.js';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';
import type { Policy } from '../../../src/core/policy/index.js';
import type { StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import { CONVERSATION } from '../../../src/core/scope/conversation.js';
import type { Artifact, Transcript } from '../../../src/core/types.js';
import type { CheckResult } from '../../../src/core/validate/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';

export type Api = 'openai' | 'anthropic';
export const APIS: readonly Api[] = ['openai', 'anthropic'];

/** The rules verifyOpenAI/verifyAnthropic report for the request `api` builds from the context. */
export function verifiedRules(result: StabilizeResult, api: Api): string[] {
  const found =
    api === 'openai'
      ? verifyOpenAI((emitContext(result.context, 'openai') as { messages: OpenAIMessage[] }).messages)
      : verifyAnthropic(emitContext(result.context, 'anthropic') as AnthropicRequest);
  return [...new Set(found.map((f) => f.slice(0, f.indexOf(':'))))].sort();
}

/** The rules the `provider` check names for `api` (its messages read `<api> request rule <rule>: …`). */
export function providerRules(checks: readonly CheckResult[], api: Api): string[] {
  const provider = checks.find((k) => k.name === 'provider');
  const rules = (provider?.violations ?? []).flatMap((v) => {
    const m = new RegExp(`^${api} request rule ([a-z0-9-]+): `).exec(v.message);
    return m ? [m[1] as string] : [];
  });
  return [...new Set(rules)].sort();
}

/** Error-severity checks that failed: none means the run is green. */
export function failingErrors(checks: readonly CheckResult[]): string[] {
  return checks.filter((k) => !k.ok && k.severity === 'error').map((k) => k.name);
}

/** A user message of the main chain with something in it (text that is not blank, or an image). */
function isRequest(a: Artifact): boolean {
  if (a.kind !== 'user' || a.sidechain === true) return false;
  if (typeof a.content === 'string') return a.content.trim() !== '';
  return a.content.some((p) => p.type !== 'text' || String(p.text ?? '').trim() !== '');
}

/**
 * What makes a context not work, judged independently of the checks: no conversation; the latest
 * user request missing or a placeholder; the task statement missing, in the simple case of a
 * transcript without phase markers (every `kind: task` artifact, else the first user request).
 */
export function brokenContext(t: Transcript, result: StabilizeResult): string[] {
  const out: string[] = [];
  const kept = new Map(result.context.map((c) => [c.id, c.placeholder !== true]));
  if (!result.context.some((c) => CONVERSATION.has(c.kind))) out.push('no conversation in the context');
  const main = t.artifacts.filter((a) => a.sidechain !== true);
  const latest = [...main].reverse().find(isRequest);
  if (latest && kept.get(latest.id) !== true) out.push(`latest user request ${latest.id} not in the context`);
  if (!main.some((a) => a.kind === 'phase')) {
    const tasks = main.filter((a) => a.kind === 'task');
    const first = main.find(isRequest);
    const statement = tasks.length > 0 ? tasks : first ? [first] : [];
    for (const a of statement)
      if (kept.get(a.id) !== true) out.push(`task statement ${a.id} not in the context`);
  }
  return out;
}

/**
 * Every way the checks lie about `result`, for each emit target (`emit: openai|anthropic`, and no
 * emit, where the provider check covers the policy's `target`, or with `target: same` `ownApis`, the
 * APIs the transcript's format talks to): a green
 * over a broken context or a refused request, or a `provider` check that does not name exactly the
 * rules the providers' verifiers find. Empty when the checks tell the truth.
 */
export function lies(
  t: Transcript,
  result: StabilizeResult,
  opts: { policy: Policy; tokenizer: Tokenizer; ownApis: readonly Api[] },
): string[] {
  const out: string[] = [];
  const broken = brokenContext(t, result);
  const targets: { emit?: Api; apis: readonly Api[] }[] = [
    { apis: opts.policy.target === 'same' ? opts.ownApis : [opts.policy.target] },
    ...APIS.map((api) => ({ emit: api, apis: [api] })),
  ];
  for (const { emit, apis } of targets) {
    const checks = validateResult(t, result, {
      policy: opts.policy,
      tokenizer: opts.tokenizer,
      ...(emit ? { emit } : {}),
    });
    const green = failingErrors(checks).length === 0;
    const label = emit ? `--emit ${emit}` : `no --emit (${apis.join(', ')})`;
    if (green) for (const b of broken) out.push(`${label}: green, but ${b}`);
    for (const api of apis) {
      const verified = verifiedRules(result, api);
      if (green && verified.length > 0)
        out.push(`${label}: green, but ${api} refuses: ${verified.join(', ')}`);
      // The check also sees the transcript: thinking blocks changed in the open tool loop are a
      // rule no request-only verifier can see; every other rule must be named by both.
      const named = providerRules(checks, api).filter((r) => r !== 'anthropic-thinking-unchanged');
      if (JSON.stringify(named) !== JSON.stringify(verified)) {
        out.push(
          `${label}: the provider check names [${named.join(', ')}], ${api} rules find [${verified.join(', ')}]`,
        );
      }
    }
  }
  return out;
}
