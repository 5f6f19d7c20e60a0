// The adoption scenario of issue 14, run as a user would with the CLI: a repository with
// nine recorded sessions, goldens made under one policy, then a policy edit that changes the
// context of only two of them. Exactly those two drift; the other seven pass with a note; the
// report leads with what broke and fits a screen; `update` refreshes the seven's metadata; the
// viewer page (`view`, `check --html`) is written without touching a golden. The runs are in-process
// (runInProcess, `main` with an in-memory IO) except one per command and output format, which runs
// the built CLI (`bin/context-stability.js` → build/) as a child process (runBuilt): check's text,
// markdown and github outputs (the first three tests), view and update in 'view writes the page…'.
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';

const SMALL = 7;
const LARGE = 2;

const VOCABULARY = [
  'parser',
  'date',
  'offset',
  'timezone',
  'fixture',
  'assert',
  'module',
  'import',
  'branch',
  'rebase',
  'config',
  'cache',
  'token',
  'budget',
  'retry',
  'socket',
  'header',
  'schema',
  'field',
  'column',
  'index',
  'query',
  'shard',
  'worker',
  'queue',
  'lock',
  'stream',
  'buffer',
  'encode',
  'decode',
];

/** `n` words that do not repeat as a text (a linear congruential walk over the vocabulary), so dedup keeps them. */
function words(n: number, seed: number): string {
  let x = seed;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648;
    out.push(`${VOCABULARY[x % VOCABULARY.length] ?? 'word'}${x % 97}`);
  }
  return out.join(' ');
}

/** An OpenAI chat transcript: a system prompt, then `turns` user/assistant exchanges of `size` words. */
function session(name: string, turns: number, size: number): string {
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: 'You are a careful assistant.' },
  ];
  for (let i = 0; i < turns; i++) {
    const seed = [...name].reduce((h, c) => h * 31 + c.charCodeAt(0), i + 1);
    messages.push({ role: 'user', content: `Question ${i} about ${name}: ${words(size, seed)}` });
    messages.push({ role: 'assistant', content: `Answer ${i} for ${name}: ${words(size, seed + 7)}` });
  }
  messages.push({ role: 'user', content: `Please finish the ${name} task now.` });
  return `${JSON.stringify({ messages }, null, 2)}\n`;
}

let repo: string;

function read(rel: string): string {
  return readFileSync(path.join(repo, rel), 'utf8');
}

function goldenTexts(): Record<string, string> {
  const dir = path.join(repo, 'golden/transcripts');
  return Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(path.join(dir, f), 'utf8')]));
}

beforeAll(async () => {
  assertBuilt();
  repo = mkdtempSync(path.join(tmpdir(), 'cs-review-'));
  mkdirSync(path.join(repo, 'transcripts'));
  for (let i = 1; i <= SMALL; i++)
    writeFileSync(path.join(repo, `transcripts/small-${i}.openai.json`), session(`small${i}`, 3, 12));
  for (let i = 1; i <= LARGE; i++)
    writeFileSync(path.join(repo, `transcripts/large-${i}.openai.json`), session(`large${i}`, 12, 120));
  writeFileSync(path.join(repo, 'base.yml'), 'version: 1\nbudget: 20000\nkeep_recent: 2\n');
  // The edit: a budget the small sessions still fit in, the large ones do not.
  writeFileSync(path.join(repo, 'head.yml'), 'version: 1\nbudget: 2000\nkeep_recent: 2\n');
  const made = await runInProcess(['update', '--policy', 'base.yml', 'transcripts'], repo);
  expect(made.code).toBe(0);
}, 60_000);

afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
});

