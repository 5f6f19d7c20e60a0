// The sticky pull-request comment: one comment per PR, found again by a hidden marker and by its
// author, edited in place on later runs. A token that may not comment (fork PRs, read-only
// permissions) is an expected situation, not a failure: the caller falls back to the annotations
// and the job summary.
import type { getOctokit } from '@actions/github';
import type { CheckReport } from '../core/golden/check-report.js';
import { renderReportSurface } from './summary.js';

/** First line of every comment we write; invisible when rendered. */
export const COMMENT_MARKER = '<!-- context-stability:sticky-comment -->';
/** GitHub rejects comment bodies longer than this. */
export const COMMENT_LIMIT_CHARS = 65_536;
/** The default length budget keeps a margin under the limit: GitHub may count differently than UTF-16 units. */
const DEFAULT_MAX_CHARS = 65_000;
/** Author of comments made with the job's GITHUB_TOKEN. */
export const DEFAULT_COMMENT_AUTHOR = 'github-actions[bot]';

type Octokit = ReturnType<typeof getOctokit>;

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export type CommentOutcome =
  { action: 'created' | 'updated' | 'unchanged'; id: number } | { action: 'skipped'; reason: string };

/**
 * The comment body: the marker, then the report for reviewers (failing transcripts with their
 * semantic diff; passing ones and unified diffs are left to the job summary), at most maxChars
 * characters (default 65,000, under COMMENT_LIMIT_CHARS) with a note when cut. `runUrl` links
 * the run; it differs per run, so with it every new run edits the comment.
 */
export function buildCommentBody(
  report: CheckReport,
  opts: { runUrl?: string; maxChars?: number } = {},
): string {
  return renderReportSurface(report, {
    kind: 'comment',
    limit: Math.min(opts.maxChars ?? DEFAULT_MAX_CHARS, COMMENT_LIMIT_CHARS - 1),
    measure: (text) => text.length,
    limitName: "GitHub's 65,536-character comment limit",
    prefix: [COMMENT_MARKER],
    ...(opts.runUrl ? { runUrl: opts.runUrl } : {}),
  });
}

function httpStatus(error: unknown): number | undefined {
  if (typeof error !== 'object' || error === null || !('status' in error)) return undefined;
  return typeof error.status === 'number' ? error.status : undefined;
}

const NO_PERMISSION: Record<number, string> = {
  401: 'the token was rejected (HTTP 401)',
  403: 'the token may not do this (HTTP 403: pull requests from forks and read-only tokens cannot comment)',
  404: 'the pull request or repository is not visible to the token (HTTP 404)',
};

/** GitHub may hand a body back with CRLF line ends; that is not a change. */
function sameBody(a: string | undefined, b: string): boolean {
  return (a ?? '').replace(/\r\n/g, '\n') === b.replace(/\r\n/g, '\n');
}

/**
 * Finds our comment by marker AND author (paginated), updates it in place, leaves it alone when
 * the body is unchanged, creates it otherwise. The author defaults to github-actions[bot], the
 * author of comments made with the job token; pass the login of a PAT's user or `<app>[bot]`
 * for an App token. 401/403/404 (fork PRs, read-only tokens) → { action: 'skipped', reason }:
 * never throws for permissions; other errors throw.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  body: string,
  opts: { author?: string } = {},
): Promise<CommentOutcome> {
  if (!body.startsWith(COMMENT_MARKER))
    throw new Error('the sticky comment body must start with COMMENT_MARKER');
  if (body.length >= COMMENT_LIMIT_CHARS) {
    throw new Error(
      `the sticky comment body has ${body.length} characters; GitHub accepts fewer than ${COMMENT_LIMIT_CHARS}`,
    );
  }
  const author = (opts.author ?? DEFAULT_COMMENT_AUTHOR).toLowerCase();
  const where = { owner: target.owner, repo: target.repo };
  let step = 'listing the comments';
  try {
    let existing: { id: number; body?: string } | undefined;
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      ...where,
      issue_number: target.issueNumber,
      per_page: 100,
    });
    for await (const page of pages) {
      existing = page.data.find(
        (c) => (c.body ?? '').includes(COMMENT_MARKER) && c.user?.login.toLowerCase() === author,
      );
      if (existing) break;
    }
    if (existing && sameBody(existing.body, body)) return { action: 'unchanged', id: existing.id };
    if (existing) {
      step = 'updating the comment';
      const { data } = await octokit.rest.issues.updateComment({ ...where, comment_id: existing.id, body });
      return { action: 'updated', id: data.id };
    }
    step = 'creating the comment';
    const { data } = await octokit.rest.issues.createComment({
      ...where,
      issue_number: target.issueNumber,
      body,
    });
    return { action: 'created', id: data.id };
  } catch (error) {
    const status = httpStatus(error);
    const why = status === undefined ? undefined : NO_PERMISSION[status];
    if (why === undefined) throw error;
    return {
      action: 'skipped',
      reason: `No pull request comment: ${step} failed because ${why}. The results are in the annotations and the job summary.`,
    };
  }
}
