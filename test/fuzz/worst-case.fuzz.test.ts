// Every stage linear in its input (issue 34): for each worst-case shape of worst-case-shapes.ts, the
// whole path `check` takes for one transcript (stabilize with its ten stages, validate, retention
// replay, report, golden) and both emitters, timed against reading the same file with its reader.
// Both sides are per byte, so the ratio stays flat as a linear stage's input grows; a stage that
// redoes work over the whole text per item (issue 34's quadratics: a hit list copied per hit, the
// file read again per session) multiplies it with the size. Bounds are about three times the
// highest ratio measured on a busy shared 2-core machine (WORST_CASE_TABLE=1 prints the ratios),
// so they do not flake; a step quadratic only in a cheap per-artifact operation is not seen at
// these sizes. The PII detectors' own worst cases are tested with the detectors.
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

/** Size of each shape's file and the bound on time(pipeline) / time(read); measured in comments. */
const BOUNDS: Record<string, { bytes: number; bound: number }> = {
  'long run of one character': { bytes: 500 * KB, bound: 150 }, // 12-41
  'many hits in one JSON literal': { bytes: 120 * KB, bound: 2000 }, // 190-600
  'PII-heavy text': { bytes: 100 * KB, bound: 2500 }, // 270-770
  'nesting at the depth cap': { bytes: 300 * KB, bound: 200 }, // 9-64
  'many tiny messages': { bytes: 100 * KB, bound: 100 }, // 7-28
  'near-identical outputs': { bytes: 150 * KB, bound: 200 }, // 19-64
  'failed retries': { bytes: 60 * KB, bound: 1000 }, // 13-320
  'phases and summaries': { bytes: 60 * KB, bound: 1000 }, // 12-330
  'one huge message': { bytes: 500 * KB, bound: 250 }, // 7-76
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

/**
 * The fastest pipeline and the fastest read of a few rounds, taken in turns so that both see the
 * same load from whatever else the machine runs.
 */
function ratioOf(pipeline: () => unknown, read: () => unknown): number {
  let slow = Infinity;
  let fast = Infinity;
  for (let round = 0; round < 3; round++) {
    slow = Math.min(slow, timed(pipeline));
    for (let i = 0; i < 3; i++) fast = Math.min(fast, timed(read));
  }
  return slow / fast;
}

describe('every stage is linear in its input: time(pipeline) / time(read) per shape', () => {
  for (const shape of SHAPES) {
    const { bytes, bound } = BOUNDS[shape.name] ?? { bytes: 0, bound: 0 };
    it(`${shape.name} (${shape.stages}): ${bytes / KB} KB under ${bound}`, async () => {
      const text = shape.make(bytes);
      const read = (): Transcript => {
        const result = readTranscript(text, { file: 'worst.jsonl' });
        if (!result.ok) throw new Error(result.diagnostics.map((d) => d.message).join('\n'));
        return result.transcript;
      };
      const transcript = read();
      const policy = await setup(shape);
      const pipeline = (): void => {
        const { report } = evaluateTranscript(transcript, 'worst.jsonl', policy, new TokenCaches());
        emitContext(report.context, 'openai', transcript);
        emitContext(report.context, 'anthropic', transcript);
      };
      pipeline(); // warm-up: the first run compiles and loads the tokenizer's ranks
      const ratio = ratioOf(pipeline, read);
      if (process.env['WORST_CASE_TABLE'])
        process.stdout.write(`${shape.name.padEnd(32)} ${text.length} B  ratio ${ratio.toFixed(1)}\n`);
      expect(bound).toBeGreaterThan(0);
      expect(ratio).toBeLessThan(bound);
    });
  }
});
