// One golden run over the inputs, shared by `check` and `update`: plan the transcripts, run this
// shard's part through the pipeline, compare each result with its stored golden, write what the
// mode allows, and assemble the machine report (DESIGN §6).
import { diagnostic, hasErrors } from '../../core/diagnostics.js';
import {
  CHECK_REPORT_SCHEMA,
  findObsolete,
  sortOutcomes,
  summarize,
} from '../../core/golden/check-report.js';
import type { CheckReport, Outcome, TranscriptOutcome } from '../../core/golden/check-report.js';
import type { Golden } from '../../core/golden/golden.js';
import { compareStored } from '../../core/golden/stored.js';
import { piiSearchOf } from '../../core/stabilize/stabilize.js';
import type { PiiSearch } from '../../core/stabilize/verdict.js';
import { policyImpact } from '../../core/golden/impact.js';
import { cachePrefixSeverity } from '../../core/cache/prefix.js';
import { buildPicture } from '../../core/golden/picture.js';
import type { Shard } from '../../core/golden/shard.js';
import { failingChecks } from '../../core/report/report.js';
import type { Diagnostic } from '../../core/types.js';
import { expandInputs } from '../../io/expand-inputs.js';
import { GOLDEN_SUFFIX, goldenPathFor } from '../../core/golden/paths.js';
import { listGoldenFiles, readGoldenFile, writeGoldenFile } from '../../io/golden-store.js';
import type { GoldenStoreOptions } from '../../io/golden-store.js';
import { loadTranscripts } from '../../io/load-transcript.js';
import { sessionLabel } from '../../core/text/session-name.js';
import type { LoadTranscriptResult } from '../../io/load-transcript.js';
import { TokenCaches, evaluateTranscript, reportViolations } from './evaluate.js';
import type { Evaluation } from './evaluate.js';
import { unmaskedPii } from './pii-guard.js';
import { planTranscripts, repoRelative, shardOf } from './plan.js';
import type { PlannedTranscript } from './plan.js';
import type { PolicySetup } from './policies.js';
import { toolInfo } from './tool.js';
import type { InputLimits } from '../input-limits.js';
import { GOLDEN_WORKER_ROLE, PARALLEL_MIN_BYTES, runOnLanes, worthParallel } from './golden-jobs.js';
import type { LaneOptions, WorkerScript } from './golden-jobs.js';
import { transferOf } from './policies.js';
import { boundHeapGrowth } from './heap.js';
import { GoldenSpill } from './golden-spill.js';
import { Deadline, TranscriptTimeout, timeoutDiagnostic } from './watchdog.js';
import { watchdogSeconds } from '../../core/policy/index.js';
import { OutcomeSpill } from './outcome-spill.js';
import { absentArtifacts } from '../../core/view/absent.js';
import type { AbsentArtifact } from '../../core/view/absent.js';

/** `check` writes only missing goldens, and only outside CI; `update` rewrites every changed one. */
export type RunMode = 'check' | 'update';

export interface GoldenRunOptions {
  mode: RunMode;
  inputs: readonly string[];
  cwd: string;
  /** cwd-relative, '/'-separated (resolveGoldenDir). */
  goldenDir: string;
  /** check only: a missing golden fails and nothing is written. */
  ci: boolean;
  shard: Shard | null;
  head: PolicySetup;
  base: PolicySetup | null;
  /** Caps on each transcript (size, records); a cap left out keeps its default. */
  limits?: InputLimits;
  /**
   * Only this session of each multi-session file (aider chat history); absent: every session is
   * a transcript of its own. The goldens of the other sessions are then not called obsolete.
   */
  session?: number | 'last';
  /** Keep each transcript's goldens (this run's and the stored one) for the HTML viewer. */
  keepGoldens?: boolean;
  /** Never write a golden, even a missing one outside CI (`view`). */
  readOnly?: boolean;
  /**
   * Lanes to run transcripts on (golden-jobs.ts): this thread plus `jobs − 1` worker threads
   * started from `workerScript`. Absent, 1 or no script: everything runs on this thread.
   */
  jobs?: number;
  workerScript?: WorkerScript;
  /** Workers start only over this many bytes of transcripts (default PARALLEL_MIN_BYTES). */
  parallelMinBytes?: number;
  /**
   * Replay every transcript for the prompt-cache prefix figure (`check --cache-report`); it is
   * replayed anyway when either policy enables `checks.cache_prefix`.
   */
  cacheReport?: boolean;
}

