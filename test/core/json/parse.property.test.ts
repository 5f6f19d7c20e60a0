import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/json/parse.js';
import { LineIndex } from '../../../src/core/text/line-index.js';
import { fcOptions } from '../../support/fc.js';

const CANARY = 'SECRET-CANARY-123';

/** Characters that make up JSON, so random strings are often nearly valid. */
const JSONISH = [...'{}[],:"\\ \n\t\r0123456789-+.eEtrufalsnxNI\'/é😀', CANARY];
const jsonish = fc.string({ unit: fc.constantFrom(...JSONISH), maxLength: 40 });

/** A valid JSON text with one random edit: many near-misses (truncation, stray comma, lost quote). */
const mutatedJson = fc
  .tuple(
    fc.jsonValue({ maxDepth: 4 }),
    fc.nat(),
    fc.constantFrom(...JSONISH),
    fc.constantFrom('insert', 'delete', 'cut'),
  )
  .map(([v, at, ch, op]) => {
    const text = JSON.stringify(v, null, at % 2 === 0 ? 2 : undefined);
    const i = at % (text.length + 1);
    if (op === 'insert') return text.slice(0, i) + ch + text.slice(i);
    if (op === 'delete') return text.slice(0, i) + text.slice(i + 1);
    return text.slice(0, i);
  });

function nativeParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** parseJson accepts exactly what JSON.parse accepts, except what it rejects on purpose. */
function agreesWithJsonParse(text: string): void {
  const ours = parseJson(text, { file: 'f.json' });
  const native = nativeParse(text);
  if (ours.ok) {
    expect(native).toEqual({ ok: true, value: ours.value });
  } else if (ours.error.code === 'duplicate-key' || ours.error.code === 'too-deep') {
    expect(native.ok).toBe(true);
  } else {
    expect(native.ok).toBe(false);
  }
}

describe('parseJson properties', () => {
  it('round-trips any JSON value written by JSON.stringify, compact or indented', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.boolean(), (v, indent) => {
        const text = JSON.stringify(v, null, indent ? 2 : undefined);
        const r = parseJson(text, { file: 'f.json' });
        expect(r.ok).toBe(true);
        // JSON.parse(text) rather than v: JSON turns -0 into 0.
        if (r.ok) expect(r.value).toEqual(JSON.parse(text));
      }),
      fcOptions(300),
    );
  });

  it('accepts a random JSON-ish string exactly when JSON.parse does', () => {
    fc.assert(fc.property(jsonish, agreesWithJsonParse), fcOptions(3000));
  });

  it('accepts a mutated JSON text exactly when JSON.parse does', () => {
    fc.assert(fc.property(mutatedJson, agreesWithJsonParse), fcOptions(3000));
  });

  it('points every object and array position at its opening bracket', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 5 }), fc.constantFrom(0, 1, 2, '\t'), (v, indent) => {
        const text = JSON.stringify(v, null, indent).replaceAll('\n', '\r\n');
        const r = parseJson(text, { file: 'f.json' });
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const lineStarts = [0];
        for (let i = 0; i < text.length; i++) if (text[i] === '\n') lineStarts.push(i + 1);
        const visit = (node: unknown): void => {
          if (node === null || typeof node !== 'object') return;
          const pos = r.positions.get(node);
          expect(pos).toBeDefined();
          if (!pos) return;
          const ch = text[(lineStarts[pos.line - 1] as number) + pos.column - 1];
          expect(ch).toBe(Array.isArray(node) ? '[' : '{');
          for (const child of Object.values(node)) visit(child);
        };
        visit(r.value);
      }),
      fcOptions(300),
    );
  });

  it('reports errors at a real position in the text and never repeats its content', () => {
    fc.assert(
      fc.property(fc.oneof(jsonish, mutatedJson), fc.nat(), (text, at) => {
        const i = at % (text.length + 1);
        const planted = `${text.slice(0, i)}"${CANARY}${text.slice(i)}`;
        const r = parseJson(planted, { file: 'f.json' });
        if (r.ok) return;
        expect(r.error.message).not.toContain('CANARY');
        expect(r.error.hint).not.toContain('CANARY');
        const index = new LineIndex(planted);
        const end = index.position(planted.length);
        expect(r.error.line).toBeGreaterThanOrEqual(1);
        expect(r.error.line).toBeLessThanOrEqual(end.line);
        expect(r.error.column).toBeGreaterThanOrEqual(1);
      }),
      fcOptions(2000),
    );
  });
});
