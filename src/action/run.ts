// One action run, after the inputs are parsed: produce the report (check, update or merge), write
// it, log it, then hand it to every GitHub surface — the sticky PR comment, the annotations, the
// job summary and the step outputs — and fail the step per fail-on. Transcript-derived text only
// reaches the log inside stop-commands blocks (log.ts); annotations are escaped by @actions/core;
// the summary and comment are HTML-escaped by their builders.
import { appendFile } from 'node:fs/promises';
import path from 'node:path';
import * as core from '@actions/core';
import { getOctokit } from '@actions/github';
import { formatDiagnostic } from '../core/diagnostics.js';
import type { CheckReport } from '../core/golden/check-report.js';
import { describeSummary } from '../core/golden/describe.js';
import { renderText } from '../core/golden/render-text.js';
import type { Diagnostic } from '../core/types.js';
import { writeReportFile } from '../cli/check/output.js';
import { writeViewPage } from '../cli/check/view-page.js';
import {
  ANNOTATION_LIMIT,
  collectAnnotations,
  diagnosticAnnotation,
  emitAnnotations,
  selectAnnotations,
} from '../github/annotations.js';
import type { AnnotationCounts } from '../github/annotations.js';
import { buildCommentBody, commentRules, upsertStickyComment } from '../github/comment.js';
import { escapeText } from '../github/html.js';
import { logGroup, logLine } from '../github/log.js';
import type { LogWrite } from '../github/log.js';
import { buildJobSummary } from '../github/summary.js';
import { apiUrl, commentTargetOf, runUrl } from './event.js';
import type { ActionOptions } from './inputs.js';
import { DEFAULT_REPORT_NAME } from './inputs.js';
import { refusedOutput } from '../io/output-path.js';
import type { OutputInput } from '../io/output-path.js';
import { produceReport } from './produce.js';
import { piiKeyFrom } from '../cli/pii-key.js';
import type { WorkerScript } from '../cli/check/golden-jobs.js';
import { failureMessage, findingsOf, verdictOf, withError } from './verdict.js';
import type { Verdict } from './verdict.js';

type Env = Readonly<Record<string, string | undefined>>;

export interface ActionContext {
  /** GITHUB_WORKSPACE, else the process's working directory. */
  cwd: string;
  env: Env;
  write?: LogWrite;
  /** Where worker threads start from (the bundle's entry); absent: one thread. */
  workerScript?: WorkerScript;
}

/** The default report file: one name per shard, so downloaded shard artifacts never collide. */
export function defaultReportName(options: ActionOptions): string {
  const s = options.shard;
  return s ? `context-stability-report-shard-${s.index}-of-${s.total}.json` : DEFAULT_REPORT_NAME;
}

/** The viewer page: `html-path`, else next to the default report, named after it. */
export function htmlTarget(options: ActionOptions, ctx: ActionContext): string {
  if (options.htmlPath !== undefined) return path.resolve(ctx.cwd, options.htmlPath);
  const name = defaultReportName(options).replace(/\.json$/, '.html');
  return path.resolve(ctx.env['RUNNER_TEMP'] || ctx.cwd, name);
}

export function reportTarget(options: ActionOptions, ctx: ActionContext): string {
  if (options.reportPath !== undefined) return path.resolve(ctx.cwd, options.reportPath);
  return path.resolve(ctx.env['RUNNER_TEMP'] || ctx.cwd, defaultReportName(options));
}

interface Commented {
  /** Why no comment was posted, when the reader should know: one notice each. */
  notices: string[];
  /** The comment's html_url (created, updated or left as it was); '' when there is none. */
  url: string;
}

const NO_COMMENT: Commented = { notices: [], url: '' };

const LOOKUP_PROBLEMS = {
  'no-repository': 'No pull request comment: GITHUB_REPOSITORY does not name a repository (owner/name).',
  'unreadable-event': 'No pull request comment: the pull request could not be read from the event payload.',
} as const;

/**
 * The comment (check and merge runs of a pull request, or of the pr-number input) per comment-on;
 * never fails the job. `failed`: the status output is fail.
 */
