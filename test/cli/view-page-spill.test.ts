// Issue 32: the goldens a run keeps for the viewer are spilled to a temp file (golden-spill.ts)
// and the page is written in parts (view-page.ts). The page written that way is the page
// renderViewHtml makes of the whole document in memory, byte for byte; the spill gives back what
// was put in and leaves nothing behind.
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TranscriptGoldens } from '../../src/cli/check/golden-run.js';
import { runGoldens } from '../../src/cli/check/golden-run.js';
import type { GoldenRunOptions } from '../../src/cli/check/golden-run.js';
import { GoldenSpill } from '../../src/cli/check/golden-spill.js';
import { loadBasePolicy, loadHeadPolicy } from '../../src/cli/check/policies.js';
import type { PolicySetup } from '../../src/cli/check/policies.js';
import { viewPageChunks, writeViewPage } from '../../src/cli/check/view-page.js';
import { buildViewDocument } from '../../src/core/view/document.js';
import { renderViewHtml } from '../../src/core/view/render-html.js';
import { writeFileAtomicParts } from '../../src/io/atomic-write.js';
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

let head: PolicySetup;
let tight: PolicySetup;
let repo: string;

/** The bundled examples in a repo of their own, their goldens made under a tighter policy. */
beforeAll(async () => {
  repo = tempDir('cs-view-spill-');
  cpSync(path.join(REPO_ROOT, 'examples/transcripts'), path.join(repo, 't'), { recursive: true });
  writeFileSync(path.join(repo, 'tight.yml'), 'budget: 1500\ntool_output:\n  max_tokens: 300\n');
  const h = await loadHeadPolicy(undefined, repo);
  const t = await loadBasePolicy(path.join(repo, 'tight.yml'), repo);
  if (!h.ok || !t.ok) throw new Error('a policy did not load');
  head = h.setup;
  tight = t.setup;
  const made = await runGoldens(options({ mode: 'update', head: tight }));
  expect(made.writes.length).toBeGreaterThan(5);
}, 120_000);

function options(extra: Partial<GoldenRunOptions>): GoldenRunOptions {
  return {
    mode: 'check',
    inputs: ['t'],
    cwd: repo,
    goldenDir: 'golden',
    ci: true,
    shard: null,
    head,
    base: null,
    ...extra,
  };
}

describe('the viewer page from the spill', () => {
  it('is the page of the whole document in memory, written in parts', async () => {
    const run = await runGoldens(options({ keepGoldens: true }));
    try {
      const outcomes = run.report.transcripts;
      expect(outcomes.filter((t) => t.outcome === 'drift').length).toBeGreaterThanOrEqual(3);
      expect(run.goldens.size).toBe(outcomes.length - outcomes.filter((t) => t.outcome === 'error').length);
      // The spill is a file in a folder of its own under the temp dir, readable by its owner only.
      const file = run.goldens.file!;
      expect(path.dirname(path.dirname(file))).toBe(tmpdir());
      if (process.platform !== 'win32') expect(statSync(file).mode & 0o777).toBe(0o600);

      const replacement = head.policy.pii.replacement;
      const whole = renderViewHtml(buildViewDocument(run.report, new Map(run.goldens), replacement));
      const chunks = [...viewPageChunks(run.report, run.goldens, replacement)];
      // The head, one section per transcript, the tail.
      expect(chunks).toHaveLength(outcomes.length + 2);
      expect(chunks.join('')).toBe(whole);

      const out = path.join(tempDir('cs-view-page-'), 'nested', 'index.html');
      expect(await writeViewPage(out, run.report, run.goldens, replacement, repo)).toBeNull();
      expect(readFileSync(out, 'utf8')).toBe(whole);
      expect(whole).toContain('Stored golden and this run, side by side');
      run.goldens.close();
      expect(existsSync(path.dirname(file))).toBe(false);
    } finally {
      run.goldens.close();
    }
  }, 120_000);

  it('holds the goldens a run without a page never spills: no file', async () => {
    const run = await runGoldens(options({}));
    expect(run.goldens.size).toBe(0);
    expect(run.goldens.file).toBeNull();
    run.goldens.close();
  }, 120_000);

  it('an empty run still makes the page renderViewHtml makes', async () => {
    const run = await runGoldens(options({ keepGoldens: true, inputs: ['t/*.none'] }));
    const replacement = head.policy.pii.replacement;
    const whole = renderViewHtml(buildViewDocument(run.report, new Map(), replacement));
    expect([...viewPageChunks(run.report, run.goldens, replacement)].join('')).toBe(whole);
    run.goldens.close();
  }, 120_000);
});

describe('GoldenSpill', () => {
  const golden = (text: string) =>
    ({
      transcript: text,
      context: [{ content: text }],
      budget: { used: 1, limit: 2 },
    }) as unknown as TranscriptGoldens['head'];

  it('gives back what was set, in the order set, texts of any script included', () => {
    const spill = new GoldenSpill(tempDir('cs-spill-'));
    const values: [string, TranscriptGoldens][] = [
      ['a.jsonl', { head: golden('plain'), stored: null }],
      ['b/ü.json', { head: golden('naïve 🙂 \u{1F600} 中文 \\u0000 "q"'), stored: golden('old 🙂') }],
      ['c.jsonl', { head: null, stored: null }],
    ];
    for (const [k, v] of values) spill.set(k, v);
    expect(spill.size).toBe(3);
    expect(spill.get('b/ü.json')).toEqual(values[1]![1]);
    expect([...spill]).toEqual(values);
    expect([...spill.keys()]).toEqual(['a.jsonl', 'b/ü.json', 'c.jsonl']);
    expect(spill.has('c.jsonl')).toBe(true);
    expect(spill.get('missing')).toBeUndefined();
    const file = spill.file!;
    expect(readFileSync(file, 'utf8').split('\n')).toHaveLength(4);
    spill.close();
    spill.close();
    expect(existsSync(path.dirname(file))).toBe(false);
    expect(() => spill.get('a.jsonl')).toThrow();
    expect(() => spill.set('d', { head: null, stored: null })).toThrow();
  });
});

describe('writeFileAtomicParts', () => {
  it('writes the parts whole, and leaves the old file and no temp file when the parts fail', async () => {
    const dir = tempDir('cs-parts-');
    mkdirSync(path.join(dir, 'out'));
    const target = path.join(dir, 'out', 'page.html');
    const parts = Array.from({ length: 3000 }, (_, i) => `part ${i} ${'é'.repeat(i % 700)}\n`);
    await writeFileAtomicParts(target, parts);
    expect(readFileSync(target, 'utf8')).toBe(parts.join(''));
    function* failing(): Generator<string> {
      yield 'new start';
      throw new Error('a part failed');
    }
    await expect(writeFileAtomicParts(target, failing())).rejects.toThrow('a part failed');
    expect(readFileSync(target, 'utf8')).toBe(parts.join(''));
    expect(readFileSync(path.join(dir, 'out', 'page.html'), 'utf8').length).toBeGreaterThan(0);
    const { readdirSync } = await import('node:fs');
    expect(readdirSync(path.join(dir, 'out'))).toEqual(['page.html']);
  });
});
