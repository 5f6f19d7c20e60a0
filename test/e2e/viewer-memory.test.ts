// Issue 34 item 6: `check --html` must not hold the viewer page in memory (2,000 drifted
// transcripts needed 3.4 GB, and 3,000 outgrew V8's longest string). Measured in child processes
// (viewer-memory.child.ts): the live heap the page's writing adds, for 100 and for 500 drifted
// transcripts. Written in parts it stays about the same (one batch and one section at a time,
// plus a small line per transcript); a page built whole grows with it (the child's `whole`
// mode, run by hand, fails both bounds). bench/viewer-page.ts measures 2,000 and 3,000.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { measureChild } from '../support/measure-child.js';

const CHILD = fileURLToPath(new URL('./viewer-memory.child.ts', import.meta.url));

interface Measure {
  n: number;
  before: number;
  peak: number;
  bytes: number;
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

function measure(n: number): Promise<Measure> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cs-view-mem-'));
  dirs.push(dir);
  return measureChild<Measure>(CHILD, [String(n), dir, 'parts'], {
    nodeFlags: ['--expose-gc'],
    timeout: 120_000,
  });
}

describe('the viewer page of a large run', () => {
  it('is written without the heap growing with the number of transcripts', async () => {
    const [small, large] = await Promise.all([measure(100), measure(500)]);
    expect(large.bytes).toBeGreaterThan(4.5 * small.bytes);
    const growth = (m: Measure): number => m.peak - m.before;
    // What 400 more transcripts add to the heap, against what they add to the page: a page held
    // whole adds about twice its bytes (measured with the child's `whole` mode: 2.0); written in
    // parts only a small line per transcript stays (0.02).
    const slope = (growth(large) - growth(small)) / (large.bytes - small.bytes);
    expect(slope).toBeLessThan(0.1);
    // And the whole of it is far less than the page.
    expect(growth(large)).toBeLessThan(large.bytes / 4);
  }, 120_000);
});
