// The viewer page in a real browser: headless Chromium opens the page for the bundled examples
// (plus a session of our own with PII canaries, a drift and an unreadable file) from file:// and
// the test clicks through it: sections, artifact rows, the budget bar, the fate and check
// filters (by mouse and keyboard), navigation, the side-by-side toggle. No console error, no
// request but the page itself, no canary in the DOM. With UPDATE_SCREENSHOT=1 it also writes the
// README's screenshot, docs/images/viewer.png.
//
// Chromium: /usr/bin/chromium or CHROMIUM_PATH. Without it the test is skipped locally (with a
// warning) and fails in CI, which always installs it.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ViewDocument } from '../../src/core/view/model.js';
import { renderViewHtml } from '../../src/core/view/render-html.js';
import {
  CANARIES,
  PRE_MASKED,
  REPO_ROOT,
  canaryInput,
  exampleDocument,
  preMaskedInput,
} from '../support/view-document.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const FOUND = existsSync(CHROMIUM);
const RUN = FOUND || Boolean(process.env.CI);
if (!RUN) {
  console.warn(
    `viewer-browser.test.ts SKIPPED: no Chromium at ${CHROMIUM} (install chromium or set CHROMIUM_PATH).`,
  );
}

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

/**
 * The examples as `check` sees them (one drifted), a broken file, our canary session read from a
 * file and a session recorded already masked (test/fixtures/view).
 */
async function buildDocument(dir: string): Promise<ViewDocument> {
  const canary = canaryInput();
  const file = path.join(dir, 'canary.native.jsonl');
  writeFileSync(file, canary.text);
  return exampleDocument({ ...canary, text: readFileSync(file, 'utf8') }, [preMaskedInput()]);
}

/** Text with its white space runs as one space, trimmed. */
function squeeze(text: string | null): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

