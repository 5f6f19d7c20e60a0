// Bounded worker heaps (issue 32): a worker that reaches its resourceLimits is not a result. The
// files it held run again on this thread, as `--jobs 1` runs them, and a fresh worker takes the
// lane; the run's steps come back complete and in plan order.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { GOLDEN_WORKER_ROLE, runOnLanes } from '../../src/cli/check/golden-jobs.js';
import type { LaneOptions, WorkerSetup } from '../../src/cli/check/golden-jobs.js';
import type { PlannedTranscript } from '../../src/cli/check/plan.js';
import { userSet } from '../../src/cli/check/heap.js';

const dir = mkdtempSync(path.join(tmpdir(), 'cs-jobs-heap-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A worker that answers odd indexes and runs out of memory on even ones. */
function workerScript(): { url: URL } {
  const file = path.join(dir, 'greedy-worker.mjs');
  writeFileSync(
    file,
    [
      "import { parentPort } from 'node:worker_threads';",
      'const held = [];',
      'parentPort.on("message", ({ index }) => {',
      '  if (index % 2 === 1) { parentPort.postMessage({ index, steps: [`worker ${index}`] }); return; }',
      '  for (;;) held.push(new Array(1 << 16).fill(index + 0.5));',
      '});',
      '',
    ].join('\n'),
  );
  return { url: new URL(`file://${file}`) };
}

const items: PlannedTranscript[] = Array.from({ length: 8 }, (_, i) => ({
  transcript: `t/${i}.jsonl`,
  golden: `golden/t/${i}.jsonl.golden.json`,
}));

describe('runOnLanes with bounded worker heaps', () => {
  it('runs the files of a worker that ran out of memory again on this thread, in plan order', async () => {
    const here: number[] = [];
    const opts: LaneOptions<string> = {
      workers: { jobs: 3, script: workerScript() },
      setup: { role: GOLDEN_WORKER_ROLE } as WorkerSetup,
      runHere: async (item) => {
        const index = items.indexOf(item);
        here.push(index);
        return [`here ${index}`];
      },
      failed: (item, kind) => [`failed ${items.indexOf(item)} ${kind}`],
      resourceLimits: { maxOldGenerationSizeMb: 16, maxYoungGenerationSizeMb: 4 },
    };
    const steps: string[] = [];
    for await (const s of runOnLanes(items, opts)) steps.push(...s);
    expect(steps).toHaveLength(items.length);
    expect(steps.some((s) => s.startsWith('failed'))).toBe(false);
    // Every even file either ran here from the start or came back here from a worker.
    for (const [i, s] of steps.entries()) {
      expect(s.endsWith(` ${i}`)).toBe(true);
      if (i % 2 === 0) expect(s).toBe(`here ${i}`);
    }
    expect(here.filter((i) => i % 2 === 0).sort()).toEqual([0, 2, 4, 6]);
  }, 60_000);
});

describe('userSet', () => {
  it('finds a V8 flag the user gave node, in either spelling, on the command line or in NODE_OPTIONS', () => {
    expect(userSet('heap-growing-percent', ['--heap-growing-percent=80'], '')).toBe(true);
    expect(
      userSet('semi-space-growth-factor', [], '--max-old-space-size=512 --semi_space_growth_factor=2'),
    ).toBe(true);
    expect(userSet('heap-growing-percent', ['--heap-growing-percent-x=1'], '--inspect')).toBe(false);
  });
});
