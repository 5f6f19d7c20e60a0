// Stage 8 (protect), computed before the pruning stages because they may only touch what is not
// protected (DESIGN §4, seed 002 "Protected artifacts"). Each protection keeps its reason so that
// `explain` and the ledger can say what protected an artifact, and so that aggressive collapse can
// lift exactly the `error`-tag protection it is allowed to override.
import { latestUserRequest, taskStatement } from '../scope/task.js';
import type { WorkSet, Work } from './work.js';
import { isOutcome, isOutcomeCall } from './outcome.js';
import { openLoop } from './open-loop.js';
import { hasText, isAlive, isFailure } from './work.js';
import { recentTurnMessages, recentTurnStart } from '../scope/recent.js';

export interface ProtectRules {
  enabled: boolean;
  protectedTools: readonly string[];
  protectedKinds: readonly string[];
  keepRecent: number;
}

function add(w: Work, reason: string): void {
  if (!w.protectedBy.includes(reason)) w.protectedBy.push(reason);
}

/** Index of the first artifact of the `keepRecent` newest turns (Infinity when 0). */
export function recentWindowStart(ws: WorkSet, keepRecent: number): number {
  if (keepRecent <= 0) return Number.POSITIVE_INFINITY;
  const alive = ws.items.filter(isAlive);
  const start = recentTurnStart(
    alive.map((w) => ({ kind: w.a.kind })),
    keepRecent,
  );
  return alive[start]?.index ?? 0;
}

/** The messages kept for being recent: of each of the `keepRecent` newest turns, its user message and latest answer. */
function recentMessages(ws: WorkSet, keepRecent: number): Set<Work> {
  const items = ws.items
    .filter(isAlive)
    .map((w) => ({ w, kind: w.a.kind, hasText: w.a.kind === 'assistant' && hasText(w) }));
  return new Set(recentTurnMessages(items, keepRecent).map((i) => i.w));
}

/** The newest outcome of each command family among the live artifacts: the session's current outcomes. */
export function latestOfFamilies(ws: WorkSet): Map<string, Work> {
  const latest = new Map<string, Work>();
  for (const w of ws.items) if (isAlive(w) && w.family !== undefined && isOutcome(w)) latest.set(w.family, w);
  return latest;
}

/** For each family whose latest outcome is a failure, its newest successful outcome before it. */
function latestSuccessAfterFailure(ws: WorkSet, latest: Map<string, Work>): Map<string, Work> {
  const out = new Map<string, Work>();
  for (const w of ws.items) {
    if (!isAlive(w) || w.family === undefined || isFailure(w) || !isOutcome(w)) continue;
    const last = latest.get(w.family);
    if (last && last !== w && isFailure(last)) out.set(w.family, w);
  }
  return out;
}

