// unifiedGoldenDiff past MAX_EDITS (issue 34: every stage linear): Myers' diff costs lines × edits,
// so a golden changed on every line (a policy edit that moves every token count) took 27 s at
// 4,000 artifacts. Past the bound the diff is made in one pass: not minimal, always a patch that
// turns the golden into the actual text.
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { fastestRun } from '../../support/timing.js';
import { describe, expect, it } from 'vitest';
import { MAX_EDITS, unifiedGoldenDiff } from '../../../src/core/golden/diff.js';
import { fcOptions } from '../../support/fc.js';

/** A golden-like text of `n` artifacts whose token counts start at `tokens`. */
function goldenText(n: number, tokens: number): string {
  const context = Array.from({ length: n }, (_, i) => ({ id: `m${i}`, content: `message ${i}`, tokens: tokens + i }));
  return `${JSON.stringify({ context }, null, 2)}\n`;
}

describe('unifiedGoldenDiff past MAX_EDITS', () => {
  it('changes every token count in time linear in the golden', () => {
    const small = [goldenText(1000, 10), goldenText(1000, 11)] as const;
    const large = [goldenText(4000, 10), goldenText(4000, 11)] as const;
    const patch = unifiedGoldenDiff('g.json', ...large);
    expect(applyPatch(large[0], patch)).toBe(large[1]);
    // One hunk per run of changed lines, each token line as -/+ in place.
    expect(patch).toContain('-      "tokens": 10\n+      "tokens": 11\n');
    // 4x the lines: a linear diff takes about 4x as long, the quadratic one took 38x.
    const ratio = fastestRun(() => unifiedGoldenDiff('g.json', ...large), 2) /
      fastestRun(() => unifiedGoldenDiff('g.json', ...small), 2);
    expect(ratio).toBeLessThan(12);
  });

  it('is a patch that turns the golden into the actual text, whatever the lines', () => {
    const line = fc.constantFrom('a', 'b', 'c', 'd', '{', '}', '"x": 1,');
    const text = fc
      .tuple(fc.array(line, { minLength: 0, maxLength: 1200 }), fc.boolean())
      .map(([lines, end]) => lines.join('\n') + (end && lines.length > 0 ? '\n' : ''));
    fc.assert(
      fc.property(text, text, (a, b) => {
        const patch = unifiedGoldenDiff('g.json', a, b);
        expect(patch === '' ? a : applyPatch(a, patch)).toBe(b);
      }),
      fcOptions(40),
    );
  });

  it('keeps the hunks of a few far-apart changes apart, with their context', () => {
    const a = Array.from({ length: 3 * MAX_EDITS }, (_, i) => `line ${i}`);
    const b = a.map((l, i) => (i % 100 === 50 ? `${l} changed` : l));
    // Many edits past the bound: the same lines, changed at every one of them in the middle.
    const many = a.map((l, i) => (i >= 400 && i < 400 + MAX_EDITS + 10 ? `${l}!` : l));
    for (const after of [b, many]) {
      const before = `${a.join('\n')}\n`;
      const text = `${after.join('\n')}\n`;
      const patch = unifiedGoldenDiff('g.json', before, text);
      expect(applyPatch(before, patch)).toBe(text);
    }
    const patch = unifiedGoldenDiff('g.json', `${a.join('\n')}\n`, `${many.join('\n')}\n`);
    expect(patch.match(/^@@ /gm)).toHaveLength(1);
    expect(patch).toContain('@@ -398,');
  });
});
