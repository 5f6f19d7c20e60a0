// `provider`: the request `--emit` would write for the target API breaks none of that API's rules
// (src/core/emit/provider-rules.ts, the same rules the emitter's verifier applies). Each violation
// names the rule and the error the API would answer, at the artifact the offending message came from.
import { providerIssues } from '../emit/provider-rules.js';
import type { ProviderApi } from '../emit/provider-rules.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Transcript } from '../types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

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
