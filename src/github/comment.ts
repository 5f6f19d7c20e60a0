// The sticky pull-request comment: one comment per PR and comment-header, found again by a hidden
// marker (the header's) and by its author, edited in place on later runs, written when comment-on
// says so (commentRules). A token that may not comment (fork PRs, read-only
// permissions) is an expected situation, not a failure: the caller falls back to the annotations
// and the job summary.
import type { getOctokit } from '@actions/github';
import type { CheckReport } from '../core/golden/check-report.js';
import { renderReportSurface } from './summary.js';

/** First line of every comment we write (without a comment-header); invisible when rendered. */
export const COMMENT_MARKER = '<!-- context-stability:sticky-comment -->';
/** GitHub rejects comment bodies longer than this. */
export const COMMENT_LIMIT_CHARS = 65_536;
/** The default length budget keeps a margin under the limit: GitHub may count differently than UTF-16 units. */
const DEFAULT_MAX_CHARS = 65_000;
/** Author of comments made with the job's GITHUB_TOKEN. */
export const DEFAULT_COMMENT_AUTHOR = 'github-actions[bot]';

/**
 * A comment-header: what tells the sticky comments of several workflows on one pull request apart.
 * Only these characters, so it can sit in the hidden HTML comment and in a Markdown code span as it
 * is: it can neither close the marker (`-->`, `--!>`) nor inject markup or a mention.
 */
export const COMMENT_HEADER_PATTERN = /^[A-Za-z0-9._-]{1,64}$/;

/** When the sticky comment is posted (the comment-on input). */
export const COMMENT_ON = ['always', 'failure', 'change'] as const;
export type CommentOn = (typeof COMMENT_ON)[number];

type Octokit = ReturnType<typeof getOctokit>;

export interface CommentTarget {
  owner: string;
  repo: string;
  issueNumber: number;
}

export type CommentOutcome =
  | { action: 'created' | 'updated' | 'unchanged'; id: number; url: string }
  /** comment-on said not to create one, and there was none to update. */
  | { action: 'not-created'; reason: string }
  | { action: 'skipped'; reason: string };

function checkedHeader(header: string | undefined): string | undefined {
  if (header === undefined || header === '') return undefined;
  if (!COMMENT_HEADER_PATTERN.test(header)) {
    throw new Error('a comment header is 1 to 64 characters among A-Z, a-z, 0-9, dot, underscore and dash');
  }
  return header;
}

/**
 * The hidden first line of the sticky comment: COMMENT_MARKER without a header (the comments of
 * earlier versions are found again), else `<!-- context-stability:sticky-comment header=NAME -->`.
 * The two never contain each other, so each header finds only its own comment.
 */
export function commentMarker(header?: string): string {
  const h = checkedHeader(header);
  return h === undefined ? COMMENT_MARKER : `<!-- context-stability:sticky-comment header=${h} -->`;
}

const HEADING = '## context-stability check';

/**
 * The comment body: the marker, then the report for reviewers (failing transcripts with their
 * semantic diff; passing ones and unified diffs are left to the job summary), at most maxChars
 * characters (default 65,000, under COMMENT_LIMIT_CHARS) with a note when cut. `runUrl` links
 * the run; it differs per run, so with it every new run edits the comment (unless comment-on is
 * change). `header` (a comment-header) goes into the marker and the heading.
 */
export function buildCommentBody(
  report: CheckReport,
  opts: { runUrl?: string; maxChars?: number; header?: string } = {},
): string {
  const header = checkedHeader(opts.header);
  const marker = commentMarker(header);
  // The header is a code span: its characters (see COMMENT_HEADER_PATTERN) need no escaping there.
  const heading = header === undefined ? HEADING : `${HEADING} · \`${header}\``;
  // Room for the header, in either of the two places it may go below.
  const reserve = header === undefined ? 0 : heading.length + 2;
  const body = renderReportSurface(report, {
    kind: 'comment',
    limit: Math.min(opts.maxChars ?? DEFAULT_MAX_CHARS, COMMENT_LIMIT_CHARS - 1) - reserve,
    measure: (text) => text.length,
    limitName: "GitHub's 65,536-character comment limit",
    prefix: [marker],
    ...(opts.runUrl ? { runUrl: opts.runUrl } : {}),
  });
  if (header === undefined) return body;
  const start = `${marker}\n${HEADING}\n`;
  if (body.startsWith(start)) return `${marker}\n${heading}\n${body.slice(start.length)}`;
  // A layout without that heading: the header on a line of its own, right below the marker.
  return `${marker}\n${heading}\n\n${body.slice(marker.length + 1)}`;
}

