// The chunked count rule on the real encodings (issue 12): exact for text without an unbroken run
// longer than RUN_CHUNK, the sum of the pieces otherwise, within RUN_CHUNK_SLACK tokens per cut of
// the exact count, and linear in time (a 512 KB run took minutes when counted whole).
import { describe, it, expect } from 'vitest';
import { countTokens as o200k } from 'gpt-tokenizer/encoding/o200k_base';
import { countTokens as cl100k } from 'gpt-tokenizer/encoding/cl100k_base';
import { countTokens as p50k } from 'gpt-tokenizer/encoding/p50k_base';
import { countTokens as r50k } from 'gpt-tokenizer/encoding/r50k_base';
import { RUN_CHUNK, RUN_CHUNK_SLACK, cutCount, runCuts } from '../../src/core/tokens/chunked.js';
import type { TokenizerName } from '../../src/core/tokens/tokenizer.js';
import { loadTokenizer } from '../../src/tokens/load.js';

const PLAIN = { disallowedSpecial: new Set<string>() };
const RAW: Record<TokenizerName, (text: string) => number> = {
  o200k_base: (t) => o200k(t, PLAIN),
  cl100k_base: (t) => cl100k(t, PLAIN),
  p50k_base: (t) => p50k(t, PLAIN),
  r50k_base: (t) => r50k(t, PLAIN),
};
const NAMES = Object.keys(RAW) as TokenizerName[];

// Deterministic pseudo-random bytes, so the samples are the same on every run.
function bytes(n: number, seed: number): Buffer {
  let s = seed;
  const out = Buffer.alloc(n);
  for (let i = 0; i < n; i++) {
    s = (s * 1103515245 + 12345) >>> 0;
    out[i] = s >>> 24;
  }
  return out;
}

const cjk = (n: number): string =>
  Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + ((i * 7919) % 20000))).join('');

// Ordinary text: every unbroken run is at most RUN_CHUNK long.
const ORDINARY: [string, string][] = [
  ['prose', 'The quick brown fox jumps over the lazy dog. '.repeat(200)],
  [
    'code',
    'function add(a, b) {\n  return a + b;\n}\n\nconst xs = [1, 2, 3].map((x) => add(x, 1));\n'.repeat(80),
  ],
  [
    'JSON with spaces',
    JSON.stringify({ items: Array.from({ length: 300 }, (_, i) => ({ id: i, ok: true })) }, null, 1),
  ],
  ['CJK lines', `${cjk(RUN_CHUNK)}\n`.repeat(8)],
  [
    'base64 wrapped at 76',
    (
      bytes(6000, 1)
        .toString('base64')
        .match(/.{1,76}/g) ?? []
    ).join('\n'),
  ],
  ['a run of exactly RUN_CHUNK', `x ${'a'.repeat(RUN_CHUNK)} y`],
  ['indentation', `${' '.repeat(RUN_CHUNK - 1)}deep\n`.repeat(4)],
];

const N = 8192;
// Pathological text: one unbroken run of N code units.
const LONG: [string, string][] = [
  ['one letter', 'a'.repeat(N)],
  ['CJK without spaces', cjk(N)],
  ['base64 blob', bytes(N, 2).toString('base64').slice(0, N)],
  ['hex', bytes(N / 2, 3).toString('hex')],
  [
    'minified JS',
    '!function(e,t){for(var/**/r=0;r<t.length;r++)if(e[r]!==t[r])return!1;return!0}(a,b);'
      .repeat(250)
      .slice(0, N),
  ],
  [
    'long URL',
    `https://example.com/?${Array.from({ length: 3000 }, (_, i) => `k${i}=${(i * 7919).toString(36)}`).join('&')}`.slice(
      0,
      N,
    ),
  ],
  ['digits', '1234567890'.repeat(N / 10 + 1).slice(0, N)],
  ['spaces', ' '.repeat(N)],
];

describe.each(NAMES)('%s: chunked counting', (name) => {
  it.each(ORDINARY)('counts %s exactly (no cuts)', async (_kind, text) => {
    const tok = await loadTokenizer(name);
    expect(cutCount(text)).toBe(0);
    expect(tok.count(text)).toBe(RAW[name](text));
  });

  it.each(LONG)('counts a %s run as the sum of its pieces, within the bound', async (_kind, text) => {
    const tok = await loadTokenizer(name);
    const cuts = runCuts(text);
    expect(cuts.length).toBeGreaterThan(0);
    const edges = [0, ...cuts, text.length];
    let sum = 0;
    for (let i = 1; i < edges.length; i++) sum += RAW[name](text.slice(edges[i - 1], edges[i]));
    const chunked = tok.count(text);
    expect(chunked).toBe(sum);
    expect(Math.abs(chunked - RAW[name](text))).toBeLessThanOrEqual(RUN_CHUNK_SLACK * cuts.length);
    // countUpTo agrees with count below the limit and stops above it.
    expect(tok.countUpTo?.(text, chunked)).toBe(chunked);
    expect(tok.countUpTo?.(text, chunked - 1)).toBeGreaterThan(chunked - 1);
  });
});

describe('chunked counting of a 512 KB run', () => {
  it('counts one unbroken run of 512 Ki letters (minutes when counted whole)', async () => {
    const tok = await loadTokenizer('o200k_base');
    const text = 'a'.repeat(512 * 1024);
    expect(tok.count(text)).toBe(65536);
    expect(tok.countUpTo?.(text, 100)).toBeGreaterThan(100);
  });

  it('counts 64 Ki CJK characters without spaces', async () => {
    const tok = await loadTokenizer('o200k_base');
    expect(tok.count(cjk(65536))).toBeGreaterThan(0);
  });
});