async function postComment(
  options: ActionOptions,
  ctx: ActionContext,
  report: CheckReport,
  failed: boolean,
): Promise<Commented> {
  if (!options.comment || options.mode === 'update') return NO_COMMENT;
  const write = ctx.write;
  if (options.shard) {
    logLine('Sharded run: the merge step posts the pull request comment.', write);
    return NO_COMMENT;
  }
  const pr = await commentTargetOf(ctx.env, options.prNumber);
  if (!pr.ok) {
    if (pr.reason === 'not-a-pull-request') return NO_COMMENT;
    return { notices: [LOOKUP_PROBLEMS[pr.reason]], url: '' };
  }
  if (options.githubToken === '') {
    return {
      notices: [
        'No pull request comment: the github-token input is empty. The results are in the annotations and the job summary.',
      ],
      url: '',
    };
  }
  const url = runUrl(ctx.env);
  const header = options.commentHeader;
  const body = buildCommentBody(report, { ...(url ? { runUrl: url } : {}), ...(header ? { header } : {}) });
  const octokit = getOctokit(options.githubToken, { baseUrl: apiUrl(ctx.env) });
  try {
    const outcome = await upsertStickyComment(octokit, pr.target, body, {
      ...(options.commentAuthor ? { author: options.commentAuthor } : {}),
      ...(header ? { header } : {}),
      ...commentRules(options.commentOn, failed),
    });
    if (outcome.action === 'skipped') return { notices: [outcome.reason], url: '' };
    if (outcome.action === 'not-created') {
      logLine(
        `No pull request comment: comment-on is ${options.commentOn} and the run passed; ${outcome.reason}.`,
        write,
      );
      return NO_COMMENT;
    }
    logLine(`Pull request comment ${outcome.action} (id ${outcome.id}).`, write);
    return { notices: [], url: outcome.url };
  } catch (error) {
    const status = (error as { status?: unknown } | null)?.status;
    // Only the HTTP status: an API error message is not ours to print.
    const why =
      typeof status === 'number' ? `GitHub answered HTTP ${status}` : 'the GitHub API could not be reached';
    return {
      notices: [`No pull request comment: ${why}. The results are in the annotations and the job summary.`],
      url: '',
    };
  }
}

async function writeSummary(ctx: ActionContext, text: string): Promise<void> {
  const file = ctx.env['GITHUB_STEP_SUMMARY'];
  if (!file) return;
  try {
    await appendFile(file, text.endsWith('\n') ? text : `${text}\n`, 'utf8');
  } catch (error) {
    core.warning(
      `The job summary could not be written (${(error as NodeJS.ErrnoException).code ?? 'error'}).`,
    );
  }
}

/**
 * Every output, also when the run stopped without a report (counts 0, paths ''). `obsolete` is ''
 * when the report cannot tell (a shard report, whose obsolete list is null; no report).
 */
function setOutputs(
  verdict: Verdict,
  report: CheckReport | null,
  files: { report?: string | null; html?: string | null; commentUrl?: string } = {},
): void {
  const s = report?.summary;
  core.setOutput('status', verdict.status);
  core.setOutput('checked', s?.checked ?? 0);
  core.setOutput('passed', s?.pass ?? 0);
  core.setOutput('violations', verdict.findings.violations);
  core.setOutput('drifted', s?.drift ?? 0);
  core.setOutput('new', s?.new ?? 0);
  core.setOutput('errors', s?.errors ?? 0);
  core.setOutput('obsolete', report && report.obsolete !== null ? report.summary.obsolete : '');
  core.setOutput('report-path', files.report ?? '');
  core.setOutput('html-path', files.html ?? '');
  core.setOutput('comment-url', files.commentUrl ?? '');
}

/** A run that stopped before it had a report: an invalid policy, unreadable or unmergeable reports. */
async function stopped(
  options: ActionOptions,
  ctx: ActionContext,
  message: string,
  diagnostics: Diagnostic[],
): Promise<void> {
  logGroup('context-stability: what went wrong', diagnostics.map(formatDiagnostic).join('\n'), ctx.write);
  const failing = options.failOn.includes('error');
  if (options.annotate) {
    const selection = selectAnnotations(diagnostics.map(diagnosticAnnotation), {
      error: ANNOTATION_LIMIT - (failing ? 1 : 0),
    });
    emitAnnotations(selection.shown);
  }
  await writeSummary(ctx, `## context-stability\n\n${escapeText(message)}\n`);
  const none = { violations: 0, drift: 0, new: 0, error: 0 };
  setOutputs(withError(verdictOf(none, options.failOn), options.failOn), null);
  if (failing) core.setFailed(`context-stability: ${message}`);
  else core.warning(`context-stability: ${message} (not failing: error is not in fail-on)`);
}

function noteForShard(report: CheckReport): string[] {
  if (!report.shard) return [];
  return [
    `Shard ${report.shard.index}/${report.shard.total}: obsolete goldens and the pull request comment come from the merge step.`,
  ];
}

