// Issue 32: a golden run keeps its outcomes as JSON lines (in memory up to a size, then in a temp
// file) and reads them back for the report. What comes back is what went in, strictly (no key
// lost to JSON, no -0 turned into 0 unnoticed): the report equals the one built from the steps
// the lanes hand back, held as objects.
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contextOf, runFile, runGoldens } from '../../src/cli/check/golden-run.js';
import type { GoldenRunOptions } from '../../src/cli/check/golden-run.js';
import { OutcomeSpill } from '../../src/cli/check/outcome-spill.js';
import { planTranscripts } from '../../src/cli/check/plan.js';
import { loadBasePolicy, loadHeadPolicy } from '../../src/cli/check/policies.js';
import { sortOutcomes } from '../../src/core/golden/check-report.js';
import type { TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { expandInputs } from '../../src/io/expand-inputs.js';
import { generateCorpus } from '../support/generate/index.js';
import { REPO_ROOT } from '../support/view-document.js';

const roots: string[] = [];
function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  roots.push(dir);
  return dir;
}
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function outcome(i: number, text: string): TranscriptOutcome {
  return {
    transcript: `t/${i}.jsonl`,
    golden: `golden/t/${i}.jsonl.golden.json`,
    outcome: 'drift',
    violations: [{ check: 'pii', severity: 'error', id: `a${i}`, line: i, message: text }],
    unified: `--- a\n+++ b\n-${text}\n+${text}!\n`,
    budget: { limit: 8000, used: i },
  };
}

describe('OutcomeSpill', () => {
  it('gives back every outcome in order, from memory and from its file, any script included', () => {
    const root = tempDir('cs-outcomes-');
    // A small flush size: most outcomes go to disk, in more than one read of the file.
    const spill = new OutcomeSpill(root, 64 * 1024);
    const texts = [
      'plain',
      'naïve 🙂 中文',
      '\u2028 line separator',
      '"quoted" \\ back\nslash',
      'é'.repeat(5000),
    ];
    const pushed: TranscriptOutcome[] = [];
    for (let i = 0; i < 900; i++) {
      const o = outcome(i, `${texts[i % texts.length]!} ${'🙂'.repeat(i % 300)}`);
      pushed.push(o);
      spill.push(o);
    }
    const file = spill.file!;
    expect(statSync(file).size).toBeGreaterThan(2 << 20);
    if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(spill.size).toBe(900);
    expect([...spill.outcomes()]).toStrictEqual(pushed);
    // Read twice: the same.
    expect([...spill.outcomes()].length).toBe(900);
    spill.close();
    spill.close();
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(() => [...spill.outcomes()]).toThrow();
  });

  it('keeps a small run in memory: no file', () => {
    const spill = new OutcomeSpill(tempDir('cs-outcomes-'));
    spill.push(outcome(1, 'x'));
    expect(spill.file).toBeNull();
    expect([...spill.outcomes()]).toStrictEqual([outcome(1, 'x')]);
    spill.close();
  });
});

describe('the report of a run, from its spilled outcomes', () => {
  it('equals the outcomes the lanes hand back, held as objects', async () => {
    const repo = tempDir('cs-outcomes-run-');
    cpSync(path.join(REPO_ROOT, 'examples/transcripts'), path.join(repo, 't'), { recursive: true });
    mkdirSync(path.join(repo, 't', 'gen'));
    for (const e of generateCorpus({ seed: 7, count: 8, targetBytes: 300_000 })) {
      writeFileSync(path.join(repo, 't', 'gen', e.name), e.text);
    }
    writeFileSync(path.join(repo, 't', 'broken.jsonl'), '{"id": "a1", "kind": "user"\n');
    writeFileSync(path.join(repo, 'tight.yml'), 'budget: 1500\ntool_output:\n  max_tokens: 300\n');
    const head = await loadHeadPolicy(undefined, repo);
    const tight = await loadBasePolicy(path.join(repo, 'tight.yml'), repo);
    if (!head.ok || !tight.ok) throw new Error('a policy did not load');
    const opts = (extra: Partial<GoldenRunOptions>): GoldenRunOptions => ({
      mode: 'check',
      inputs: ['t'],
      cwd: repo,
      goldenDir: 'golden',
      ci: true,
      shard: null,
      head: head.setup,
      base: tight.setup,
      cacheReport: true,
      ...extra,
    });
    await runGoldens(opts({ mode: 'update', head: tight.setup, base: null, cacheReport: false }));
    const run = await runGoldens(opts({}));

    const ctx = contextOf(opts({}));
    const expanded = await expandInputs(['t'], { cwd: repo });
    const held: TranscriptOutcome[] = [];
    for (const item of planTranscripts(expanded.files, repo, 'golden')) {
      for (const step of await runFile(item, ctx)) held.push(step.outcome);
    }
    const kinds = new Set(run.report.transcripts.map((t) => t.outcome));
    expect(kinds.has('drift') && kinds.has('error')).toBe(true);
    expect(run.report.transcripts).toStrictEqual(sortOutcomes(held));
  }, 180_000);
});
