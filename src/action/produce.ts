// The report of one action run, made by the same code as the CLI: `check` and `update` run the
// golden pipeline (runGoldens) over the transcripts, `merge` combines the shard reports other jobs
// wrote (or takes one unsharded report as it is). Setup problems (an invalid policy, unreadable or unmergeable reports) come back as
// diagnostics and a message of our own wording, never as an exception.
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import { mergeReports, sortOutcomes, summarize } from '../core/golden/check-report.js';
import type { CheckReport } from '../core/golden/check-report.js';
import type { Diagnostic } from '../core/types.js';
import { runGoldens } from '../cli/check/golden-run.js';
import { defaultJobs } from '../cli/check/golden-jobs.js';
import type { WorkerScript } from '../cli/check/golden-jobs.js';
import type { GoldenWrite } from '../cli/check/golden-run.js';
import type { GoldenSpill } from '../cli/check/golden-spill.js';
import { loadBasePolicy, loadHeadPolicy } from '../cli/check/policies.js';
import type { PolicySetup } from '../cli/check/policies.js';
import { readCheckReport } from '../cli/check/read-report.js';
import { expandInputs } from '../io/expand-inputs.js';
import { checkGoldenRoot, cleanStaleTempFiles, withGoldenFolderLock } from '../io/golden-store.js';
import { LockBusyError } from '../io/lock.js';
import { busyDiagnostic } from '../cli/golden-lock.js';
import type { ActionOptions } from './inputs.js';

export type Produced =
  | {
      ok: true;
      report: CheckReport;
      /** Policy warnings (unknown keys…) and the like: annotated, not fatal. */
      diagnostics: Diagnostic[];
      /** What an update wrote, for the log (paths: printed as untrusted text). */
      notes: string[];
      /** The viewer's inputs (check and update): each transcript's goldens, and the PII replacement. */
      view?: { goldens: GoldenSpill; replacement: string };
    }
  | { ok: false; diagnostics: Diagnostic[]; message: string };

interface Policies {
  head: PolicySetup;
  base: PolicySetup | null;
}

async function loadPolicies(
  options: ActionOptions,
  cwd: string,
): Promise<
  { ok: true; policies: Policies; diagnostics: Diagnostic[] } | { ok: false; diagnostics: Diagnostic[] }
> {
  const head = await loadHeadPolicy(options.policy, cwd, options.piiKey);
  if (!head.ok) return { ok: false, diagnostics: head.diagnostics };
  if (options.basePolicy === undefined) {
    return { ok: true, policies: { head: head.setup, base: null }, diagnostics: head.diagnostics };
  }
  const base = await loadBasePolicy(options.basePolicy, cwd, options.piiKey);
  const diagnostics = [...head.diagnostics, ...base.diagnostics];
  if (!base.ok) return { ok: false, diagnostics };
  return { ok: true, policies: { head: head.setup, base: base.setup }, diagnostics };
}

/** The lanes of a golden run: the `jobs` input, else the runner's cores; none without a worker script. */
function lanes(options: ActionOptions, workerScript: WorkerScript | undefined) {
  return workerScript ? { jobs: options.jobs ?? defaultJobs(), workerScript } : {};
}

const POLICY_FAILED = 'The policy could not be loaded; see the annotations at the policy file.';

async function check(options: ActionOptions, cwd: string, workerScript?: WorkerScript): Promise<Produced> {
  const loaded = await loadPolicies(options, cwd);
  if (!loaded.ok) return { ok: false, diagnostics: loaded.diagnostics, message: POLICY_FAILED };
  // CI semantics, always: a missing golden fails and nothing is written.
  const { report, goldens } = await runGoldens({
    mode: 'check',
    inputs: options.transcripts,
    cwd,
    goldenDir: options.goldenDir,
    ci: true,
    shard: options.shard,
    ...loaded.policies,
    limits: options.limits,
    keepGoldens: true,
    ...lanes(options, workerScript),
  });
  const view = { goldens, replacement: loaded.policies.head.policy.pii.replacement };
  return { ok: true, report, diagnostics: loaded.diagnostics, notes: [], view };
}

const WRITE_WORDS: Record<GoldenWrite['reason'], string> = {
  new: 'wrote (new)',
  drift: 'updated (drift)',
  unreadable: 'rewrote (the old golden could not be read)',
  metadata: 'updated (metadata only: the context is unchanged)',
  format: 'rewrote (same content, stable layout restored)',
};

