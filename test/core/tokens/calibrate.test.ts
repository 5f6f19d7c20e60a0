// A budget for Claude or Gemini is an o200k count scaled by a measured factor: exact integer
// scaling (no float drift), never rounded down, and countUpTo keeps its contract after scaling.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { calibrateTokenizer, calibrationOf, scaleCount } from '../../../src/core/tokens/calibrate.js';
import { fitCalibration } from '../../../src/core/tokens/calibration-fit.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import { fcOptions } from '../../support/fc.js';

const chars: Tokenizer = {
  name: 'chars',
  version: '1',
  count: (t) => t.length,
  countUpTo: (t, limit) => Math.min(t.length, limit + 1),
};

describe('scaleCount', () => {
  it('is exact where floating point is not (100 × 1.1 is 110, not 111)', () => {
    expect(100 * 1.1).toBeGreaterThan(110); // the float product this guards against
    expect(scaleCount(100, 1.1)).toBe(110);
    expect(scaleCount(3, 1.1)).toBe(4); // 3.3 rounds up
    expect(scaleCount(0, 2.5)).toBe(0);
    expect(scaleCount(7, 1)).toBe(7);
    expect(scaleCount(1000, 0.333)).toBe(333);
    expect(scaleCount(1001, 0.333)).toBe(334); // 333.333 rounds up
  });

  it('never rounds down and overshoots by less than one token', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.integer({ min: 250, max: 4000 }),
        (raw, milli) => {
          const n = scaleCount(raw, milli / 1000);
          expect(n * 1000).toBeGreaterThanOrEqual(raw * milli);
          expect((n - 1) * 1000).toBeLessThan(raw * milli);
        },
      ),
      fcOptions(2000),
    );
  });
});

describe('calibrateTokenizer', () => {
  it('is the tokenizer itself for openai at factor 1 (goldens keep their tokenizer name)', () => {
    expect(calibrateTokenizer(chars, { family: 'openai', factor: 1 })).toBe(chars);
    expect(calibrationOf({})).toEqual({ family: 'openai', factor: 1 });
    expect(calibrationOf({ model_family: 'anthropic', calibration: 1.2 })).toEqual({
      family: 'anthropic',
      factor: 1.2,
    });
  });

  it('names what it counts and scales every count', () => {
    const tok = calibrateTokenizer(chars, { family: 'anthropic', factor: 1.25 });
    expect(tok.name).toBe('chars ×1.25 (anthropic)');
    expect(tok.version).toBe('1');
    expect(tok.count('abcd')).toBe(5);
    expect(tok.count('abc')).toBe(4); // 3.75 rounds up
  });

  it('keeps the countUpTo contract: exact up to the limit, above it once exceeded', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 300 }),
        fc.integer({ min: 0, max: 400 }),
        fc.integer({ min: 250, max: 4000 }),
        (text, limit, milli) => {
          const tok = calibrateTokenizer(chars, { family: 'gemini', factor: milli / 1000 });
          const exact = tok.count(text);
          const upTo = tok.countUpTo?.(text, limit) ?? NaN;
          if (exact <= limit) expect(upTo).toBe(exact);
          else expect(upTo).toBeGreaterThan(limit);
        },
      ),
      fcOptions(2000),
    );
  });
});

describe('fitCalibration', () => {
  it('is the ratio of the sums, rounded up to hundredths, with the spread of the files', () => {
    const fit = fitCalibration([
      { local: 1000, provider: 1200 },
      { local: 3000, provider: 3300 },
      { local: 0, provider: 50 }, // nothing of ours to compare: left out
    ]);
    expect(fit).toMatchObject({ samples: 2, local: 4000, provider: 4500, ratio: 1.125, min: 1.1, max: 1.2 });
    expect(fit?.suggested).toBe(1.13);
  });

  it('keeps an exact hundredth as it is and stays within the policy range', () => {
    expect(fitCalibration([{ local: 100, provider: 120 }])?.suggested).toBe(1.2);
    expect(fitCalibration([{ local: 100, provider: 10 }])?.suggested).toBe(0.25);
    expect(fitCalibration([{ local: 10, provider: 100 }])?.suggested).toBe(4);
    expect(fitCalibration([])).toBeUndefined();
  });
});
