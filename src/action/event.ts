// The workflow run the action is in, read from the runner's variables and event payload. Read
// here rather than through @actions/github's `context`, which parses the payload when the module
// loads and would throw on a malformed file before the action could say what is wrong.
import { readFile } from 'node:fs/promises';

type Env = Readonly<Record<string, string | undefined>>;

/** Events whose payload names a pull request the sticky comment belongs to. */
export const PULL_REQUEST_EVENTS = ['pull_request', 'pull_request_target'] as const;

export interface PullRequestRef {
  owner: string;
  repo: string;
  issueNumber: number;
}

export type PullRequestLookup =
  | { ok: true; target: PullRequestRef }
  | { ok: false; reason: 'not-a-pull-request' | 'no-repository' | 'unreadable-event' };

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The pull request of a pull_request(_target) run, from GITHUB_REPOSITORY and GITHUB_EVENT_PATH. */
export async function pullRequestOf(env: Env): Promise<PullRequestLookup> {
  const event = env['GITHUB_EVENT_NAME'] ?? '';
  if (!PULL_REQUEST_EVENTS.some((e) => e === event)) return { ok: false, reason: 'not-a-pull-request' };
  const [owner, repo, ...rest] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  if (!owner || !repo || rest.length > 0) return { ok: false, reason: 'no-repository' };
  const file = env['GITHUB_EVENT_PATH'];
  if (!file) return { ok: false, reason: 'unreadable-event' };
  let payload: unknown;
  try {
    payload = JSON.parse(await readFile(file, 'utf8'));
  } catch {
    // Neither the path nor the parser's message (it quotes the file) goes to the log.
    return { ok: false, reason: 'unreadable-event' };
  }
  const pr = isObject(payload) ? payload['pull_request'] : undefined;
  const number = isObject(pr) ? pr['number'] : isObject(payload) ? payload['number'] : undefined;
  if (typeof number !== 'number' || !Number.isSafeInteger(number) || number < 1) {
    return { ok: false, reason: 'unreadable-event' };
  }
  return { ok: true, target: { owner, repo, issueNumber: number } };
}

/**
 * Where the sticky comment goes: the pr-number input when given (any event: workflow_run,
 * workflow_dispatch…), else the pull request of a pull_request(_target) event.
 */
export async function commentTargetOf(env: Env, prNumber: number | undefined): Promise<PullRequestLookup> {
  if (prNumber === undefined) return pullRequestOf(env);
  const [owner, repo, ...rest] = (env['GITHUB_REPOSITORY'] ?? '').split('/');
  if (!owner || !repo || rest.length > 0) return { ok: false, reason: 'no-repository' };
  return { ok: true, target: { owner, repo, issueNumber: prNumber } };
}

/** The run's page, linked from the comment; undefined outside Actions. */
export function runUrl(env: Env): string | undefined {
  const repository = env['GITHUB_REPOSITORY'];
  const runId = env['GITHUB_RUN_ID'];
  if (!repository || !runId || !/^\d+$/.test(runId)) return undefined;
  const server = (env['GITHUB_SERVER_URL'] || 'https://github.com').replace(/\/+$/, '');
  return `${server}/${repository}/actions/runs/${runId}`;
}

export function apiUrl(env: Env): string {
  return (env['GITHUB_API_URL'] || 'https://api.github.com').replace(/\/+$/, '');
}