/**
 * Why a golden was written: none, a changed result, an unparseable golden, only its metadata
 * differed (policy hash, tokenizer, token counts, bookkeeping), or only its layout differed.
 */
export type WriteReason = 'new' | 'drift' | 'unreadable' | 'metadata' | 'format';

/** `policy changed; this context is unchanged`: a pass whose golden differs only in metadata. */
export function metadataNote(metadata: readonly string[]): string {
  return `${metadata.join(', ')}; this context is unchanged`;
}

export interface GoldenWrite {
  transcript: string;
  golden: string;
  reason: WriteReason;
}

/**
 * A golden this run would have written or compared but refused to: its stabilized context still
 * holds PII a built-in detector finds (pii-guard.ts). The transcript's outcome is `violations`.
 */
export interface GoldenRefusal {
  transcript: string;
  golden: string;
  reason: 'pii';
}

/** The goldens of one transcript, for the HTML viewer. */
export interface TranscriptGoldens {
  /** This run's golden; null when the transcript could not be stabilized. */
  head: Golden | null;
  /** The stored golden, when there is one that could be read. */
  stored: Golden | null;
  /** Kind and size of the artifacts this run's context left out (the viewer's dropped rows). */
  absent?: AbsentArtifact[];
}

export interface GoldenRun {
  report: CheckReport;
  /** In the order they were written. */
  writes: GoldenWrite[];
  /** Goldens refused (not written, not compared) because of unmasked PII, in run order. */
  refused: GoldenRefusal[];
  /**
   * By transcript name, with `keepGoldens` (spilled to a temp file as the run goes; empty
   * otherwise). The caller closes it once the page is written (it is removed on exit anyway).
   */
  goldens: GoldenSpill;
}

/** One transcript's result as a lane hands it back (plain data: it may cross from a worker). */
export interface Step {
  outcome: TranscriptOutcome;
  write?: GoldenWrite;
  refused?: GoldenRefusal;
  goldens?: TranscriptGoldens;
}

export interface Context {
  opts: GoldenRunOptions;
  store: GoldenStoreOptions;
  /** The head policy's `watchdog.max_seconds` (watchdog.ts); 0: no limit. */
  watchdog: number;
  /** What a stored golden is searched and masked with (compareStored): the head policy's `pii` check. */
  search: PiiSearch;
}

export function contextOf(opts: GoldenRunOptions): Context {
  return {
    opts,
    store: { cwd: opts.cwd, goldenDir: opts.goldenDir },
    watchdog: watchdogSeconds(opts.head.policy),
    search: piiSearchOf(opts.head.policy, opts.head.rules),
  };
}

function errorStep(
  item: { transcript: string; golden: string },
  diagnostics: Diagnostic[],
  extra: Partial<TranscriptOutcome> = {},
): Step {
  return {
    outcome: {
      ...extra,
      transcript: item.transcript,
      golden: item.golden,
      outcome: 'error',
      violations: extra.violations ?? [],
      diagnostics,
    },
  };
}

function internalError(file: string, error: unknown): Diagnostic {
  // The kind only: an exception message may quote the transcript.
  const kind = typeof error === 'string' ? error : error instanceof Error ? error.name : 'Error';
  return diagnostic(
    'error',
    'internal-error',
    { file, line: 1, column: 1 },
    `Stabilizing this transcript failed unexpectedly (${kind}); the other transcripts are still checked.`,
    'Please report the bug with the command you ran; `context-stability stabilize` on this file shows more.',
  );
}

function lf(text: string): string {
  return text.replace(/\r\n/g, '\n');
}

async function written(ctx: Context, head: Evaluation, base: Step, reason: WriteReason): Promise<Step> {
  const result = await writeGoldenFile(base.outcome.golden, head.text, ctx.store);
  if (!result.ok) {
    const diagnostics = [...(base.outcome.diagnostics ?? []), result.diagnostic];
    return { outcome: { ...base.outcome, outcome: 'error', written: false, diagnostics } };
  }
  const { transcript, golden } = base.outcome;
  return { outcome: { ...base.outcome, written: true }, write: { transcript, golden, reason } };
}

/**
 * The transcripts of one planned file: one per session of an aider chat history (`FILE#N`, golden
 * `FILE#N.golden.json`), else the file itself. A file is planned and sharded as one unit.
 */
