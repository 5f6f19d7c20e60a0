// The Markdown report (job summary, PR comment, `check --format markdown`) rendered as GitHub does
// (GitHub-flavoured Markdown with inline HTML, by `marked`) and opened in headless Chromium: the
// headline, the budget bar and the session map of each failing transcript are visible, the passes
// and the diffs are folded and open on a click, no cell of the impact table is cut. It needs no
// image: the map is emoji cells. The report comes from the built CLI over a policy review of our
// own sessions (a budget cut that changes two of five contexts).
//
// Chromium: /usr/bin/chromium or CHROMIUM_PATH; skipped locally without it (with a warning), a
// failure in CI, which always installs it.
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { marked } from 'marked';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, runBuilt } from './check-cli.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FOUND = existsSync(CHROMIUM);
const RUN = FOUND || Boolean(process.env.CI);
if (!RUN)
  console.warn(
    `markdown-browser.test.ts SKIPPED: no Chromium at ${CHROMIUM} (install chromium or set CHROMIUM_PATH).`,
  );

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function session(name: string, turns: number, size: number): string {
  const messages: { role: string; content: string }[] = [
    { role: 'system', content: 'You are a careful assistant.' },
  ];
  let x = name.length * 7919;
  const words = (n: number): string =>
    Array.from({ length: n }, () => {
      x = (x * 1103515245 + 12345) % 2147483648;
      return `w${x % 9973}`;
    }).join(' ');
  for (let i = 0; i < turns; i++) {
    messages.push({ role: 'user', content: `Q${i} ${name}: ${words(size)}` });
    messages.push({ role: 'assistant', content: `A${i} ${name}: ${words(size)}` });
  }
  messages.push({ role: 'user', content: `Finish ${name}.` });
  return JSON.stringify({ messages });
}

describe.skipIf(!RUN)('the Markdown report in headless Chromium', { timeout: 90_000 }, () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    if (!FOUND)
      throw new Error(
        `Chromium is required in CI but was not found at ${CHROMIUM}: install it (apt-get install chromium).`,
      );
    assertBuilt();
    dir = mkdtempSync(path.join(tmpdir(), 'cs-md-'));
    mkdirSync(path.join(dir, 'transcripts'));
    for (let i = 1; i <= 3; i++)
      writeFileSync(path.join(dir, `transcripts/small-${i}.openai.json`), session(`small${i}`, 2, 10));
    for (let i = 1; i <= 2; i++)
      writeFileSync(path.join(dir, `transcripts/large-${i}.openai.json`), session(`large${i}`, 10, 100));
    writeFileSync(path.join(dir, 'base.yml'), 'version: 1\nbudget: 20000\nkeep_recent: 2\n');
    writeFileSync(path.join(dir, 'head.yml'), 'version: 1\nbudget: 1500\nkeep_recent: 2\n');
    expect((await runBuilt(['update', '--policy', 'base.yml', 'transcripts'], dir)).code).toBe(0);
    const run = await runBuilt(
      [
        'check',
        '--ci',
        '--policy',
        'head.yml',
        '--base-policy',
        'base.yml',
        '--format',
        'markdown',
        'transcripts',
      ],
      dir,
    );
    expect(run.code).toBe(1);
    const body = await marked.parse(run.stdout, { gfm: true });
    // GitHub's width for a PR comment is about 900 px of text.
    const html = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>body{font-family:sans-serif;width:880px;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px 8px}</style></head><body>${body}</body></html>`;
    const file = path.join(dir, 'report.html');
    writeFileSync(file, html);
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 920, height: 900 },
      timeout: 60_000,
    });
    page = await context.newPage();
    await page.goto(pathToFileURL(file).href);
  });

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('leads with the headline and the impact table, with its totals row and no cell cut', async () => {
    const first = await page.locator('p').first().innerText();
    expect(first).toMatch(
      /^❌ 2 of 5 transcripts fail — 0 with violations · 2 drifted · 0 new · 0 errors · 3 passed$/,
    );
    const impact = page.locator('h3:has-text("Policy impact") + table');
    await expect.poll(() => impact.locator('tbody tr').count()).toBe(3);
    expect(await impact.locator('tbody tr').last().innerText()).toMatch(/Total: 5 transcripts, 2 changed/);
    const box = await impact.boundingBox();
    expect(box?.width ?? 0).toBeLessThanOrEqual(880);
  });

  it('shows each drift with a visible budget bar and session map, diffs folded', async () => {
    const code = page.locator('code', { hasText: '▰' });
    expect(await code.count()).toBe(2);
    for (const bar of await code.all()) expect(await bar.isVisible()).toBe(true);
    const maps = page.locator('p', { hasText: '🟥' });
    expect(await maps.count()).toBeGreaterThanOrEqual(2);
    expect(await maps.first().isVisible()).toBe(true);
    // The semantic and unified diffs are folded until clicked.
    const diff = page
      .locator('details', { has: page.locator('summary', { hasText: 'Semantic and unified diff' }) })
      .first();
    const fence = diff.locator('pre');
    expect(await fence.isVisible()).toBe(false);
    await diff.locator('summary').click();
    expect(await fence.isVisible()).toBe(true);
  });

  it('folds the passes, and shows their map once opened', async () => {
    const passes = page.locator('details', {
      has: page.locator('summary', { hasText: '3 transcripts pass' }),
    });
    const table = passes.locator('table');
    expect(await table.isVisible()).toBe(false);
    await passes.locator('summary').click();
    expect(await table.isVisible()).toBe(true);
    expect(await table.locator('tbody tr').count()).toBe(3);
    expect(await table.locator('tbody tr').first().innerText()).toContain('🟦');
    const shot = path.join(dir, 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10_000);
  });
});
