// Stage 2 (scope): a `phase` artifact sets the scope from there on; artifacts of an earlier task
// than the current one leave the context, unless an author or the policy protects them.
import type { WorkSet } from './work.js';
import { remove, removeResult, removeUnit } from './work.js';
import type { Fate } from './work.js';

export interface ScopeOutcome {
  task?: string;
  phase?: string;
  /** Set when the reset cannot be decided (status escalated). */
  ambiguous?: string;
}

export function assignScopes(ws: WorkSet): ScopeOutcome {
  let task: string | undefined;
  let phase: string | undefined;
  let ambiguous: string | undefined;
  for (const w of ws.items) {
    const s = w.a.scope;
    if (w.a.kind === 'phase') {
      if (!s || (s.task === undefined && s.phase === undefined)) {
        ambiguous ??= `phase marker ${w.a.id} (line ${w.a.source.line}) names neither a task nor a phase`;
      } else {
        if (s.task !== undefined && s.task !== task) phase = undefined;
        task = s.task ?? task;
        phase = s.phase ?? phase;
      }
    }
    w.task = s?.task ?? task;
    w.phase = s?.phase ?? phase;
  }
  const out: ScopeOutcome = {};
  if (task !== undefined) out.task = task;
  if (phase !== undefined) out.phase = phase;
  if (ambiguous) out.ambiguous = ambiguous;
  return out;
}

/** Survive a scope reset: what the author or the policy says must stay whatever the task. */
function survivesReset(
  kind: string,
  pin: boolean | undefined,
  tags: readonly string[],
  protectedKinds: readonly string[],
): boolean {
  return (
    kind === 'system' || kind === 'policy' || pin === true || tags.some((t) => protectedKinds.includes(t))
  );
}

export function applyScopeReset(ws: WorkSet, scope: ScopeOutcome, protectedKinds: readonly string[]): number {
  if (scope.task === undefined) return 0;
  // Only artifacts before the last switch to the current task can belong to an earlier one.
  let lastSwitch = -1;
  let prevTask: string | undefined;
  for (const w of ws.items) {
    if (w.task !== prevTask && w.task === scope.task) lastSwitch = w.index;
    prevTask = w.task;
  }
  let dropped = 0;
  for (const w of ws.items) {
    if (w.index >= lastSwitch || w.removed) continue;
    if (w.task === undefined || w.task === scope.task) continue;
    // A tool call and its results are one unit (DESIGN §2): one member that must stay keeps them all.
    const head = w.owner ?? w;
    const unit = [head, ...head.results];
    if (unit.some((m) => survivesReset(m.a.kind, m.a.pin, m.a.tags ?? [], protectedKinds))) continue;
    const fate: Fate = {
      stage: 'scope',
      action: 'dropped',
      reason: 'scope_reset',
      detail: `belongs to task "${w.task}", the current task is "${scope.task}"`,
    };
    if (w.owner) removeResult(w, fate);
    else if (w.results.length > 0) removeUnit(w, fate);
    else remove(w, fate);
    dropped++;
  }
  return dropped;
}