/**
 * When to post, for comment-on and whether the run failed (the status output is fail):
 * `create`: a missing comment is created (else the run leaves the pull request without one);
 * `ignoreRunLink`: a comment that differs only in the link to the run is left alone.
 *
 * - always: create or update on every run (an identical body, run link included, is left alone).
 * - failure: a failing run creates or updates; a passing run never creates, but updates an
 *   existing comment to the passing report (so an old failure does not linger) unless it already
 *   shows that result.
 * - change: only a changed result writes: an existing comment is updated when the report differs
 *   (the run link aside); a comment is created only for a failing run.
 */
export function commentRules(on: CommentOn, failed: boolean): { create: boolean; ignoreRunLink: boolean } {
  switch (on) {
    case 'always':
      return { create: true, ignoreRunLink: false };
    case 'failure':
      return { create: failed, ignoreRunLink: !failed };
    case 'change':
      return { create: failed, ignoreRunLink: true };
  }
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
function normalized(text: string | undefined, ignoreRunLink: boolean): string {
  const lf = (text ?? '').replace(/\r\n/g, '\n');
  // The line summary.ts ends the report with: link('Details of this run', runUrl).
  return ignoreRunLink ? lf.replace(/^\[Details of this run\]\(https?:\/\/[^\s)]*\)\n/gm, '') : lf;
}

export interface UpsertOptions {
  /** Login the comment is found by; default github-actions[bot] (the job token). */
  author?: string;
  /** The comment-header the body was built with: the comment is found by its marker. */
  header?: string;
  /** Create the comment when there is none (default true); false: { action: 'not-created' }. */
  create?: boolean;
  /** Leave a comment alone when it differs from the body only in the link to the run. */
  ignoreRunLink?: boolean;
}

/**
 * Finds our comment by marker (of opts.header) AND author (paginated), updates it in place,
 * leaves it alone when the body is unchanged, creates it otherwise (unless opts.create is
 * false). The author defaults to github-actions[bot], the author of comments made with the job
 * token; pass the login of a PAT's user or `<app>[bot]` for an App token. 401/403/404 (fork
 * PRs, read-only tokens) → { action: 'skipped', reason }: never throws for permissions; other
 * errors throw.
 */
export async function upsertStickyComment(
  octokit: Octokit,
  target: CommentTarget,
  body: string,
  opts: UpsertOptions = {},
): Promise<CommentOutcome> {
  const marker = commentMarker(opts.header);
  if (!body.startsWith(`${marker}\n`) && body !== marker)
    throw new Error('the sticky comment body must start with COMMENT_MARKER (commentMarker of its header)');
  if (body.length >= COMMENT_LIMIT_CHARS) {
    throw new Error(
      `the sticky comment body has ${body.length} characters; GitHub accepts fewer than ${COMMENT_LIMIT_CHARS}`,
    );
  }
  const author = (opts.author ?? DEFAULT_COMMENT_AUTHOR).toLowerCase();
  const ignoreRunLink = opts.ignoreRunLink ?? false;
  const where = { owner: target.owner, repo: target.repo };
  let step = 'listing the comments';
  try {
    let existing: { id: number; body?: string; html_url: string } | undefined;
    const pages = octokit.paginate.iterator(octokit.rest.issues.listComments, {
      ...where,
      issue_number: target.issueNumber,
      per_page: 100,
    });
    for await (const page of pages) {
      // COMMENT_MARKER and a header's marker never contain one another: each finds only its own.
      existing = page.data.find(
        (c) => (c.body ?? '').includes(marker) && c.user?.login.toLowerCase() === author,
      );
      if (existing) break;
    }
    if (existing && normalized(existing.body, ignoreRunLink) === normalized(body, ignoreRunLink))
      return { action: 'unchanged', id: existing.id, url: existing.html_url };
    if (existing) {
      step = 'updating the comment';
      const { data } = await octokit.rest.issues.updateComment({ ...where, comment_id: existing.id, body });
      return { action: 'updated', id: data.id, url: data.html_url };
    }
    if (opts.create === false) {
      return { action: 'not-created', reason: 'there is no earlier comment to update' };
    }
    step = 'creating the comment';
    const { data } = await octokit.rest.issues.createComment({
      ...where,
      issue_number: target.issueNumber,
      body,
    });
    return { action: 'created', id: data.id, url: data.html_url };
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
