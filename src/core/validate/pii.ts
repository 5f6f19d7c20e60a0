// `pii`: the built-in typed detectors find nothing in any text the context puts into an output
// (thinking, documents, tool arguments, server tool results, ids and names included). Under
// pii.strategy block, PII the masker found is a violation too: the call would have been refused.
import { findPii } from '../pii/mask.js';
import { findPiiIn } from '../pii/mask-json.js';
import type { Detector } from '../pii/types.js';
import { visibleTexts } from '../pii/visible-texts.js';
import type { StabilizeResult } from '../stabilize/types.js';
import { countsText } from '../stabilize/verdict.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

export function checkPii(
  result: StabilizeResult,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement: string,
  where: Locator,
  block = false,
): Violation[] {
  const out: Violation[] = [];
  const masked = block ? new Map(result.ledger.map((e) => [e.id, e.pii])) : undefined;
  for (const c of result.context) {
    const found = masked?.get(c.id);
    if (found) {
      out.push(
        where.at(
          c.id,
          `PII in the context (${countsText(found)}, masked) and pii.strategy is block: the call would be refused`,
        ),
      );
      continue;
    }
    const types = new Set<string>();
    for (const t of visibleTexts(c))
      for (const m of findPiiIn(t, detectors, allow, replacement)) types.add(m.type);
    // The type only: the value itself must never reach a report. The id may be the leak itself,
    // so a violation in an id is reported without it.
    if (types.size === 0) continue;
    const v = where.at(c.id, `unmasked PII in the context: ${[...types].sort().join(', ')}`);
    const idLeaks = findPii(c.id, detectors, allow, replacement).length > 0;
    out.push(idLeaks ? { ...v, id: '*', message: `${v.message} (in its id, which is not shown)` } : v);
  }
  return out;
}
