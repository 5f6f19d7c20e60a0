// Every stage linear in its input (issue 34): for each worst-case shape of worst-case-shapes.ts, the
// whole path `check` takes for one transcript (stabilize with its ten stages, validate, retention
// replay, report, golden) and both emitters, timed two ways: against reading the same file with its
// reader (per byte on both sides, so flat while every stage is linear), and against the same path
// on a quarter of the input. A stage that redoes work over the whole text per item (issue 34's
// quadratics: a hit list copied per hit, the file read again per session) fails the first by far
// where items are large, the second where they are many. Bounds are about three times the highest
// ratio measured on a busy shared 2-core machine (WORST_CASE_TABLE=1 prints them), so they do not
// flake; a step quadratic only in a cheap per-artifact operation is not seen at these sizes. The
// PII detectors' own worst cases are tested with the detectors.
import { describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../src/api/policy.js';
import { TokenCaches, evaluateTranscript } from '../../src/cli/check/evaluate.js';
import type { PolicySetup } from '../../src/cli/check/policies.js';
import { emitContext } from '../../src/core/emit/index.js';
import { readTranscript } from '../../src/core/readers/index.js';
import type { Transcript } from '../../src/core/types.js';
import { loadPolicyTokenizer } from '../../src/tokens/load.js';
import { SHAPES, type Shape } from './worst-case-shapes.js';

const KB = 1000;

/** Size of each shape's file and the bound on time(pipeline) / time(read) (measured: comment). */
const BOUNDS: Record<string, { bytes: number; bound: number }> = {
  'long run of one character': { bytes: 1000 * KB, bound: 150 }, // 12-49
  'many hits in one JSON literal': { bytes: 240 * KB, bound: 2000 }, // 100-600
  'PII-heavy text': { bytes: 400 * KB, bound: 2500 }, // 56-770
  'nesting at the depth cap': { bytes: 300 * KB, bound: 200 }, // 9-68
  'many tiny messages': { bytes: 200 * KB, bound: 100 }, // 7-38
  'near-identical outputs': { bytes: 200 * KB, bound: 300 }, // 19-90
  'failed retries': { bytes: 240 * KB, bound: 1000 }, // 13-320
  'phases and summaries': { bytes: 240 * KB, bound: 1000 }, // 12-330
  'one huge message': { bytes: 1000 * KB, bound: 250 }, // 7-76
};

/** Under pressure from the first turns, so that every stage has something to decide. */
async function setup(shape: Shape): Promise<PolicySetup> {
  const parsed = resolvePolicy({ budget: 2000, resilience: { truncation_mode: shape.mode ?? 'default' } });
  expect(parsed.diagnostics).toEqual([]);
  return { ...parsed, tokenizer: await loadPolicyTokenizer(parsed.policy), source: 'default', hash: '' };
}

function timed(run: () => unknown): number {
  const start = performance.now();
  run();
  return performance.now() - start;
}

/** A shape's file read, and the path `check` takes for it under `policy`. */
function runs(text: string, policy: PolicySetup): { read: () => Transcript; pipeline: () => void } {
  const read = (): Transcript => {
    const result = readTranscript(text, { file: 'worst.jsonl' });
    // Every record read: one over a cap would be skipped, and the run would time nothing.
    const errors = result.ok ? result.transcript.diagnostics.filter((d) => d.severity === 'error') : [];
    if (!result.ok || errors.length > 0)
      throw new Error((result.ok ? errors : result.diagnostics).map((d) => d.code).join(', '));
    return result.transcript;
  };
  const transcript = read();
  const pipeline = (): void => {
    const { report } = evaluateTranscript(transcript, 'worst.jsonl', policy, new TokenCaches());
    emitContext(report.context, 'openai', transcript);
    emitContext(report.context, 'anthropic', transcript);
  };
  return { read, pipeline };
}

/**
 * Linear: 4 times the input costs about 4 times as much (measured 1.2-8.6 under a load of 10 on 2
 * cores); a step quadratic in it, up to 16, and 40-86 for a rescan of every text per artifact.
 */
const GROWTH_BOUND = 12;

describe('every stage is linear in its input: time(pipeline) / time(read) per shape', () => {
  for (const shape of SHAPES) {
    const { bytes, bound } = BOUNDS[shape.name] ?? { bytes: 0, bound: 0 };
    it(`${shape.name} (${shape.stages}): ${bytes / KB} KB under ${bound}, 4x the input under ${GROWTH_BOUND}x the time`, async () => {
      expect(bound).toBeGreaterThan(0);
      const policy = await setup(shape);
      const full = runs(shape.make(bytes), policy);
      const quarter = runs(shape.make(bytes / 4), policy);
      quarter.pipeline(); // warm-up: the first run compiles and loads the tokenizer's ranks
      // The fastest of a few rounds, taken in turns so that all see the same load from whatever
      // else the machine runs.
      let [large, small, reading] = [Infinity, Infinity, Infinity];
      for (let round = 0; round < 3; round++) {
        large = Math.min(large, timed(full.pipeline));
        for (let i = 0; i < 2; i++) small = Math.min(small, timed(quarter.pipeline));
        for (let i = 0; i < 3; i++) reading = Math.min(reading, timed(full.read));
      }
      const ratio = large / reading;
      const growth = large / small;
      if (process.env['WORST_CASE_TABLE'])
        process.stdout.write(
          `${shape.name.padEnd(32)} ratio ${ratio.toFixed(1)} growth ${growth.toFixed(2)} (${large.toFixed(0)} ms, ${small.toFixed(0)} ms, read ${reading.toFixed(1)} ms)\n`,
        );
      expect(ratio).toBeLessThan(bound);
      expect(growth).toBeLessThan(GROWTH_BOUND);
    });
  }
});