async function update(options: ActionOptions, cwd: string, workerScript?: WorkerScript): Promise<Produced> {
  const loaded = await loadPolicies(options, cwd);
  if (!loaded.ok) return { ok: false, diagnostics: loaded.diagnostics, message: POLICY_FAILED };
  const root = await checkGoldenRoot({ cwd, goldenDir: options.goldenDir });
  if (!root.ok) {
    return {
      ok: false,
      diagnostics: [root.diagnostic],
      message:
        'The golden folder resolves (through a symbolic link) outside the workspace; nothing was written. See the annotation.',
    };
  }
  // One writer per golden folder: a second update waits briefly, then writes nothing.
  const store = { cwd, goldenDir: options.goldenDir };
  try {
    return await withGoldenFolderLock(store, 'update (the Action)', () =>
      updateLocked(options, cwd, loaded, workerScript),
    );
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    return {
      ok: false,
      diagnostics: [busyDiagnostic(store, error)],
      message: 'Another update holds the golden folder; nothing was written. See the annotation.',
    };
  }
}

async function updateLocked(
  options: ActionOptions,
  cwd: string,
  loaded: Extract<Awaited<ReturnType<typeof loadPolicies>>, { ok: true }>,
  workerScript: WorkerScript | undefined,
): Promise<Produced> {
  const cleaned = await cleanStaleTempFiles({ cwd, goldenDir: options.goldenDir });
  const { report, writes, goldens } = await runGoldens({
    mode: 'update',
    inputs: options.transcripts,
    cwd,
    goldenDir: options.goldenDir,
    ci: false,
    shard: null,
    ...loaded.policies,
    limits: options.limits,
    keepGoldens: true,
    ...lanes(options, workerScript),
  });
  const view = { goldens, replacement: loaded.policies.head.policy.pii.replacement };
  const notes = writes.map((w) => `${WRITE_WORDS[w.reason]} ${w.golden}`);
  if (cleaned.length > 0)
    notes.unshift(`removed ${cleaned.length} stale temp file(s) of an interrupted update`);
  for (const golden of report.obsolete ?? [])
    notes.push(`obsolete ${golden} (kept; remove it or run update --prune-obsolete)`);
  if (notes.length === 0) notes.push('every golden is up to date');
  return { ok: true, report, diagnostics: loaded.diagnostics, notes, view };
}

function noReports(): Produced {
  return {
    ok: false,
    diagnostics: [],
    message:
      'Input reports matches no report file. Download the shard reports first (actions/download-artifact) ' +
      'and point reports at them, e.g. reports/*.json.',
  };
}

async function merge(options: ActionOptions, cwd: string, target: string): Promise<Produced> {
  const expanded = await expandInputs(options.reports, { cwd });
  // The merged report may be written next to the shard reports: a re-run must not read it back.
  const files = expanded.files.filter((f) => path.resolve(cwd, f) !== target);
  if (files.length === 0) return noReports();
  const reports: CheckReport[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const file of files) {
    const read = await readCheckReport(file, cwd);
    if (read.ok) reports.push(read.report);
    else diagnostics.push(read.diagnostic);
  }
  if (diagnostics.length > 0) {
    return { ok: false, diagnostics, message: 'Some shard reports could not be read; see the annotations.' };
  }
  // One complete (unsharded) report, e.g. downloaded by a workflow_run workflow that posts the
  // comment of a fork's pull request: nothing to combine, it is the report. Its summary is
  // recounted, as a merge does: the file came from another job and only its shape was checked.
  const [only] = reports;
  if (reports.length === 1 && only !== undefined && only.shard === null) {
    const transcripts = sortOutcomes(only.transcripts);
    const report = { ...only, transcripts, summary: summarize(transcripts, only.obsolete) };
    return { ok: true, report, diagnostics: [], notes: [] };
  }
  const merged = mergeReports(reports);
  if (!merged.ok) {
    const at = { file: files[0] as string, line: 1, column: 1 };
    const hint =
      'Give merge the reports of every shard of one run (same policy, tool version and shard count).';
    return {
      ok: false,
      diagnostics: [
        diagnostic('error', 'merge-refused', at, `The reports cannot be merged: ${merged.reason}.`, hint),
      ],
      message: `The ${files.length} shard reports cannot be merged; see the annotations.`,
    };
  }
  return { ok: true, report: merged.report, diagnostics: [], notes: [] };
}

/**
 * Runs the mode; `reportTarget` is the absolute path the report will be written to.
 * `workerScript`: the bundle's own entry, which serves as a worker thread when started as one
 * (main.ts); without it every transcript runs on this thread.
 */
export function produceReport(
  options: ActionOptions,
  cwd: string,
  reportTarget: string,
  workerScript?: WorkerScript,
): Promise<Produced> {
  switch (options.mode) {
    case 'check':
      return check(options, cwd, workerScript);
    case 'update':
      return update(options, cwd, workerScript);
    case 'merge':
      return merge(options, cwd, reportTarget);
  }
}