describe('a policy edit that changes two of nine contexts', () => {
  it('gives exactly two drifts; the seven others pass with a note', async () => {
    const run = await runBuilt(
      ['check', '--ci', '--policy', 'head.yml', '--report', 'r.json', 'transcripts'],
      repo,
    );
    expect(run.code).toBe(1);
    const report = JSON.parse(read('r.json')) as CheckReport;
    const drifted = report.transcripts.filter((t) => t.outcome === 'drift').map((t) => t.transcript);
    expect(drifted).toEqual(['transcripts/large-1.openai.json', 'transcripts/large-2.openai.json']);
    const passes = report.transcripts.filter((t) => t.outcome === 'pass');
    expect(passes).toHaveLength(SMALL);
    for (const p of passes) {
      expect(p.notes).toEqual(['policy changed, budget limit; this context is unchanged']);
      expect(p.diff).toBeUndefined();
    }
    for (const d of report.transcripts.filter((t) => t.outcome === 'drift')) {
      expect(d.diff?.first).not.toBeNull();
      expect(d.diff?.fates.length).toBeGreaterThan(0);
    }
  }, 60_000);

  it('the Markdown review leads with what broke and fits one screen', async () => {
    const run = await runBuilt(
      ['check', '--ci', '--policy', 'head.yml', '--format', 'markdown', 'transcripts'],
      repo,
    );
    const md = run.stdout;
    const lines = md.split('\n');
    expect(lines[2]).toMatch(
      /^\*\*❌ 2 of 9 transcripts fail\*\* — 0 with violations · 2 drifted · 0 new · 0 errors · 7 passed$/,
    );
    const drift = md.indexOf('### ❌ Drift (2)');
    const passes = md.indexOf('<details><summary>✅ 7 transcripts pass, 7 with a note');
    expect(drift).toBeGreaterThan(0);
    expect(passes).toBeGreaterThan(drift);
    // Each drift names its first change and the command that accepts it, above the folded diffs.
    for (const name of ['large-1', 'large-2']) {
      const block = md.slice(md.indexOf(`**transcripts/${name}.openai.json**`));
      const folded = block.indexOf('<details>');
      expect(block.indexOf('first change:')).toBeLessThan(folded);
      expect(
        block.indexOf(`npx context-stability update transcripts/${name}.openai.json --policy head.yml`),
      ).toBeLessThan(folded);
      expect(block.indexOf('🟥')).toBeLessThan(folded);
    }
    // What is open (outside <details>) before the passes is one screen of text.
    const open = md.slice(0, passes).replace(/<details>[\s\S]*?<\/details>/g, '');
    expect(open.split('\n').filter((l) => l.trim() !== '').length).toBeLessThanOrEqual(30);
  }, 60_000);

  it('annotates each drift once, at its first changed artifact; passes with a note are not annotated', async () => {
    const run = await runBuilt(
      ['check', '--ci', '--policy', 'head.yml', '--format', 'github', 'transcripts'],
      repo,
    );
    const annotations = run.stdout.split('\n').filter((l) => /^::(error|warning|notice) /.test(l));
    expect(annotations).toHaveLength(2);
    const report = JSON.parse(read('r.json')) as CheckReport;
    for (const a of annotations) {
      const file = /file=([^,]+)/.exec(a)?.[1];
      const line = Number(/line=(\d+)/.exec(a)?.[1]);
      const outcome = report.transcripts.find((t) => t.transcript === file);
      expect(outcome?.outcome).toBe('drift');
      expect(line).toBe(outcome?.diff?.first?.line);
      expect(a).toContain('npx context-stability update');
    }
  }, 60_000);

  it('view writes the page and no golden; update then refreshes only metadata for the seven', async () => {
    const before = goldenTexts();
    const view = await runBuilt(
      ['view', '--policy', 'head.yml', '-o', 'out/review.html', 'transcripts'],
      repo,
    );
    expect(view.code).toBe(0);
    const page = read('out/review.html');
    expect(page).toContain('large-1.openai.json');
    expect(page.match(/<section class="transcript/g)).toHaveLength(9);
    const html = await runInProcess(['check', '--policy', 'head.yml', '--html', 'site', 'transcripts'], repo);
    expect(html.code).toBe(1);
    expect(read('site/index.html')).toContain('<!DOCTYPE html>');
    expect(goldenTexts()).toEqual(before);

    const update = await runBuilt(['update', '--policy', 'head.yml', 'transcripts'], repo);
    expect(update.code).toBe(0);
    expect(update.stdout.match(/\(drift\)/g)).toHaveLength(2);
    expect(update.stdout.match(/policy changed, budget limit; this context is unchanged/g)).toHaveLength(
      SMALL,
    );
    const again = await runInProcess(['check', '--ci', '--policy', 'head.yml', 'transcripts'], repo);
    expect(again.code).toBe(0);
    expect(again.stdout).not.toContain('note:');
  }, 60_000);

  it('view: a page that cannot be written is exit 2 with a diagnostic naming --out; a missing golden is shown, not written', async () => {
    writeFileSync(path.join(repo, 'blocker'), 'a file, not a folder');
    const blocked = await runInProcess(
      ['view', '--policy', 'head.yml', '-o', 'blocker/page.html', 'transcripts'],
      repo,
    );
    expect(blocked.code).toBe(2);
    expect(blocked.stderr).toMatch(/blocker\/page\.html:1:1: error\[view-write-failed\]: .*--out/);
    writeFileSync(path.join(repo, 'transcripts/fresh.openai.json'), session('fresh', 1, 5));
    const view = await runInProcess(
      ['view', '--policy', 'head.yml', '-o', 'fresh.html', 'transcripts'],
      repo,
    );
    expect(view.code).toBe(0);
    expect(read('fresh.html')).toContain('transcripts/fresh.openai.json');
    expect(goldenTexts()['fresh.openai.json.golden.json']).toBeUndefined();
    rmSync(path.join(repo, 'transcripts/fresh.openai.json'));
  }, 60_000);
});
