// `task`, `recency`, `nonempty`: the context still says what the agent is doing, what it was just
// asked, and holds a conversation at all. A context without them is answered by the model, but
// about nothing the user asked: the failures outside testing found passing every other check.
import { latestUserRequest, taskStatement } from '../scope/task.js';
import type { StabilizeResult } from '../stabilize/types.js';
import type { Transcript } from '../types.js';
import { onMainChain } from '../scope/main-chain.js';
import { CONVERSATION } from '../scope/conversation.js';
import type { Locator } from './locate.js';
import type { Violation } from './types.js';

const HOW_FOUND = {
  'task-kind': 'the task artifact',
  'first-user-message': 'the first user message of the current scope (its task statement)',
} as const;

/** Present means in the context as itself: verbatim or masked, never a placeholder. */
function presence(result: StabilizeResult): Map<string, boolean> {
  return new Map(result.context.map((c) => [c.id, c.placeholder !== true]));
}

export function checkTask(t: Transcript, result: StabilizeResult, where: Locator): Violation[] {
  const statement = taskStatement(t.artifacts);
  if (statement.rule === 'none') return [];
  const present = presence(result);
  const how = HOW_FOUND[statement.rule];
  return statement.artifacts
    .filter((a) => present.get(a.id) !== true)
    .map((a) =>
      where.at(
        a.id,
        present.has(a.id)
          ? `${how} was replaced by a placeholder: the model no longer sees the task`
          : `${how} is not in the context: the model no longer sees the task`,
      ),
    );
}

export function checkRecency(t: Transcript, result: StabilizeResult, where: Locator): Violation[] {
  const latest = latestUserRequest(t.artifacts);
  if (!latest) return [];
  const present = presence(result).get(latest.id);
  if (present === true) return [];
  return [
    where.at(
      latest.id,
      present === false
        ? 'the latest user message was replaced by a placeholder: the model would answer an earlier request'
        : 'the latest user message is not in the context: the model would answer an earlier request',
    ),
  ];
}

/** Kinds that are a conversation: what the model is asked to continue. */

export function checkNonempty(t: Transcript, result: StabilizeResult, where: Locator): Violation[] {
  if (result.context.some((c) => CONVERSATION.has(c.kind))) return [];
  const main = t.artifacts.filter((a) => onMainChain(a) && CONVERSATION.has(a.kind));
  const last = main[main.length - 1];
  if (last) {
    return [
      where.at(
        last.id,
        `the context holds no conversation after the system prompt: all ${main.length} conversation artifacts were left out, and both APIs reject a request without messages`,
      ),
    ];
  }
  const side = t.artifacts.filter((a) => a.sidechain === true).length;
  const why =
    side > 0
      ? `the transcript's main chain has no conversation message (its ${side} side-chain records are left out)`
      : 'the transcript has no conversation message';
  return [
    {
      id: '*',
      line: 1,
      column: 1,
      message: `${why}: the context is empty, and both APIs reject a request without messages`,
    },
  ];
}
