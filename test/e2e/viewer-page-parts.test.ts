// Issue 34 item 6: the viewer page of a large run is made and written one transcript at a time,
// the same bytes as the page made whole, and a page too large to be any use is refused with a
// one-line error that says what to do (never `unknown error`, which is what a page beyond V8's
// longest string gave).
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TranscriptGoldens } from '../../src/cli/check/golden-run.js';
import { viewPageChunks, writeViewPage } from '../../src/cli/check/view-page.js';
import { buildViewDocument } from '../../src/core/view/document.js';
import { renderViewHtml } from '../../src/core/view/render-html.js';
import { REPLACEMENT, viewerRun } from './viewer-run.js';

const dirs: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-view-parts-'));
  dirs.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('the viewer page in parts', () => {
  it('is the page made whole, byte for byte, on a generated run of every outcome', async () => {
    const { report, goldens } = viewerRun(120, true);
    const outcomes = new Set(report.transcripts.map((t) => t.outcome));
    expect([...outcomes].sort()).toEqual(['drift', 'error', 'new', 'pass']);
    const whole = renderViewHtml(buildViewDocument(report, goldens, REPLACEMENT));
    expect([...viewPageChunks(report, goldens, REPLACEMENT)].join('')).toBe(whole);
    const dir = tempDir();
    expect(await writeViewPage('page/index.html', report, goldens, REPLACEMENT, dir)).toBeNull();
    expect(readFileSync(path.join(dir, 'page/index.html'), 'utf8')).toBe(whole);
  });

  it('reaches the writer as one part per transcript, none larger than one transcript needs', () => {
    const one = [...viewPageChunks(viewerRun(1).report, viewerRun(1).goldens, REPLACEMENT)];
    const section = one[1]!.length;
    const n = 300;
    const { report, goldens } = viewerRun(n);
    const chunks = [...viewPageChunks(report, goldens, REPLACEMENT)];
    expect(chunks).toHaveLength(n + 2);
    const [head, ...rest] = chunks;
    // Every transcript's part is the size of the part of a page with that transcript alone (names
    // and anchors aside), however many transcripts the page has.
    for (const chunk of rest) expect(chunk.length).toBeLessThan(section * 1.01);
    // The head lists every transcript (navigation, filters): a line each, not a section each.
    expect(head!.length - one[0]!.length).toBeLessThan(n * 600);
    expect(section).toBeGreaterThan(30_000);
  });
});

describe('a page that cannot be written', () => {
  function leftovers(dir: string): string[] {
    return existsSync(dir) ? readdirSync(dir).filter((name) => name !== 'index.html') : [];
  }

  it('over the size cap is refused in one line that says what to do, the old page kept', async () => {
    const { report, goldens } = viewerRun(40);
    const dir = tempDir();
    mkdirSync(path.join(dir, 'out'));
    writeFileSync(path.join(dir, 'out/index.html'), 'the page of the last run');
    const failure = await writeViewPage(
      'out/index.html',
      report,
      goldens,
      REPLACEMENT,
      dir,
      '--html',
      1 << 20,
    );
    expect(failure).toMatchObject({ severity: 'error', code: 'view-too-large', file: 'out/index.html' });
    expect(failure!.message).toBe(
      'The viewer page would be over 1 MiB, more than a browser can open; it was not written.',
    );
    expect(failure!.hint).toMatch(/fewer transcripts.*--report/);
    expect(`${failure!.message} ${failure!.hint}`).not.toMatch(/\n|unknown/);
    expect(readFileSync(path.join(dir, 'out/index.html'), 'utf8')).toBe('the page of the last run');
    expect(leftovers(path.join(dir, 'out'))).toEqual([]);
    // Under the cap the same run is written.
    expect(await writeViewPage('out/index.html', report, goldens, REPLACEMENT, dir, '--html')).toBeNull();
  });

  /** The run's goldens, with a lookup that fails as `error` says. */
  function failingLookup(error: Error): ReadonlyMap<string, TranscriptGoldens> {
    return {
      get: () => {
        throw error;
      },
      has: () => true,
    } as unknown as ReadonlyMap<string, TranscriptGoldens>;
  }

  it("beyond V8's longest string is too large, not an unknown error", async () => {
    const { report } = viewerRun(3);
    const dir = tempDir();
    // What V8 throws when a string would pass its longest (about 512 MiB).
    const failure = await writeViewPage(
      'out/index.html',
      report,
      failingLookup(new RangeError('Invalid string length')),
      REPLACEMENT,
      dir,
      '--html',
    );
    expect(failure).toMatchObject({ code: 'view-too-large' });
    expect(failure!.message).not.toMatch(/unknown/);
    expect(failure!.hint).toMatch(/fewer transcripts/);
    expect(leftovers(path.join(dir, 'out'))).toEqual([]);
  });

  it('for another reason names it', async () => {
    const { report } = viewerRun(3);
    const failure = await writeViewPage(
      'out/index.html',
      report,
      failingLookup(new TypeError('x')),
      REPLACEMENT,
      tempDir(),
      'html-path',
    );
    expect(failure).toMatchObject({ code: 'view-write-failed' });
    expect(failure!.message).toBe('The viewer page could not be written (TypeError).');
    expect(failure!.hint).toMatch(/html-path/);
  });
});
