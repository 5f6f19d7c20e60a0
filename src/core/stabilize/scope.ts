// Stage 2 (scope): a `phase` artifact sets the scope from there on; artifacts of an earlier task
// than the current one leave the context, unless an author or the policy protects them.
import type { Artifact } from '../types.js';
import type { WorkSet } from './work.js';
import { isAlive, remove, removeResult, removeUnit } from './work.js';
import type { Fate } from './work.js';

export interface ScopeOutcome {
  task?: string;
  phase?: string;
  /** Set when the reset cannot be decided (status escalated). */
  ambiguous?: string;
}

export interface Scope {
  task?: string;
  phase?: string;
}

/** The scope of each artifact (its own, else the one the phase markers before it set) and the current one. */
export function scopesOf(artifacts: readonly Artifact[]): { scopes: Scope[]; outcome: ScopeOutcome } {
  let task: string | undefined;
  let phase: string | undefined;
  let ambiguous: string | undefined;
  const scopes: Scope[] = [];
  for (const a of artifacts) {
    const s = a.scope;
    if (a.kind === 'phase') {
      if (!s || (s.task === undefined && s.phase === undefined)) {
        ambiguous ??= `phase marker ${a.id} (line ${a.source.line}) names neither a task nor a phase`;
      } else {
        // A marker that names a task states the whole scope: its phase, or none. One that names
        // only a phase moves within the current task. Either way the scope after a marker does not
        // depend on markers before it that a stabilized context may have left out.
        if (s.task !== undefined) phase = undefined;
        task = s.task ?? task;
        phase = s.phase ?? phase;
      }
    }
    const own: Scope = {};
    const t = s?.task ?? task;
    const p = s?.phase ?? phase;
    if (t !== undefined) own.task = t;
    if (p !== undefined) own.phase = p;
    scopes.push(own);
  }
  const outcome: ScopeOutcome = {};
  if (task !== undefined) outcome.task = task;
  if (phase !== undefined) outcome.phase = phase;
  if (ambiguous) outcome.ambiguous = ambiguous;
  return { scopes, outcome };
}

export function assignScopes(ws: WorkSet): ScopeOutcome {
  const { scopes, outcome } = scopesOf(ws.items.map((w) => w.a));
  ws.items.forEach((w, i) => {
    w.task = scopes[i]?.task;
    w.phase = scopes[i]?.phase;
  });
  return outcome;
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

/**
 * `keep`: artifacts that stay whatever task they belong to (the latest user request: the model
 * must still see what it was last asked, even when a marker switched the task after it).
 */
export function applyScopeReset(
  ws: WorkSet,
  scope: ScopeOutcome,
  protectedKinds: readonly string[],
  keep: ReadonlySet<string> = new Set(),
): number {
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
    // Members already gone (a result collapsed into a retry summary) no longer hold the unit.
    const unit = [head, ...head.results].filter((m) => m === w || isAlive(m));
    if (
      unit.some((m) => keep.has(m.a.id) || survivesReset(m.a.kind, m.a.pin, m.a.tags ?? [], protectedKinds))
    )
      continue;
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
