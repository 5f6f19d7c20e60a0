// `pii`: the built-in typed detectors find nothing in any text the context puts into an output
// (thinking, documents, tool arguments, server tool results, ids and names included).
import { findPii } from '../pii/mask.js';
import { findPiiIn } from '../pii/mask-json.js';
import type { Detector } from '../pii/types.js';
import { visibleTexts } from '../pii/visible-texts.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

export function checkPii(
  result: StabilizeResult,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement: string,
  where: Locator,
): Violation[] {
  const out: Violation[] = [];
  for (const c of result.context) {
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