describe.skipIf(!RUN)('the viewer page in headless Chromium', { timeout: 60_000 }, () => {
  let dir: string;
  let context: BrowserContext;
  let page: Page;
  let doc: ViewDocument;
  let url: string;
  const requests: string[] = [];
  const problems: string[] = [];

  beforeAll(async () => {
    if (!FOUND) {
      throw new Error(
        `Chromium is required in CI for the viewer test but was not found at ${CHROMIUM}: install it (apt-get install chromium) or set CHROMIUM_PATH.`,
      );
    }
    dir = mkdtempSync(path.join(tmpdir(), 'cs-viewer-'));
    doc = await buildDocument(dir);
    const file = path.join(dir, 'viewer.html');
    writeFileSync(file, renderViewHtml(doc));
    url = pathToFileURL(file).href;
    context = await chromium.launchPersistentContext(path.join(dir, 'profile'), {
      executablePath: CHROMIUM,
      headless: true,
      args: ARGS,
      viewport: { width: 1280, height: 900 },
      timeout: 60_000,
    });
    page = await context.newPage();
    page.on('request', (r) => requests.push(r.url()));
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') problems.push(`console ${m.type()}: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(url, { waitUntil: 'load' });
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders a section per transcript, and opens them all on request', async () => {
    const sections = page.locator('section.transcript');
    await expect.poll(() => sections.count()).toBe(doc.transcripts.length);
    await page.getByRole('button', { name: 'Open all transcripts' }).click();
    for (let i = 0; i < doc.transcripts.length; i++) {
      expect(await sections.nth(i).locator('details.transcript-box').getAttribute('open')).not.toBeNull();
      expect(await sections.nth(i).locator('h2').isVisible()).toBe(true);
    }
    expect(await page.title()).toMatch(/^Context check: \d+ transcripts/);
  });

  it('shows artifact rows with their fate classes', async () => {
    const total = doc.transcripts.reduce((n, t) => n + (t.head?.ledger.length ?? 0), 0);
    expect(await page.locator('li.artifact').count()).toBe(total);
    for (const fate of ['kept', 'protected', 'masked', 'excerpt', 'dropped']) {
      const rows = page.locator(`li.artifact.fate-${fate}`);
      expect(await rows.count(), fate).toBeGreaterThan(0);
      expect(await rows.first().isVisible(), fate).toBe(true);
      expect(await rows.first().getAttribute('data-fate')).toBe(fate);
    }
    // A masked span is highlighted in the content once it is opened.
    const masked = page.locator('li.artifact.fate-masked').first();
    await masked.locator('details.a-content > summary').click();
    expect(await masked.locator('mark.pii').first().isVisible()).toBe(true);
  });

  it('draws the budget bar with segments of non-zero width', async () => {
    const bar = page.locator('section.transcript').first().locator('.budget-bar');
    const box = await bar.boundingBox();
    expect(box?.width ?? 0).toBeGreaterThan(300);
    const segs = bar.locator('.budget-seg');
    expect(await segs.count()).toBeGreaterThan(1);
    let sum = 0;
    for (let i = 0; i < (await segs.count()); i++) {
      const seg = await segs.nth(i).boundingBox();
      expect(seg?.width ?? 0).toBeGreaterThan(0);
      expect(seg?.height ?? 0).toBeGreaterThan(10);
      sum += seg?.width ?? 0;
    }
    expect(sum).toBeLessThanOrEqual((box?.width ?? 0) + 1);
  });

  it('hides dropped rows when the dropped filter is switched off, by mouse and by keyboard', async () => {
    const dropped = page.locator('li.artifact.fate-dropped');
    const all = await dropped.count();
    expect(await page.locator('li.artifact.fate-dropped:visible').count()).toBe(all);
    const visibleOthers = await page.locator('li.artifact:not(.fate-dropped):visible').count();
    const box = page.locator('input[data-filter-fate="dropped"]');

    await box.click();
    expect(await box.isChecked()).toBe(false);
    expect(await page.locator('li.artifact.fate-dropped:visible').count()).toBe(0);
    expect(await page.locator('li.artifact:not(.fate-dropped):visible').count()).toBe(visibleOthers);
    expect(await page.locator('[data-filter-status]').textContent()).toMatch(
      /^Showing \d+ of \d+ artifacts\.$/,
    );

    await box.click();
    expect(await page.locator('li.artifact.fate-dropped:visible').count()).toBe(all);

    await box.focus();
    await page.keyboard.press('Space');
    expect(await page.locator('li.artifact.fate-dropped:visible').count()).toBe(0);
    await page.keyboard.press('Space');
    expect(await page.locator('li.artifact.fate-dropped:visible').count()).toBe(all);
  });

  it('shows only the rows of a check when its filter is on', async () => {
    const flagged = doc.transcripts.flatMap((t) => {
      const ids = new Set(t.outcome.violations.filter((v) => v.check === 'budget').map((v) => v.id));
      return (t.head?.ledger ?? []).filter((e) => ids.has(e.id));
    });
    expect(flagged.length).toBeGreaterThan(0);
    const box = page.locator('input[data-filter-check="budget"]');
    await box.check();
    const visible = page.locator('li.artifact:visible');
    expect(await visible.count()).toBe(flagged.length);
    for (let i = 0; i < (await visible.count()); i++) {
      expect((await visible.nth(i).getAttribute('data-checks'))?.split(' ')).toContain('budget');
    }
    await page.locator('input[data-filter-check="*"]').check();
    expect(await visible.count()).toBe(await page.locator('li.artifact[data-checks]').count());
    await page.getByRole('button', { name: 'Reset filters' }).click();
    expect(await box.isChecked()).toBe(false);
    expect(await visible.count()).toBe(await page.locator('li.artifact').count());
  });

  it('opens a closed transcript when its link is followed, and toggles the side-by-side rows', async () => {
    await page.getByRole('button', { name: 'Close all' }).click();
    const last = doc.transcripts.length;
    await page.locator(`nav.toc a[href="#t-${last}"]`).click();
    await expect
      .poll(() => page.locator(`#t-${last} details.transcript-box`).getAttribute('open'))
      .not.toBeNull();

    const drift = page.locator('section.transcript[data-outcome="drift"]');
    await drift.locator('summary').first().click();
    const same = drift.locator('tr.sbs-row.same');
    expect(await same.count()).toBeGreaterThan(0);
    expect(await drift.locator('tr.sbs-row.same:visible').count()).toBe(0);
    await drift.locator('input[data-sbs-toggle]').uncheck();
    expect(await drift.locator('tr.sbs-row.same:visible').count()).toBe(await same.count());
    await page.getByRole('button', { name: 'Open all transcripts' }).click();
  });

  it('counts warnings in the header, and says warning where a transcript has one', async () => {
    const warnings = doc.transcripts.reduce(
      (n, t) =>
        n +
        t.outcome.violations.filter((v) => v.severity === 'warning').length +
        (t.outcome.outcome === 'drift' && t.outcome.drift_severity === 'warning' ? 1 : 0),
      0,
    );
    expect(warnings).toBeGreaterThan(0);
    const h1 = squeeze(await page.locator('h1').textContent());
    expect(h1).toContain(`${warnings} warning${warnings === 1 ? '' : 's'}`);
    expect(h1).not.toContain('all good');
    const total = page.locator('.page-head li.total', {
      has: page.locator('.w', { hasText: /^warnings?$/ }),
    });
    expect(await total.locator('.n').textContent()).toBe(String(warnings));
    // A passing transcript with a retention warning says `1 warning` in the navigation, not a violation.
    const link = page.locator('nav.toc a', { hasText: 'phase-change' });
    expect(await link.locator('.badge').textContent()).toBe('pass');
    expect(await link.locator('.toc-meta').textContent()).toMatch(/^1 warning · /);
    expect(await link.textContent()).not.toContain('violation');
  });

  it('counts text masked before recording as masked, and says which count is which', async () => {
    await page.getByRole('button', { name: 'Reset filters' }).click();
    await page.getByRole('button', { name: 'Open all transcripts' }).click();
    const chip = page.locator('label.chip', { has: page.locator('input[data-filter-fate="masked"]') });
    const label = squeeze(await chip.textContent());
    expect(label).toMatch(/^masked (\d+) \((\d+) before recording\)$/);
    const [, all = '0', before = '0'] = /^masked (\d+) \((\d+) before recording\)$/.exec(label) ?? [];
    expect(Number(before)).toBeGreaterThan(0);
    expect(await page.locator('li.artifact.fate-masked').count()).toBe(Number(all));
    expect(await page.locator('li.artifact.fate-masked[data-premasked]').count()).toBe(Number(before));
    // The pre-masked session: its old placeholders are highlighted and named on the row.
    const section = page.locator(`section.transcript[data-transcript="${PRE_MASKED}"]`);
    const row = section.locator('li.artifact[data-id="u1"]');
    expect(await row.getAttribute('data-fate')).toBe('masked');
    expect(squeeze(await row.locator('.a-tags').textContent())).toContain('EMAIL ×1 before recording');
    await row.locator('details.a-content > summary').click();
    expect(await row.locator('mark.pii-EMAIL', { hasText: '[REDACTED_EMAIL]' }).isVisible()).toBe(true);
    // The masked filter hides them with the rest of the masked rows.
    await page.locator('input[data-filter-fate="masked"]').uncheck();
    expect(await row.isVisible()).toBe(false);
    await page.locator('input[data-filter-fate="masked"]').check();
    expect(await row.isVisible()).toBe(true);
  });

  it('says of each dropped row what it was, how big and why, the reason’s name on hover', async () => {
    const rows = page.locator('li.artifact.fate-dropped');
    const n = await rows.count();
    expect(n).toBeGreaterThan(5);
    let uncounted = 0;
    for (let i = 0; i < n; i++) {
      const r = rows.nth(i);
      const kind = squeeze(await r.locator('.a-kind').textContent());
      expect(kind).not.toMatch(/^(–|kind not recorded)?$/);
      const size = squeeze(await r.locator('.a-tokens').textContent());
      expect(size).toMatch(/^[\d,]+ tokens?$|^[\d,]+ chars?, [\d,]+ lines?$|^no text$/);
      if (size.includes('chars')) uncounted++;
      const reason = r.locator('.a-reason');
      expect(squeeze(await reason.textContent())).not.toContain('_');
      expect(await reason.getAttribute('title')).toMatch(/^ledger reason [a-z_]+ \(action [a-z]+\): \S/);
    }
    // Some were left out before they were counted: their size is in characters and lines.
    expect(uncounted).toBeGreaterThan(0);
    const pair = rows.filter({ hasText: 'went with its tool call or result' }).first();
    await pair.locator('.a-reason').hover();
    expect(await pair.locator('.a-reason').getAttribute('title')).toMatch(
      /^ledger reason pair_unit \(action dropped\): A tool call and its results are one unit/,
    );
    // The glossary names each reason on the page.
    await page.locator('details.glossary > summary').click();
    const term = page.locator('details.glossary dd', {
      has: page.locator('code', { hasText: /^pair_unit$/ }),
    });
    expect(await term.first().isVisible()).toBe(true);
  });

  it('makes no request but the page, logs no error and holds no canary', async () => {
    expect(requests).toEqual([url]);
    expect(problems).toEqual([]);
    const content = await page.content();
    for (const canary of CANARIES) expect(content).not.toContain(canary);
    expect(content).toMatch(/\[EMAIL_\d+\]/);
  });

  it('takes a full-page screenshot', async () => {
    const shot = path.join(dir, 'viewer-full.png');
    await page.screenshot({ path: shot, fullPage: true });
    expect(statSync(shot).size).toBeGreaterThan(10 * 1024);

    if (process.env.UPDATE_SCREENSHOT === '1') {
      // The README's screenshot: the top of the page, the first (failing) transcript open with its
      // masked content shown.
      await page.getByRole('button', { name: 'Close all' }).click();
      // The glossary is closed when the page opens (an earlier test opened it).
      if ((await page.locator('details.glossary').getAttribute('open')) !== null)
        await page.locator('details.glossary > summary').click();
      const first = page.locator('section.transcript').first();
      await first.locator('summary').first().click();
      for (const summary of await first
        .locator('li.artifact.fate-masked details.a-content > summary')
        .all()) {
        if ((await summary.locator('..').getAttribute('open')) === null) await summary.click();
      }
      await page.evaluate('window.scrollTo(0, 0)');
      const out = path.join(REPO_ROOT, 'docs/images/viewer.png');
      mkdirSync(path.dirname(out), { recursive: true });
      await page.screenshot({ path: out, fullPage: false });
      expect(statSync(out).size).toBeGreaterThan(10 * 1024);
    }
  });
});