export async function runFile(item: PlannedTranscript, ctx: Context): Promise<Step[]> {
  const { opts } = ctx;
  if (item.problem) return [errorStep(item, [item.problem])];
  // The watchdog times reading the file, then each of its transcripts, on its own.
  const reading = new Deadline(ctx.watchdog);
  let sessions;
  try {
    sessions = await loadTranscripts(item.transcript, {
      cwd: opts.cwd,
      ...opts.limits,
      ...(opts.session !== undefined ? { session: opts.session } : {}),
      within: reading.within,
    });
  } catch (error) {
    if (!(error instanceof TranscriptTimeout)) throw error;
    return [errorStep(item, [timeoutDiagnostic(item.transcript, error.seconds)])];
  }
  const steps: Step[] = [];
  for (const { name, result } of sessions) {
    if (name === item.transcript) {
      steps.push(await runOne(item, result, ctx));
      continue;
    }
    const golden = goldenPathFor(name, opts.goldenDir);
    const session = { transcript: name, golden: golden.ok ? golden.path : '' };
    if (!golden.ok) {
      const problem = diagnostic(
        'error',
        'golden-path-invalid',
        { file: name, line: 1, column: 1 },
        `The session's transcript name cannot name a golden file: ${golden.reason}.`,
        'Rename the transcript (or its folder) to a shorter, portable name.',
      );
      steps.push(errorStep(session, [problem]));
      continue;
    }
    steps.push(await runOne(session, result, ctx));
  }
  return steps;
}