/** A report or page path that a symbolic link carries out of the workspace: refused before the run. */
async function refusedOutputs(
  options: ActionOptions,
  ctx: ActionContext,
  report: string,
): Promise<{ message: string; diagnostic: Diagnostic } | null> {
  const roots = { workspace: ctx.cwd, runnerTemp: ctx.env['RUNNER_TEMP'] || undefined };
  const targets: [OutputInput, string, string | undefined][] = [['report-path', report, options.reportPath]];
  if (options.mode !== 'merge') targets.push(['html-path', htmlTarget(options, ctx), options.htmlPath]);
  for (const [input, file, given] of targets) {
    const diagnostic = await refusedOutput(input, file, given ?? input, roots);
    if (diagnostic) {
      return {
        message: `The ${input} folder resolves outside the workspace (a symbolic link); nothing was run or written. See the annotation.`,
        diagnostic,
      };
    }
  }
  return null;
}

/** Runs the action with parsed options; @actions/core reports everything (outputs, failure). */
export async function runAction(options: ActionOptions, ctx: ActionContext): Promise<void> {
  const write = ctx.write;
  const target = reportTarget(options, ctx);
  const refusal = await refusedOutputs(options, ctx, target);
  if (refusal) return stopped(options, ctx, refusal.message, [refusal.diagnostic]);
  const produced = await produceReport(
    { ...options, piiKey: piiKeyFrom(ctx.env) },
    ctx.cwd,
    target,
    ctx.workerScript,
  );
  if (!produced.ok) return stopped(options, ctx, produced.message, produced.diagnostics);
  const { report } = produced;

  const transcriptDiagnostics = report.transcripts.flatMap((t) => t.diagnostics ?? []);
  const printed = [...produced.diagnostics, ...transcriptDiagnostics].map(formatDiagnostic);
  logGroup('context-stability: diagnostics', printed.join('\n'), write);
  if (produced.notes.length > 0) logGroup('context-stability: goldens', produced.notes.join('\n'), write);
  // The log group is folded and the job summary is the short view: the log lists every transcript.
  logGroup(`context-stability ${options.mode}: report`, renderText(report, { verbose: true }), write);
  logLine(describeSummary(report), write);

  const reportFailure = await writeReportFile(target, report, ctx.cwd);
  // The viewer needs the goldens of the run: a merge (reports only) has none, each shard wrote its own.
  let html: string | null = null;
  let htmlFailure: Diagnostic | null = null;
  if (produced.view) {
    const page = htmlTarget(options, ctx);
    try {
      htmlFailure = await writeViewPage(
        page,
        report,
        produced.view.goldens,
        produced.view.replacement,
        ctx.cwd,
        'html-path',
      );
    } finally {
      // The goldens of the run were spilled to a temp file (golden-spill.ts).
      produced.view.goldens.close();
    }
    if (!htmlFailure) {
      html = page;
      logLine(`Viewer page written to ${page}`, write);
    }
  }
  const failure = reportFailure ?? htmlFailure;
  const found = verdictOf(findingsOf(report, options.mode), options.failOn);
  const verdict = failure ? withError(found, options.failOn) : found;
  if (!reportFailure) logLine(`Report written to ${target}`, write);

  // Why no comment was posted: one notice annotation, and the same words on top of the summary.
  const { notices, url: commentUrl } = await postComment(options, ctx, report, verdict.status === 'fail');
  let hidden: AnnotationCounts | undefined;
  if (options.annotate) {
    const all = [...produced.diagnostics.map(diagnosticAnnotation), ...collectAnnotations(report)];
    if (reportFailure) all.push(diagnosticAnnotation(reportFailure));
    if (htmlFailure) all.push(diagnosticAnnotation(htmlFailure));
    // setFailed is one more error and each notice of ours one more notice: GitHub must show them.
    const selection = selectAnnotations(all, {
      error: ANNOTATION_LIMIT - (verdict.failing.length > 0 ? 1 : 0),
      notice: ANNOTATION_LIMIT - notices.length,
    });
    emitAnnotations(selection.shown);
    hidden = selection.hidden;
  }
  for (const notice of notices) core.notice(notice);
  const summaryNotices = [...notices, ...noteForShard(report)];
  await writeSummary(
    ctx,
    buildJobSummary(report, { notices: summaryNotices, ...(hidden ? { hiddenAnnotations: hidden } : {}) }),
  );

  setOutputs(verdict, report, { report: reportFailure ? null : target, html, commentUrl });
  if (verdict.failing.length > 0) core.setFailed(failureMessage(verdict, options.failOn));
}
