// Excerpts of protected evidence: within the target, deterministic, and keeping what shows the
// outcome (last lines, error lines) before the plain head and tail.
import { beforeAll, describe, expect, it } from 'vitest';
import { elisionMarker, excerptText, isExcerpt } from '../../../src/core/stabilize/excerpt.js';
import type { ExcerptMeter } from '../../../src/core/stabilize/excerpt.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import { wordTokenizer } from './helpers.js';

const words = (s: string): number => wordTokenizer.count(s);

/** A meter over `count` that records the texts it counted exactly and those it was asked "over n?". */
function meterOf(
  count: (s: string) => number,
  asked: { counted: string[]; over: string[] } = { counted: [], over: [] },
): ExcerptMeter {
  return {
    count: (s) => {
      asked.counted.push(s);
      return count(s);
    },
    exceeds: (s, n) => {
      asked.over.push(s);
      return count(s) > n;
    },
  };
}

const byWords = meterOf(words);

function log(lines: number, at: Record<number, string> = {}): string {
  return Array.from({ length: lines }, (_, i) => at[i] ?? `step ${i} compiling module number ${i} ok`).join(
    '\n',
  );
}

describe('excerptText', () => {
  it('returns null when the text already fits', () => {
    expect(excerptText('a b c', 3, byWords)).toBeNull();
  });

  it('keeps the last lines and every error line first, then head and tail, within the target', () => {
    const text = log(200, { 90: 'Error: cannot resolve module ./ledger', 199: 'exit code 1' });
    const ex = excerptText(text, 80, byWords);
    expect(ex).not.toBeNull();
    const out = ex?.text ?? '';
    expect(words(out)).toBeLessThanOrEqual(80);
    expect(out).toContain('Error: cannot resolve module ./ledger');
    expect(out.split('\n').at(-1)).toBe('exit code 1');
    expect(out.split('\n')[0]).toBe('step 0 compiling module number 0 ok');
    expect(isExcerpt(out)).toBe(true);
    // The markers say how many lines and characters were left out, and that is everything not shown.
    const gaps = [...out.matchAll(/\[\.\.\. (\d+) lines?, (\d+) characters? left out \.\.\.\]/g)];
    const saidLines = gaps.reduce((n, m) => n + Number(m[1]), 0);
    const saidChars = gaps.reduce((n, m) => n + Number(m[2]), 0);
    expect({ lines: saidLines, chars: saidChars }).toEqual(ex?.omitted);
    const shown = out.split('\n').filter((l) => !isExcerpt(l));
    expect(shown.length + saidLines).toBe(200);
    expect(shown.reduce((n, l) => n + l.length + 1, 0) + saidChars).toBe(text.length + 1);
  });

  it('never counts the lines it does not show: a long output costs what its excerpt shows', () => {
    const text = log(5000, { 4999: 'exit code 1' });
    const asked = { counted: [] as string[], over: [] as string[] };
    const ex = excerptText(text, 80, meterOf(words, asked));
    expect(ex?.text).toContain('exit code 1');
    expect(ex?.omitted.lines).toBeGreaterThan(4900);
    // The whole text is only asked "over 80?" (a BPE meter stops counting there), never counted;
    // what is counted exactly is the marker and the lines the excerpt considered.
    expect(asked.over).toContain(text);
    expect(asked.counted).not.toContain(text);
    expect(asked.counted.reduce((n, s) => n + s.length, 0)).toBeLessThan(text.length / 10);
  });

  it('is deterministic', () => {
    const text = log(500, { 250: 'Traceback (most recent call last):', 499: 'FAILED tests/test_x.py' });
    expect(excerptText(text, 120, byWords)).toEqual(excerptText(text, 120, byWords));
  });

  it('cuts a text without line breaks by characters, head and tail', () => {
    const text = Array.from({ length: 400 }, (_, i) => `v${i}`).join(' ');
    const ex = excerptText(text, 60, byWords);
    expect(words(ex?.text ?? '')).toBeLessThanOrEqual(60);
    expect(ex?.text.startsWith('v0 v1')).toBe(true);
    expect(ex?.text.endsWith('v399')).toBe(true);
    const [head = '', marker = '', tail = ''] = ex?.text.split('\n') ?? [];
    expect(marker).toBe(`[... ${text.length - head.length - tail.length} characters left out ...]`);
    expect(ex?.omitted).toEqual({ lines: 0, chars: text.length - head.length - tail.length });
  });

  describe('with a BPE tokenizer', () => {
    let o200k: Tokenizer;
    beforeAll(async () => {
      o200k = await loadTokenizer('o200k_base');
    });

    it('stays within the target measured exactly, for many sizes', () => {
      const count = (s: string): number => o200k.count(s);
      const text = log(300, {
        7: 'npm ERR! code ELIFECYCLE',
        150: '  E   AssertionError: 2 != 3',
        299: 'Process exited with code 2',
      });
      for (const target of [48, 64, 100, 256, 1000]) {
        const ex = excerptText(text, target, meterOf(count));
        expect(count(ex?.text ?? ''), `target ${target}`).toBeLessThanOrEqual(target);
        expect(ex?.text).toContain('Process exited with code 2');
      }
    });
  });

  it('writes the marker with the lines and characters left out', () => {
    expect(elisionMarker({ lines: 12, chars: 840 })).toBe('[... 12 lines, 840 characters left out ...]');
    expect(elisionMarker({ lines: 1, chars: 1 })).toBe('[... 1 line, 1 character left out ...]');
    expect(elisionMarker({ lines: 0, chars: 5000 })).toBe('[... 5000 characters left out ...]');
  });

  it('recognises its own markers and those of earlier versions (idempotence)', () => {
    expect(isExcerpt('a\n[... 12 lines, 840 characters left out ...]\nb')).toBe(true);
    expect(isExcerpt('a [... 5000 characters left out ...] b')).toBe(true);
    expect(isExcerpt('a\n[... 4210 tokens left out ...]\nb')).toBe(true);
    expect(isExcerpt('[... some lines left out ...]')).toBe(false);
  });
});
