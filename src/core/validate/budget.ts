// `budget`: the emitted context fits the budget (DESIGN §4 stage 9: a hard limit). The violation is
// annotated where the budget went: at the artifact whose admission, in the budget stage's priority
// order, took the context over the limit; when what must be kept alone overflows, at the largest of
// those artifacts.
import { latestUserRequest, taskStatement } from '../scope/task.js';
import type { TokenMeter } from '../stabilize/meter.js';
import type { ContextItem, StabilizeResult } from '../stabilize/types.js';
import type { Transcript } from '../types.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

/** 0 system and constraints, 1 task, 2 latest request, 3 other protected, 4 the rest. */
function priorityClass(
  c: ContextItem,
  task: ReadonlySet<string>,
  latest: string | undefined,
  protectedIds: ReadonlySet<string>,
): number {
  if (c.kind === 'system' || c.kind === 'policy') return 0;
  if (task.has(c.id)) return 1;
  if (c.id === latest) return 2;
  return protectedIds.has(c.id) ? 3 : 4;
}

export function checkBudget(
  t: Transcript,
  result: StabilizeResult,
  meter: TokenMeter,
  protectedIds: ReadonlySet<string>,
  where: Locator,
): Violation[] {
  const cost = new Map<ContextItem, number>();
  let total = 0;
  for (const c of result.context) {
    const n = meter.artifact({ content: c.content, tool_calls: c.tool_calls });
    cost.set(c, n);
    total += n;
  }
  const limit = result.budget.limit;
  if (total <= limit) return [];
  const task = new Set(taskStatement(t.artifacts).artifacts.map((a) => a.id));
  const latest = latestUserRequest(t.artifacts)?.id;
  const index = new Map(t.artifacts.map((a, i) => [a.id, i]));
  const at = (c: ContextItem): number => index.get(c.id) ?? -1;
  const ranked = result.context
    .map((c) => ({ c, cls: priorityClass(c, task, latest, protectedIds) }))
    // Must-keep classes in chronology, the rest newest first, as the budget stage admits them.
    .sort((x, y) => x.cls - y.cls || (x.cls === 4 ? at(y.c) - at(x.c) : at(x.c) - at(y.c)));
  let sum = 0;
  for (const { c, cls } of ranked) {
    const n = cost.get(c) ?? 0;
    if (sum + n <= limit) {
      sum += n;
      continue;
    }
    if (cls < 4) {
      const mustKeep = ranked.filter((r) => r.cls < 4).map((r) => r.c);
      const largest = mustKeep.reduce((a, b) => ((cost.get(b) ?? 0) > (cost.get(a) ?? 0) ? b : a));
      const kept = mustKeep.reduce((s, m) => s + (cost.get(m) ?? 0), 0);
      return [
        where.at(
          largest.id,
          `the context needs ${total} tokens, over the budget of ${limit}: what must be kept (system, task, latest request, protected) alone needs ${kept}, the largest of it is this ${largest.kind} artifact of ${cost.get(largest) ?? 0} tokens`,
        ),
      ];
    }
    return [
      where.at(
        c.id,
        `the context needs ${total} tokens, over the budget of ${limit}: admitting this ${c.kind} artifact (${n} tokens) took it from ${sum} to ${sum + n}`,
      ),
    ];
  }
  // Unreachable while total > limit; kept so that the check never passes an overflow silently.
  return [
    {
      id: '*',
      line: 1,
      column: 1,
      message: `the context needs ${total} tokens, over the budget of ${limit}`,
    },
  ];
}
