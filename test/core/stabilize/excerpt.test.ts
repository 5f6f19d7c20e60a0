// Excerpts of protected evidence: within the target, deterministic, and keeping what shows the
// outcome (last lines, error lines) before the plain head and tail.
import { beforeAll, describe, expect, it } from 'vitest';
import { elisionMarker, excerptText, isExcerpt } from '../../../src/core/stabilize/excerpt.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import { wordTokenizer } from './helpers.js';

const words = (s: string): number => wordTokenizer.count(s);

function log(lines: number, at: Record<number, string> = {}): string {
  return Array.from({ length: lines }, (_, i) => at[i] ?? `step ${i} compiling module number ${i} ok`).join(
    '\n',
  );
}

describe('excerptText', () => {
  it('returns null when the text already fits', () => {
    expect(excerptText('a b c', 3, words)).toBeNull();
  });

  it('keeps the last lines and every error line first, then head and tail, within the target', () => {
    const text = log(200, { 90: 'Error: cannot resolve module ./ledger', 199: 'exit code 1' });
    const ex = excerptText(text, 80, words);
    expect(ex).not.toBeNull();
    const out = ex?.text ?? '';
    expect(words(out)).toBeLessThanOrEqual(80);
    expect(out).toContain('Error: cannot resolve module ./ledger');
    expect(out.split('\n').at(-1)).toBe('exit code 1');
    expect(out.split('\n')[0]).toBe('step 0 compiling module number 0 ok');
    expect(isExcerpt(out)).toBe(true);
    // The markers say how much was left out, and that is everything not shown.
    const said = [...out.matchAll(/\[\.\.\. (\d+) tokens left out \.\.\.\]/g)].reduce(
      (s, m) => s + Number(m[1]),
      0,
    );
    expect(said).toBe(ex?.omitted);
    const shown = out
      .split('\n')
      .filter((l) => !isExcerpt(l))
      .reduce((s, l) => s + words(l), 0);
    expect(shown + said).toBe(words(text));
  });

  it('is deterministic', () => {
    const text = log(500, { 250: 'Traceback (most recent call last):', 499: 'FAILED tests/test_x.py' });
    expect(excerptText(text, 120, words)).toEqual(excerptText(text, 120, words));
  });

  it('cuts a text without line breaks by characters, head and tail', () => {
    const text = Array.from({ length: 400 }, (_, i) => `v${i}`).join(' ');
    const ex = excerptText(text, 60, words);
    expect(words(ex?.text ?? '')).toBeLessThanOrEqual(60);
    expect(ex?.text.startsWith('v0 v1')).toBe(true);
    expect(ex?.text.endsWith('v399')).toBe(true);
    expect(ex?.text).toContain(' tokens left out ...]');
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
        const ex = excerptText(text, target, count);
        expect(count(ex?.text ?? ''), `target ${target}`).toBeLessThanOrEqual(target);
        expect(ex?.text).toContain('Process exited with code 2');
      }
    });
  });

  it('writes the marker with the number of tokens left out', () => {
    expect(elisionMarker(1234)).toBe('[... 1234 tokens left out ...]');
  });
});