/** A session's label (an OpenHands instance id) when it is a plain identifier: it is printed raw. */
function shownLabel(meta: Record<string, unknown>): { session_label?: string } {
  const label = sessionLabel(meta);
  return label !== undefined && /^[A-Za-z0-9][\w.\-/: #]{0,119}$/.test(label) ? { session_label: label } : {};
}

async function runOne(
  item: { transcript: string; golden: string },
  loaded: LoadTranscriptResult,
  ctx: Context,
): Promise<Step> {
  let seen: TranscriptGoldens = { head: null, stored: null };
  let step: Step;
  try {
    step = await compareOne(item, loaded, ctx, seen, new Deadline(ctx.watchdog));
  } catch (error) {
    if (!(error instanceof TranscriptTimeout)) throw error;
    // Stopped before anything was written: one error, as a transcript that could not be stabilized.
    step = errorStep(item, [timeoutDiagnostic(item.transcript, error.seconds)]);
    seen = { head: null, stored: null };
  }
  return ctx.opts.keepGoldens ? { ...step, goldens: seen } : step;
}

async function compareOne(
  item: { transcript: string; golden: string },
  loaded: LoadTranscriptResult,
  ctx: Context,
  seen: TranscriptGoldens,
  deadline: Deadline,
): Promise<Step> {
  const { opts } = ctx;
  if (!loaded.ok) return errorStep(item, loaded.diagnostics);
  const transcript = loaded.transcript;

  let head: Evaluation;
  let base: Evaluation | null;
  try {
    // Token counts are cached per transcript (shared by head and base, stabilize and validate) and
    // freed with it: a run-wide cache kept every transcript's text alive, since cached keys are
    // slices of the file they came from, and memory grew with the corpus.
    const caches = new TokenCaches();
    // Both sides are replayed when either enables the check, so the impact table compares them.
    const cache =
      opts.cacheReport === true ||
      cachePrefixSeverity(opts.head.policy) !== undefined ||
      (opts.base !== null && cachePrefixSeverity(opts.base.policy) !== undefined);
    head = deadline.run(() => evaluateTranscript(transcript, item.transcript, opts.head, caches, cache));
    const basePolicy = opts.base;
    base = basePolicy
      ? deadline.run(() => evaluateTranscript(transcript, item.transcript, basePolicy, caches, cache))
      : null;
  } catch (error) {
    if (error instanceof TranscriptTimeout) throw error;
    return errorStep(item, [...transcript.diagnostics, internalError(item.transcript, error)]);
  }
  seen.head = head.golden;
  if (opts.keepGoldens) seen.absent = absentArtifacts(transcript.artifacts, head.golden);
  const common: TranscriptOutcome = {
    transcript: item.transcript,
    golden: item.golden,
    ...shownLabel(transcript.meta),
    outcome: 'pass',
    status: head.report.status,
    budget: { limit: head.report.budget.limit, used: head.report.budget.used },
    violations: reportViolations(head.report),
    picture: buildPicture(head.report.ledger, head.report.context, head.report.budget.limit),
    ...(transcript.diagnostics.length > 0 ? { diagnostics: transcript.diagnostics } : {}),
    ...(base ? { impact: policyImpact(item.transcript, base.report, head.report) } : {}),
    ...(head.report.cache_prefix ? { cache_prefix: head.report.cache_prefix } : {}),
    ...(head.report.retention ? { retention: head.report.retention } : {}),
  };
  // Some records were unreadable: the rest is reported, but a golden of part of a file is not written.
  if (hasErrors(transcript.diagnostics)) return { outcome: { ...common, outcome: 'error' } };
  const leaks = deadline.run(() => unmaskedPii(head.golden, opts.head.policy));
  if (leaks.length > 0) {
    return {
      outcome: { ...common, outcome: 'violations', violations: [...common.violations, ...leaks] },
      refused: { transcript: item.transcript, golden: item.golden, reason: 'pii' },
    };
  }
  const failing = failingChecks(head.report.checks).length > 0;
  const settled = (outcome: Outcome): Step => ({ outcome: { ...common, outcome } });

  const stored = await readGoldenFile(item.golden, ctx.store);
  if (stored.kind === 'error') {
    return errorStep(item, [...(common.diagnostics ?? []), stored.diagnostic], common);
  }
  if (stored.kind === 'missing') {
    const step = settled(failing ? 'violations' : 'new');
    if ((opts.mode === 'check' && opts.ci) || opts.readOnly)
      return { outcome: { ...step.outcome, written: false } };
    return written(ctx, head, step, 'new');
  }
  // The common case, an unchanged golden: the same bytes as the new one (the text is canonical), so
  // it parses to the same value and there is nothing to diff.
  const storedText = lf(stored.text);
  if (storedText === head.text) {
    seen.stored = head.golden;
    const step = settled(failing ? 'violations' : 'pass');
    // Same content with CRLF line ends (a checkout): update restores the stable form.
    if (opts.mode === 'update' && stored.text !== head.text) return written(ctx, head, step, 'format');
    return step;
  }
  // Everything shown of the stored golden comes masked from compareStored (core/golden/stored.ts).
  const parsed = deadline.run(() => compareStored(storedText, item.golden, head, ctx.search));
  if (!parsed.ok) {
    if (opts.mode === 'check')
      return errorStep(item, [...(common.diagnostics ?? []), parsed.diagnostic], common);
    return written(ctx, head, settled('drift'), 'unreadable');
  }
  seen.stored = parsed.shown;
  const diff = parsed.diff;
  // `checks.drift: off` compares nothing in check (update still refreshes the golden).
  const driftSeverity = opts.head.policy.checks.drift;
  const compared = !diff.equal && (opts.mode === 'update' || driftSeverity !== 'off');
  // A golden holding raw PII is unusable (check: an error at its line; update rewrites it); whether
  // the context drifted from it is still told.
  if (parsed.leak && opts.mode === 'check') {
    const diagnostics = [...(common.diagnostics ?? []), parsed.leak];
    const drift = compared ? { diff, unified: deadline.run(() => parsed.unified()) } : {};
    return { outcome: { ...common, ...drift, outcome: 'error', diagnostics } };
  }
  if (compared) {
    const unified = deadline.run(() => parsed.unified());
    const severity = driftSeverity === 'warning' ? 'warning' : 'error';
    const step: Step = { outcome: { ...common, outcome: 'drift', drift_severity: severity, diff, unified } };
    return opts.mode === 'update' ? written(ctx, head, step, 'drift') : step;
  }
  const step = settled(failing ? 'violations' : 'pass');
  if (diff.equal && diff.metadata.length > 0) {
    // Not drift: the context and every verdict are as the golden has them.
    step.outcome.notes = [metadataNote(diff.metadata)];
    return opts.mode === 'update' ? written(ctx, head, step, 'metadata') : step;
  }
  // Same content, other layout (a hand edit, CRLF from a checkout): update restores the stable form.
  if (opts.mode === 'update' && stored.text !== head.text) return written(ctx, head, step, 'format');
  return step;
}

/**
 * With --session only one session of each file runs: the goldens of its other sessions (and the
 * plain golden of the file) are not obsolete, just not looked at.
 */
function withoutOtherSessions(
  obsolete: string[],
  planned: readonly PlannedTranscript[],
  opts: GoldenRunOptions,
): string[] {
  if (opts.session === undefined) return obsolete;
  const stems = new Set(
    planned.filter((p) => p.golden !== '').map((p) => p.golden.slice(0, -GOLDEN_SUFFIX.length)),
  );
  return obsolete.filter((golden) => {
    const stem = golden.slice(0, -GOLDEN_SUFFIX.length);
    return !stems.has(stem) && !stems.has(stem.replace(/#\d+$/, ''));
  });
}

/** Worker threads for this run: none without a script, with one job, or below the size threshold. */
async function workersFor(
  opts: GoldenRunOptions,
  items: readonly PlannedTranscript[],
): Promise<LaneOptions<Step>['workers']> {
  const { jobs = 1, workerScript } = opts;
  if (workerScript === undefined || jobs <= 1) return null;
  const worth = await worthParallel(items, opts.cwd, opts.parallelMinBytes ?? PARALLEL_MIN_BYTES);
  return worth ? { jobs, script: workerScript } : null;
}

function laneOptions(ctx: Context, workers: LaneOptions<Step>['workers']): LaneOptions<Step> {
  const { opts } = ctx;
  return {
    workers,
    setup: {
      role: GOLDEN_WORKER_ROLE,
      mode: opts.mode,
      cwd: opts.cwd,
      goldenDir: opts.goldenDir,
      ci: opts.ci,
      limits: opts.limits,
      session: opts.session,
      keepGoldens: opts.keepGoldens,
      readOnly: opts.readOnly,
      cacheReport: opts.cacheReport,
      head: transferOf(opts.head),
      base: opts.base ? transferOf(opts.base) : null,
    },
    runHere: (item) => runFile(item, ctx),
    // A worker that failed (or died) on a file: its transcript is an error, as an exception here is.
    failed: (item, kind) => [errorStep(item, [internalError(item.transcript, kind)])],
  };
}

/** Runs check or update over `opts.inputs`; never throws on bad input (errors become outcomes). */
export async function runGoldens(opts: GoldenRunOptions): Promise<GoldenRun> {
  boundHeapGrowth();
  const ctx = contextOf(opts);
  const expanded = await expandInputs(opts.inputs, { cwd: opts.cwd });
  // A pattern that matches nothing is unreadable input; it is reported by exactly one shard.
  const unmatched = expanded.diagnostics.map(
    (d) => errorStep({ transcript: d.file, golden: '' }, [d]).outcome,
  );
  // Outcomes go to a spill as they come (outcome-spill.ts) and are read back for the report.
  const outcomes = new OutcomeSpill();
  for (const outcome of shardOf(unmatched, opts.shard)) outcomes.push(outcome);
  const writes: GoldenWrite[] = [];
  const refused: GoldenRefusal[] = [];
  const goldens = new GoldenSpill();
  // A folder given as input may hold the golden folder: goldens are never transcripts.
  const files = expanded.files.filter(
    (f) => !(repoRelative(f, opts.cwd) ?? '').startsWith(`${opts.goldenDir}/`),
  );
  const planned = planTranscripts(files, opts.cwd, opts.goldenDir);
  const mine = shardOf(planned, opts.shard);
  try {
    for await (const steps of runOnLanes(mine, laneOptions(ctx, await workersFor(opts, mine)))) {
      for (const step of steps) {
        outcomes.push(step.outcome);
        if (step.write) writes.push(step.write);
        if (step.refused) refused.push(step.refused);
        if (step.goldens) goldens.set(step.outcome.transcript, step.goldens);
      }
    }
  } catch (error) {
    goldens.close();
    outcomes.close();
    throw error;
  }

  let transcripts: TranscriptOutcome[];
  try {
    transcripts = sortOutcomes([...outcomes.outcomes()]);
  } finally {
    outcomes.close();
  }
  const goldenFiles = await listGoldenFiles(ctx.store);
  const obsolete =
    opts.shard !== null ? null : withoutOtherSessions(findObsolete(goldenFiles, transcripts), planned, opts);
  const report: CheckReport = {
    schema_version: CHECK_REPORT_SCHEMA,
    tool: toolInfo(),
    ci: opts.mode === 'check' && opts.ci,
    policy: { source: opts.head.source, hash: opts.head.hash },
    ...(opts.base ? { base_policy: { source: opts.base.source, hash: opts.base.hash } } : {}),
    tokenizer: { name: opts.head.tokenizer.name, version: opts.head.tokenizer.version },
    shard: opts.shard,
    golden_dir: opts.goldenDir,
    golden_files: goldenFiles,
    transcripts,
    obsolete,
    summary: summarize(transcripts, obsolete),
  };
  return { report, writes, refused, goldens };
}
