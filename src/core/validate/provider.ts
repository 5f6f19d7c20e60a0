// `provider`: the request `--emit` would write for the target API breaks none of that API's rules
// (src/core/emit/provider-rules.ts, the same rules the emitter's verifier applies). Each violation
// names the rule and the error the API would answer, at the artifact the offending message came from.
import type { EmitFormat } from '../emit/index.js';
import { providerIssues } from '../emit/provider-rules.js';
import type { ProviderApi } from '../emit/provider-rules.js';
import type { ProviderTarget } from '../policy/schema.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Transcript, TranscriptFormat } from '../types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

/**
 * The APIs the context must suit: `--emit openai|anthropic` when given, else the policy's `target`,
 * else the transcript's own API (Claude Code talks to Anthropic); a native transcript names no API,
 * so its context must suit both.
 */
export function providerApis(
  source: TranscriptFormat,
  target: ProviderTarget,
  emit?: EmitFormat,
): ProviderApi[] {
  if (emit === 'openai' || emit === 'anthropic') return [emit];
  if (target !== 'same') return [target];
  switch (source) {
    case 'openai':
      return ['openai'];
    case 'anthropic':
    case 'claude-code':
      return ['anthropic'];
    case 'native':
      return ['openai', 'anthropic'];
  }
}

export function checkProvider(
  t: Transcript,
  result: StabilizeResult,
  apis: readonly ProviderApi[],
  where: Locator,
): Violation[] {
  const original = new Map(t.artifacts.map((a) => [a.id, a]));
  const out: Violation[] = [];
  for (const api of apis) {
    for (const issue of providerIssues(result.context, api, original)) {
      const message = `${api} request rule ${issue.rule}: ${issue.message}`;
      const id = issue.ids[0];
      out.push(id !== undefined ? where.at(id, message) : { id: '*', line: 1, column: 1, message });
    }
  }
  return out;
}
