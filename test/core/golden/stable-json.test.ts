import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { fcOptions } from '../../support/fc.js';

/** JSON cannot tell -0 from 0 once written; the serializer writes 0 (documented). */
function withoutNegativeZero(value: unknown): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? 0 : value;
  if (Array.isArray(value)) return value.map(withoutNegativeZero);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: withoutNegativeZero(v), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

describe('stableStringify', () => {
  it('sorts object keys by UTF-16 code unit at every depth and keeps array order', () => {
    const text = stableStringify({ b: 1, a: { z: [3, 1, 2], y: null }, B: true, é: 'x', '😀': 1, 'ｚ': 2 });
    expect(text).toBe(
      [
        '{',
        '  "B": true,',
        '  "a": {',
        '    "y": null,',
        '    "z": [',
        '      3,',
        '      1,',
        '      2',
        '    ]',
        '  },',
        '  "b": 1,',
        '  "é": "x",',
        // U+FF5A (ｚ) sorts after the surrogate pair of U+1F600 by code unit (0xD83D < 0xFF5A),
        // the reverse of code point order: the order must not depend on the locale or on code points.
        '  "😀": 1,',
        '  "ｚ": 2',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('gives the same bytes whatever order the keys were inserted in', () => {
    expect(stableStringify({ x: 1, y: { p: 1, q: 2 } })).toBe(stableStringify({ y: { q: 2, p: 1 }, x: 1 }));
  });

  it('ends with exactly one LF and never writes CR', () => {
    const text = stableStringify({ s: 'line1\r\nline2', list: [] });
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text).not.toContain('\r');
    expect(text).toContain('"line1\\r\\nline2"');
    expect(stableStringify('x')).toBe('"x"\n');
  });

  it('writes empty containers compactly and escapes strings as JSON does', () => {
    expect(stableStringify({ a: {}, b: [] })).toBe('{\n  "a": {},\n  "b": []\n}\n');
    const tricky = 'quote " backslash \\ tab \t nul \u0000 line-sep \u2028 lone \ud800 emoji 😀';
    expect(stableStringify(tricky)).toBe(`${JSON.stringify(tricky)}\n`);
    expect(JSON.parse(stableStringify(tricky))).toBe(tricky);
  });

  it('omits undefined properties, writes -0 as 0', () => {
    expect(stableStringify({ a: undefined, b: -0 })).toBe('{\n  "b": 0\n}\n');
  });

  it('throws on values JSON cannot hold faithfully', () => {
    expect(() => stableStringify({ n: Number.NaN })).toThrow(TypeError);
    expect(() => stableStringify([Number.POSITIVE_INFINITY])).toThrow(/non-finite/);
    expect(() => stableStringify({ b: 1n })).toThrow(/bigint/);
    expect(() => stableStringify({ f: () => 1 })).toThrow(/function/);
    expect(() => stableStringify([undefined])).toThrow(/undefined/);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(() => stableStringify(cyclic)).toThrow(/cycle/);
  });

  it('allows the same object twice when it is not a cycle', () => {
    const shared = { k: 1 };
    expect(JSON.parse(stableStringify({ a: shared, b: shared }))).toEqual({ a: { k: 1 }, b: { k: 1 } });
  });

  it('keeps a __proto__ key as data', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const text = stableStringify(value);
    expect(text).toBe('{\n  "__proto__": {\n    "polluted": true\n  },\n  "a": 1\n}\n');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('round-trips any JSON value and is idempotent on parse (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), (value) => {
        const text = stableStringify(value);
        expect(JSON.parse(text)).toEqual(withoutNegativeZero(value));
        expect(stableStringify(JSON.parse(text))).toBe(text);
        expect(text.endsWith('\n') && !text.endsWith('\n\n')).toBe(true);
      }),
      fcOptions(500),
    );
  });
});
