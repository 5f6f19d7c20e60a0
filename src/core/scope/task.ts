// The task statement of the current scope and the latest user request: what a context must hold
// for the model to know what it is doing and what it was just asked (DESIGN §4 stage 8, §5). One
// rule for every format: readers mark a task with native `kind: task`; where a format has no such
// kind, the first user message of the current scope is the task statement. A user message tagged
// `meta` (what the client wrote, not the user: a Claude Code command stub) is neither.
import { scopesOf } from '../stabilize/scope.js';
import type { Artifact, Content } from '../types.js';
import { onMainChain } from './main-chain.js';
import { isMetaMessage } from './meta.js';

function hasText(content: Content): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  return content.some((p) => p.type !== 'text' || (typeof p.text === 'string' && p.text.trim() !== ''));
}

/** A message a person (or a simulated user) wrote: not a tool result, not empty, not `meta`. */
export function isUserRequest(a: Artifact): boolean {
  return a.kind === 'user' && onMainChain(a) && hasText(a.content) && !isMetaMessage(a);
}

/**
 * Index of the first artifact of the current scope: the last phase marker after which the scope
 * (task or phase) differs from the one before it, or 0 when no marker changed it.
 */
function currentScopeStart(artifacts: readonly Artifact[]): number {
  const { scopes } = scopesOf(artifacts);
  let start = 0;
  artifacts.forEach((a, i) => {
    if (a.kind !== 'phase' || i === 0) return;
    const before = scopes[i - 1];
    const now = scopes[i];
    if (before?.task !== now?.task || before?.phase !== now?.phase) start = i;
  });
  return start;
}

export interface TaskStatement {
  artifacts: Artifact[];
  /** How it was found, for messages: a native task artifact or the first user message. */
  rule: 'task-kind' | 'first-user-message' | 'none';
}

/**
 * The task statement of the current scope, from the main chain (side chains are sub-agents):
 * every native `kind: task` artifact of the current task; else the first user message of the
 * current scope (from the last phase marker that changed the task or phase); else the first user
 * message of the session.
 */
export function taskStatement(artifacts: readonly Artifact[]): TaskStatement {
  const main = artifacts.filter(onMainChain);
  const { scopes, outcome } = scopesOf(main);
  const tasks = main.filter(
    (a, i) =>
      a.kind === 'task' &&
      (outcome.task === undefined || scopes[i]?.task === undefined || scopes[i]?.task === outcome.task),
  );
  if (tasks.length > 0) return { artifacts: tasks, rule: 'task-kind' };
  const start = currentScopeStart(main);
  const first = main.slice(start).find(isUserRequest) ?? main.find(isUserRequest);
  return first ? { artifacts: [first], rule: 'first-user-message' } : { artifacts: [], rule: 'none' };
}

/** The latest user request of the main chain, if any. */
export function latestUserRequest(artifacts: readonly Artifact[]): Artifact | undefined {
  for (let i = artifacts.length - 1; i >= 0; i--) {
    const a = artifacts[i] as Artifact;
    if (isUserRequest(a)) return a;
  }
  return undefined;
}

/**
 * Ids of what the model must still see after a task switch (scope reset): the latest user request,
 * and the task statement when it is a first user message (a native task has its own rule). The
 * stabilizer keeps them through the reset and the `protected` check expects exactly that.
 */
export function survivesTaskSwitch(artifacts: readonly Artifact[]): Set<string> {
  const latest = latestUserRequest(artifacts);
  const statement = taskStatement(artifacts);
  return new Set([
    ...(latest ? [latest.id] : []),
    ...(statement.rule === 'first-user-message' ? statement.artifacts.map((a) => a.id) : []),
  ]);
}
