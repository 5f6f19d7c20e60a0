// `--jobs`: a golden run spread over worker threads gives the report, the writes and the goldens of
// a run on one thread, byte for byte; a worker that dies costs its transcripts (reported as internal
// errors), never the run.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliWorkerScript } from '../../src/cli/check/cli-worker.js';
import { runGoldens } from '../../src/cli/check/golden-run.js';
import type { GoldenRunOptions } from '../../src/cli/check/golden-run.js';
import { loadBasePolicy, loadHeadPolicy } from '../../src/cli/check/policies.js';
import type { PolicySetup } from '../../src/cli/check/policies.js';
import { generateCorpus } from '../support/generate/index.js';

const SEED = Number(process.env['JOBS_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
const roots: string[] = [];

/** A repository holding the same generated transcripts each time, plus one unreadable file. */
function makeRepo(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'cs-jobs-'));
  roots.push(root);
  mkdirSync(path.join(root, 't'));
  for (const e of generateCorpus({ seed: SEED, count: 9, targetBytes: 400_000 })) {
    writeFileSync(path.join(root, 't', e.name), e.text);
  }
  writeFileSync(path.join(root, 't', 'broken.jsonl'), '{"id": "a1", "kind": "user", "content": "x"\n');
  writeFileSync(path.join(root, 'tight.yml'), 'budget: 1500\ntool_output:\n  max_tokens: 300\n');
  return root;
}

function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const rel of readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort()) {
    try {
      out[rel] = readFileSync(path.join(dir, rel), 'utf8');
    } catch {
      // A folder.
    }
  }
  return out;
}

let head: PolicySetup;
let base: PolicySetup;

beforeAll(async () => {
  console.log(`golden-jobs: corpus seed ${SEED} (JOBS_SEED=${SEED} repeats it)`);
  const loaded = await loadHeadPolicy(undefined, tmpdir());
  if (!loaded.ok) throw new Error('the default policy did not load');
  head = loaded.setup;
  const root = makeRepo();
  const tight = await loadBasePolicy(path.join(root, 'tight.yml'), root);
  if (!tight.ok) throw new Error('tight.yml did not load');
  base = tight.setup;
});

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function options(cwd: string, extra: Partial<GoldenRunOptions>): GoldenRunOptions {
  return {
    mode: 'update',
    inputs: ['t'],
    cwd,
    goldenDir: 'golden',
    ci: false,
    shard: null,
    head,
    base: null,
    ...extra,
  };
}

// From the sources the workers run the built module (`npm run build`, as `npm test` does first).
const workerScript = cliWorkerScript();
if (workerScript === undefined) throw new Error('build/ is missing: run `npm run build` first.');
const parallel = { jobs: 3, workerScript, parallelMinBytes: 0 };

describe('check and update with --jobs', () => {
  it('writes the same goldens and reports the same as one thread (update, then check, then a review)', async () => {
    const one = makeRepo();
    const many = makeRepo();
    const u1 = await runGoldens(options(one, {}));
    const uN = await runGoldens(options(many, parallel));
    expect(JSON.stringify(uN.report)).toBe(JSON.stringify(u1.report));
    expect(uN.writes).toEqual(u1.writes);
    expect(u1.writes.length).toBeGreaterThan(5);
    expect(tree(path.join(many, 'golden'))).toEqual(tree(path.join(one, 'golden')));
    expect(u1.report.transcripts.some((t) => t.outcome === 'error')).toBe(true);

    const check = { mode: 'check' as const, ci: true, base, keepGoldens: true };
    const c1 = await runGoldens(options(one, check));
    const cN = await runGoldens(options(many, { ...check, ...parallel }));
    expect(JSON.stringify(cN.report)).toBe(JSON.stringify(c1.report));
    expect([...cN.goldens.entries()]).toEqual([...c1.goldens.entries()]);
    c1.goldens.close();
    cN.goldens.close();
    expect(c1.report.transcripts.filter((t) => t.impact !== undefined).length).toBeGreaterThan(5);
  }, 120_000);

  it('runs on one thread below the size threshold: no worker is started', async () => {
    const repo = makeRepo();
    // A script that cannot start: were a worker started, its transcripts would be errors.
    const script = { url: new URL('file:///nonexistent/golden-worker.js') };
    const run = await runGoldens(
      options(repo, { jobs: 4, workerScript: script, parallelMinBytes: 64 * 1024 * 1024 }),
    );
    const internal = run.report.transcripts.filter((t) =>
      (t.diagnostics ?? []).some((d) => d.code === 'internal-error'),
    );
    expect(internal).toEqual([]);
  }, 120_000);

  it('reports the transcripts of a worker that died as internal errors and finishes the rest', async () => {
    const reference = makeRepo();
    const ref = await runGoldens(options(reference, { mode: 'check', ci: true }));
    const repo = makeRepo();
    const dir = mkdtempSync(path.join(tmpdir(), 'cs-jobs-dead-'));
    roots.push(dir);
    const dead = path.join(dir, 'dead-worker.mjs');
    writeFileSync(dead, "throw new Error('boom: a@example.com');\n");
    const run = await runGoldens(
      options(repo, {
        mode: 'check',
        ci: true,
        jobs: 3,
        workerScript: { url: new URL(`file://${dead}`) },
        parallelMinBytes: 0,
      }),
    );
    expect(run.report.transcripts.map((t) => t.transcript)).toEqual(
      ref.report.transcripts.map((t) => t.transcript),
    );
    const byName = new Map(ref.report.transcripts.map((t) => [t.transcript, t]));
    let lost = 0;
    for (const t of run.report.transcripts) {
      const internal = (t.diagnostics ?? []).filter((d) => d.code === 'internal-error');
      if (internal.length === 0) {
        expect(t).toEqual(byName.get(t.transcript));
        continue;
      }
      lost++;
      expect(t.outcome).toBe('error');
      // The kind of failure only: the worker's message is never repeated.
      expect(JSON.stringify(t)).not.toContain('example.com');
    }
    // Each dead worker held at most two transcripts; this thread checked the others.
    expect(lost).toBeGreaterThan(0);
    expect(lost).toBeLessThanOrEqual(4);
    expect(run.report.transcripts.length - lost).toBeGreaterThan(4);
  }, 120_000);
});
