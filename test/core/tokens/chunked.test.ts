import { describe, it, expect } from 'vitest';
import fc from 'fast-check';
import {
  RUN_CHUNK,
  chunkedCount,
  chunkedCountUpTo,
  cutCount,
  runCuts,
} from '../../../src/core/tokens/chunked.js';

// A counter that records what it was asked to count: one "token" per code unit.
function recorder(): { count: (s: string) => number; seen: string[] } {
  const seen: string[] = [];
  return { seen, count: (s) => (seen.push(s), s.length) };
}

const longestRun = (s: string): number => Math.max(0, ...(s.match(/\s+|\S+/g) ?? []).map((r) => r.length));

describe('runCuts', () => {
  it('does not cut text whose runs are all at most the chunk', () => {
    expect(runCuts('a'.repeat(RUN_CHUNK))).toEqual([]);
    expect(
      runCuts(`${'a'.repeat(RUN_CHUNK)} ${'b'.repeat(RUN_CHUNK)}\n${' '.repeat(RUN_CHUNK - 1)}x`),
    ).toEqual([]);
    expect(runCuts('')).toEqual([]);
  });

  it('cuts a long run every chunk code units from its start', () => {
    const text = `hello ${'a'.repeat(2 * RUN_CHUNK + 1)} bye`;
    expect(runCuts(text)).toEqual([6 + RUN_CHUNK, 6 + 2 * RUN_CHUNK]);
    expect(cutCount(' '.repeat(3 * RUN_CHUNK))).toBe(2);
  });

  it('never splits a surrogate pair', () => {
    const text = `x${'😀'.repeat(40)}`; // 81 code units, pairs start at odd offsets
    const cuts = runCuts(text, 8);
    expect(cuts.length).toBeGreaterThan(0);
    for (const at of cuts) {
      const c = text.charCodeAt(at);
      expect(c >= 0xdc00 && c <= 0xdfff).toBe(false);
    }
  });
});

describe('chunkedCount', () => {
  it('counts text without long runs in one call, unchanged (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), fc.integer({ min: 1, max: 64 }), (text, chunk) => {
        fc.pre(longestRun(text) <= chunk);
        const r = recorder();
        expect(chunkedCount(text, r.count, chunk)).toBe(text.length);
        expect(r.seen).toEqual([text]);
      }),
    );
  });

  it('counts a text with long runs as the sum of its pieces, which concatenate to the text (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 400 }),
        fc.integer({ min: 2, max: 32 }),
        (text, chunk) => {
          const r = recorder();
          const n = chunkedCount(text, r.count, chunk);
          expect(r.seen.join('')).toBe(text);
          expect(n).toBe(r.seen.reduce((a, s) => a + s.length, 0));
          expect(r.seen.length).toBe(cutCount(text, chunk) + 1);
          // Every piece of a long run is at most `chunk` long: no piece holds a longer run.
          for (const piece of r.seen) expect(longestRun(piece)).toBeLessThanOrEqual(chunk);
        },
      ),
    );
  });
});

describe('chunkedCountUpTo', () => {
  it('equals chunkedCount up to the limit and exceeds the limit above it (property)', () => {
    const upTo = (s: string, limit: number): number => (s.length > limit ? limit + 1 : s.length);
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.nat(250),
        fc.integer({ min: 2, max: 16 }),
        (text, limit, chunk) => {
          const full = chunkedCount(text, (s) => s.length, chunk);
          const got = chunkedCountUpTo(text, limit, upTo, chunk);
          if (full <= limit) expect(got).toBe(full);
          else expect(got).toBeGreaterThan(limit);
        },
      ),
    );
  });
});
