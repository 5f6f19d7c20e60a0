// `protected`: what must be in the context whatever the budget (DESIGN §4 stage 8), recomputed
// from the input transcript rather than read from the stages' bookkeeping.
import type { Policy } from '../policy/schema.js';
import { survivesTaskSwitch } from '../scope/task.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Artifact, Transcript } from '../types.js';
import { onMainChain } from '../scope/main-chain.js';
import { openTurn, recentTurnMessages } from '../scope/recent.js';
import { textOf } from '../stabilize/work.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

export function mustKeep(t: Transcript, policy: Policy): Map<string, string> {
  const need = new Map<string, string>();
  const main = t.artifacts.filter(onMainChain);
  let currentTask: string | undefined;
  for (const a of main) if (a.kind === 'phase' && a.scope?.task !== undefined) currentTask = a.scope.task;
  const aggressive = policy.resilience.truncation_mode === 'aggressive';
  // An artifact's task is its own scope, else the one the latest phase marker before it set.
  let markerTask: string | undefined;
  const tasks: (string | undefined)[] = [];
  for (const a of main) {
    if (a.kind === 'phase' && a.scope?.task !== undefined) markerTask = a.scope.task;
    const task = a.scope?.task ?? markerTask;
    tasks.push(task);
    const inScope = task === undefined || currentTask === undefined || task === currentTask;
    if (a.kind === 'system' || a.kind === 'policy') need.set(a.id, a.kind);
    else if (a.pin === true) need.set(a.id, 'pinned');
    else if (a.kind === 'task' && inScope) need.set(a.id, 'task');
    else if (policy.resilience.enabled && !aggressive) {
      const tag = (a.tags ?? []).find((x) => policy.resilience.protected_message_kinds.includes(x));
      if (tag !== undefined && inScope) need.set(a.id, `tag:${tag}`);
    }
  }
  // The recent window is taken after the scope reset (DESIGN §4 stage 2): a message of an earlier
  // task before the last switch to the current one is gone unless pinned or tagged protected, or
  // unless one of its tool results is (a call and its results are one unit).
  let lastSwitch = -1;
  tasks.forEach((task, i) => {
    if (task !== tasks[i - 1] && task === currentTask) lastSwitch = i;
  });
  // The latest request and a first-user-message task statement survive a task switch.
  const kept = survivesTaskSwitch(t.artifacts);
  const stays = (a: Artifact): boolean =>
    kept.has(a.id) ||
    a.pin === true ||
    (policy.resilience.enabled &&
      (a.tags ?? []).some((x) => policy.resilience.protected_message_kinds.includes(x)));
  const heldCalls = new Set(main.filter(stays).map((a) => t.pairing.resultToCall[a.id]));
  const reset = (a: Artifact, i: number): boolean =>
    i < lastSwitch && tasks[i] !== undefined && tasks[i] !== currentTask && !stays(a) && !heldCalls.has(a.id);
  // What normalize leaves out does not count as a turn or an answer: a result that answers no call,
  // and an assistant with no text whose every call is unanswered.
  const unpairedResults = new Set(t.pairing.unpairedResults.map((u) => u.artifact));
  const unansweredCalls = new Map<string, number>();
  for (const u of t.pairing.unpairedCalls)
    unansweredCalls.set(u.artifact, (unansweredCalls.get(u.artifact) ?? 0) + 1);
  // Whether each message says something, read once (three rules below ask).
  const speaking = new Set(main.filter((a) => textOf(a.content).trim() !== ''));
  const says = (a: Artifact): boolean => speaking.has(a);
  // A call the history ends on (its open turn) is pending, not abandoned: normalize notes it in the
  // message, which then says something, instead of leaving the message out.
  const pending = openTurn(
    main.filter((a) => !unpairedResults.has(a.id)).map((a) => ({ a, kind: a.kind, hasText: says(a) })),
  );
  const noted = new Set([...pending].filter(({ a }) => unansweredCalls.has(a.id)).map(({ a }) => a.id));
  const leaves = (a: Artifact): boolean =>
    unpairedResults.has(a.id) ||
    (a.tool_calls !== undefined &&
      a.tool_calls.length > 0 &&
      unansweredCalls.get(a.id) === a.tool_calls.length &&
      !says(a) &&
      !noted.has(a.id));
  const inPlay = main
    .filter((a, i) => !reset(a, i) && !leaves(a))
    .map((a) => ({ a, kind: a.kind, hasText: a.kind === 'assistant' && (says(a) || noted.has(a.id)) }));
  for (const { a } of recentTurnMessages(inPlay, policy.keep_recent))
    if (!need.has(a.id)) need.set(a.id, 'recent');
  return need;
}

/** Protections of the should-keep tier: tags and the recent turns (never system, task or pinned). */
export function isShouldKeep(why: string): boolean {
  return why === 'recent' || why.startsWith('tag:');
}

export function checkProtected(
  t: Transcript,
  result: StabilizeResult,
  policy: Policy,
  unpaired: ReadonlySet<string>,
  where: Locator,
): Violation[] {
  const present = new Map(result.context.map((c) => [c.id, c]));
  const ledger = new Map(result.ledger.map((e) => [e.id, e]));
  // What the history took before any cut (an artifact dropped uncounted has no count: a lower bound).
  // An artifact left uncounted was dropped once nothing more fitted: the history was over the budget.
  const historyTokens = result.ledger.some((e) => e.tokens_before === null)
    ? Number.POSITIVE_INFINITY
    : result.ledger.reduce((s, e) => s + (e.tokens_before ?? 0), 0);
  const out: Violation[] = [];
  for (const [id, why] of mustKeep(t, policy)) {
    const item = present.get(id);
    // An artifact a provider would reject (unpaired) cannot be sent whatever protects it.
    if (unpaired.has(id)) continue;
    // Two tiers (DESIGN §4 stage 9): a should-keep artifact (evidence, a recent turn) may give way to
    // the must-keep tier under pressure, with a warning status. Verified here, not taken on trust:
    // it is excused only when the history did not fit the budget (under pressure the cut drops the
    // oldest steps of history, should-keep evidence in them included). A tool result so cut whose
    // call stays (its assistant holds a must-keep result too) is left as a placeholder instead, which
    // keeps the pair valid (seed 1016849903).
    if (isShouldKeep(why) && result.status === 'warning' && historyTokens > result.budget.limit) {
      const reason = ledger.get(id)?.reason;
      if (!item && reason === 'degraded') continue;
      if (item?.placeholder === true && reason === 'pair_placeholder') continue;
    }
    if (!item) out.push(where.at(id, `protected artifact (${why}) is missing from the context`));
    else if (item.placeholder)
      out.push(where.at(id, `protected artifact (${why}) was replaced by a placeholder`));
  }
  return out;
}
