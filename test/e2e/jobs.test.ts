// End-to-end: `--jobs` through the built CLI and the bundled Action, on a generated corpus just over
// the size at which workers start (2 MiB): the output, the report and the goldens are byte-identical
// to a run on one thread. The built CLI's --jobs 2 runs (update; check with the text output and the
// report every other format renders) and the bundle's jobs 2 run are processes with real worker
// threads; the one-thread references (the CLI's and the Action's), the goldens and the refused
// values run in this process, which saves node's cold start and, for the formats, whole checks.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PARALLEL_MIN_BYTES } from '../../src/cli/check/golden-jobs.js';
import { renderReport } from '../../src/cli/check/output.js';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { ensureDist, runDist, runInProcess as runActionInProcess } from '../action/support.js';
import { generateCorpus } from '../support/generate/index.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';

const SEED = Number(process.env['JOBS_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const roots: string[] = [];

/** A repository of generated transcripts holding a little over PARALLEL_MIN_BYTES. */
function makeRepo(): string {
  const root = emptyRepo();
  const entries = generateCorpus({ seed: SEED, count: 12, targetBytes: PARALLEL_MIN_BYTES * 1.05 });
  // Under the threshold the runs with --jobs 2 would use one thread too, and prove nothing.
  expect(entries.reduce((sum, e) => sum + Buffer.byteLength(e.text), 0)).toBeGreaterThanOrEqual(
    PARALLEL_MIN_BYTES,
  );
  for (const e of entries) writeFileSync(path.join(root, 'transcripts', e.name), e.text);
  return root;
}

/** A repository whose transcripts folder is empty, for refusals that happen before reading. */
function emptyRepo(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cs-jobs-e2e-'));
  roots.push(root);
  mkdirSync(path.join(root, 'transcripts'));
  return root;
}

function goldens(root: string): Record<string, string> {
  const dir = path.join(root, 'golden');
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    if (rel.endsWith('.json')) out[rel] = readFileSync(path.join(dir, rel), 'utf8');
  }
  return out;
}

beforeAll(() => {
  console.log(`jobs e2e: corpus seed ${SEED} (JOBS_SEED=${SEED} repeats it)`);
  assertBuilt();
  ensureDist();
});

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe('--jobs (built CLI)', () => {
  it('update and check print, report and write exactly what one thread does', async () => {
    const one = makeRepo();
    const two = makeRepo();
    const u1 = await runInProcess(['update', 'transcripts', '--jobs', '1'], one);
    const u2 = await runBuilt(['update', 'transcripts', '--jobs', '2'], two);
    expect(u2).toEqual(u1);
    expect(Object.keys(goldens(one)).length).toBeGreaterThan(8);
    expect(goldens(two)).toEqual(goldens(one));

    // One thread's report, and each format rendered from it: every format is a function of the
    // report alone, so the reference costs one check, not one per format.
    const args = ['check', '--ci', 'transcripts', '--report', 'r.json'];
    const c1 = await runInProcess([...args, '--format', 'json', '--jobs', '1'], one);
    const report = JSON.parse(c1.stdout) as CheckReport;
    expect(readFileSync(path.join(one, 'r.json'), 'utf8')).toBe(c1.stdout);
    expect(report.transcripts.length).toBeGreaterThan(8);
    // Two lanes, through the process: the text a terminal gets, and the report file behind every
    // other format.
    const c2 = await runBuilt([...args, '--jobs', '2'], two);
    expect(c2).toEqual({ code: c1.code, stdout: renderReport(report, 'text'), stderr: '' });
    expect(readFileSync(path.join(two, 'r.json'), 'utf8')).toBe(c1.stdout);
  }, 180_000);

  it('refuses a --jobs that is not a whole number from 1 to 256 (exit 2)', async () => {
    // The option is refused before any transcript is read: an empty folder will do.
    const repo = emptyRepo();
    for (const value of ['0', '1.5', 'two', '-1', '257']) {
      const run = await runInProcess(['check', '--ci', 'transcripts', `--jobs=${value}`], repo);
      expect(run.code, value).toBe(2);
      expect(run.stderr).toContain('Option --jobs: expected a whole number from 1 to 256');
    }
  }, 60_000);
});

describe('jobs (bundled Action)', () => {
  it('reports exactly what one thread does', async () => {
    const workspace = makeRepo();
    await runInProcess(['update', 'transcripts', '--jobs', '1'], workspace);
    const reports: string[] = [];
    // jobs 1 in this process (one thread: no worker script), jobs 2 through the bundle's workers.
    for (const [jobs, run] of [
      ['1', runActionInProcess],
      ['2', runDist],
    ] as const) {
      const ran = await run({
        workspace,
        inputs: { mode: 'check', transcripts: 'transcripts', jobs, comment: 'false' },
      });
      expect(ran.outputs['checked'], ran.stderr).toBeDefined();
      reports.push(await readFile(ran.outputs['report-path'] as string, 'utf8'));
    }
    expect(reports[1]).toBe(reports[0]);
    const report = JSON.parse(reports[0] as string) as { summary: { checked: number } };
    expect(report.summary.checked).toBeGreaterThan(8);
  }, 180_000);

  it('refuses a jobs input that is not a whole number', async () => {
    const workspace = emptyRepo();
    const run = await runActionInProcess({
      workspace,
      inputs: { mode: 'check', transcripts: 'transcripts', jobs: 'many' },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('Input jobs must be a whole number from 1 to 256.');
  }, 60_000);
});