export function computeProtection(ws: WorkSet, rules: ProtectRules): void {
  const recent = recentMessages(ws, rules.keepRecent);
  const latest = rules.enabled ? latestOfFamilies(ws) : new Map<string, Work>();
  const latestResults = new Set(latest.values());
  // A result of a protected tool stays unless a later result supersedes it (DESIGN §4 stage 8):
  // `apply_patch` with two different patches shares a family but neither supersedes the other.
  const newestBySupersede = new Map<string, Work>();
  for (const w of ws.items)
    if (isAlive(w) && w.supersede !== undefined) newestBySupersede.set(w.supersede, w);
  // The newest call of each family is the latest invocation, when it is a command's (outcome.ts: its
  // results hold an outcome, or it has none yet and runs a shell command that is not a read): a call
  // whose results are contents is no more protected than they are.
  const latestCall = new Map<string, Work>();
  for (const w of ws.items) {
    if (!isAlive(w) || !w.toolCalls) continue;
    for (const c of w.toolCalls) {
      const f = ws.families.get(c)?.family;
      if (f !== undefined && isOutcomeCall(w, c)) latestCall.set(f, w);
    }
  }
  for (const w of ws.items) {
    if (!isAlive(w)) continue;
    const a = w.a;
    if (a.kind === 'system' || a.kind === 'policy' || a.kind === 'task') add(w, a.kind);
    if (a.pin === true) add(w, 'pinned');
    if (recent.has(w)) add(w, 'recent');
    if (!rules.enabled) continue;
    for (const t of a.tags ?? []) if (rules.protectedKinds.includes(t)) add(w, `tag:${t}`);
    // is_error and a non-zero exit code mean `error` in every format (seed 002: failures are
    // evidence); aggressive mode may still collapse a retry run of them (collapse.ts).
    if (
      a.kind === 'tool' &&
      rules.protectedKinds.includes('error') &&
      (a.is_error === true || (a.exit_code !== undefined && a.exit_code !== 0))
    ) {
      add(w, 'tag:error');
    }
    if (w.family !== undefined && latestResults.has(w)) add(w, `latest:${w.family}`);
    if (
      a.kind === 'tool' &&
      !latestResults.has(w) &&
      (w.supersede === undefined || newestBySupersede.get(w.supersede) === w) &&
      a.tool !== undefined &&
      rules.protectedTools.includes(a.tool) &&
      isOutcome(w)
    ) {
      add(w, `tool:${a.tool}`);
    }
  }
  if (rules.enabled) {
    for (const [family, w] of latestCall) add(w, `latest:${family}`);
    // Seed 002: "retain at least one recent successful command outcome per active workflow". When
    // the latest run of a command failed, its latest success stays too: what worked before.
    for (const [family, w] of latestSuccessAfterFailure(ws, latest)) add(w, `latest_success:${family}`);
  }
  // The markers that set the current scope (scope.ts: the last one naming a task, and the last one
  // naming a phase after it): without them the context no longer says which scope it is in, and stabilizing
  // it again would judge its artifacts and summaries against another scope.
  let taskMarker: Work | undefined;
  let phaseMarker: Work | undefined;
  for (const w of ws.items) {
    if (!isAlive(w) || w.a.kind !== 'phase') continue;
    // A marker naming a task states the whole scope (scope.ts): a phase named before it is over.
    if (w.a.scope?.task !== undefined) {
      taskMarker = w;
      phaseMarker = undefined;
    }
    if (w.a.scope?.phase !== undefined) phaseMarker = w;
  }
  if (taskMarker) add(taskMarker, 'scope');
  if (phaseMarker) add(phaseMarker, 'scope');
  // What the model must see to know what it is doing and what it was just asked: the task
  // statement of the current scope and the latest user request (the `task` and `recency` checks
  // recompute both from the transcript with the same functions).
  const artifacts = ws.items.map((w) => w.a);
  const byArtifact = new Map(ws.items.map((w) => [w.a, w]));
  const statement = taskStatement(artifacts);
  // A native task is protected by its kind already.
  for (const a of statement.rule === 'first-user-message' ? statement.artifacts : []) {
    const w = byArtifact.get(a);
    if (w && isAlive(w)) add(w, 'task_statement');
  }
  const request = latestUserRequest(artifacts);
  const lw = request ? byArtifact.get(request) : undefined;
  if (lw && isAlive(lw)) add(lw, 'latest_request');
  // The open tool loop: the results the model is about to read, and their calls (must keep).
  for (const w of openLoop(ws)) add(w, 'open_loop');
  closePairs(ws);
}

/** A protected result keeps its call: the assistant that made it is protected with it. */
export function closePairs(ws: WorkSet): void {
  for (const w of ws.items) {
    if (!isAlive(w) || !w.owner) continue;
    const own = w.protectedBy.filter((p) => !p.startsWith('pair:'));
    if (own.length > 0) add(w.owner, `pair:${w.a.id}`);
  }
}

/**
 * Aggressive collapse may override the `error` tag (DESIGN §4 stage 7): lift that protection, and
 * the pair protection its owner got from it, leaving every other reason in place.
 */
export function liftTagProtection(w: Work): void {
  w.protectedBy = w.protectedBy.filter((p) => !p.startsWith('tag:'));
  if (w.owner) w.owner.protectedBy = w.owner.protectedBy.filter((p) => p !== `pair:${w.a.id}`);
}

export function isCollapsible(w: Work): boolean {
  return w.protectedBy.every((p) => p.startsWith('tag:') || p.startsWith('latest:'));
}
