// The literals of a JSON text with their positions, found by one validating pass over the raw text
// (no parse, no re-serialization). Masking works on these spans so that every byte outside a
// masked value stays as it was: large integers keep their digits, `1.0` stays `1.0`, duplicate
// keys and a `"__proto__"` key survive (a parse-and-stringify round trip loses all four).

import { DEFAULT_MAX_DEPTH } from '../json/parse.js';

export interface JsonLiteral {
  kind: 'key' | 'string' | 'number';
  /** Raw offsets of the literal, quotes included for strings; `end` exclusive. */
  start: number;
  end: number;
  /** True when the string holds a backslash escape (its decoded text differs from the raw one). */
  escaped: boolean;
  /**
   * The decoded key of the member this value belongs to (the nearest one: an array's elements
   * belong to the member holding the array). Undefined for keys and top-level values.
   */
  key: string | undefined;
}

const QUOTE = 34;
const BACKSLASH = 92;

function isSpace(c: number): boolean {
  return c === 32 || c === 10 || c === 13 || c === 9;
}

function isDigitCode(c: number): boolean {
  return c >= 48 && c <= 57;
}

// The longest run of characters a string holds as they are; what stops it decides: a quote ends the
// string, a backslash starts an escape, a raw control character (or the end of the text) is invalid.
const RUN = /[^"\\\u0000-\u001f]*/y;
const HEX4 = /^[0-9A-Fa-f]{4}$/;

/** End of the string literal opening at `start` (after its closing quote), or undefined when invalid. */
function stringEnd(text: string, start: number): { end: number; escaped: boolean } | undefined {
  let i = start + 1;
  let escaped = false;
  for (;;) {
    RUN.lastIndex = i;
    RUN.test(text);
    i = RUN.lastIndex;
    const c = text.charCodeAt(i);
    if (c === QUOTE) return { end: i + 1, escaped };
    if (c !== BACKSLASH) return undefined;
    escaped = true;
    const e = text.charCodeAt(i + 1);
    if (e === 117) {
      if (!HEX4.test(text.slice(i + 2, i + 6))) return undefined;
      i += 6;
    } else if (
      e === QUOTE ||
      e === BACKSLASH ||
      e === 47 ||
      e === 98 ||
      e === 102 ||
      e === 110 ||
      e === 114 ||
      e === 116
    ) {
      i += 2;
    } else {
      return undefined;
    }
  }
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

function numberEnd(text: string, start: number): number {
  NUMBER.lastIndex = start;
  return NUMBER.test(text) ? NUMBER.lastIndex : -1;
}

interface Frame {
  object: boolean;
  /** The key the literals inside belong to (see JsonLiteral.key). */
  key: string | undefined;
  /** The last key read in this object. */
  member: string | undefined;
}

/**
 * Every key, string and number of a JSON object or array text, in order; null when the text is not
 * one (it is then masked as plain text). Linear in the text; no value is built.
 */
export function jsonLiterals(text: string): JsonLiteral[] | null {
  let i = 0;
  const n = text.length;
  const skip = (): void => {
    while (i < n && isSpace(text.charCodeAt(i))) i++;
  };
  skip();
  const first = text.charCodeAt(i);
  if (first !== 123 && first !== 91) return null;
  const out: JsonLiteral[] = [];
  const stack: Frame[] = [];
  // What may come next: a value, a key (or `}` after `{`), `:` after a key, `,` or a closer.
  let expect: 'value' | 'key' | 'colon' | 'after' = 'value';
  let justOpened = false;
  while (i < n) {
    skip();
    if (i >= n) break;
    const c = text.charCodeAt(i);
    const frame = stack[stack.length - 1];
    // An empty container (`{}`, `[]`) closes as one does after its last member.
    if (justOpened && frame && c === (frame.object ? 125 : 93)) expect = 'after';
    justOpened = false;
    if (expect === 'key') {
      if (c !== QUOTE || !frame) return null;
      const s = stringEnd(text, i);
      if (!s) return null;
      frame.member = s.escaped ? (JSON.parse(text.slice(i, s.end)) as string) : text.slice(i + 1, s.end - 1);
      out.push({ kind: 'key', start: i, end: s.end, escaped: s.escaped, key: undefined });
      i = s.end;
      expect = 'colon';
      continue;
    }
    if (expect === 'colon') {
      if (c !== 58) return null;
      i++;
      expect = 'value';
      continue;
    }
    if (expect === 'after') {
      if (!frame) return null; // text after the top-level value
      if (c === 44) {
        i++;
        expect = frame.object ? 'key' : 'value';
        continue;
      }
      if (c === (frame.object ? 125 : 93)) {
        stack.pop();
        i++;
        if (stack.length === 0) {
          skip();
          return i === n ? out : null;
        }
        continue;
      }
      return null;
    }
    // expect === 'value'
    const owner = frame ? (frame.object ? frame.member : frame.key) : undefined;
    if (c === 123 || c === 91) {
      // Deeper than a transcript may nest (the readers' cap): plain text. Without the bound a text
      // of 40 MiB of `[` held a frame per character (1.6 GB).
      if (stack.length >= DEFAULT_MAX_DEPTH) return null;
      stack.push({ object: c === 123, key: owner, member: undefined });
      i++;
      expect = c === 123 ? 'key' : 'value';
      justOpened = true;
      continue;
    }
    if (c === QUOTE) {
      const s = stringEnd(text, i);
      if (!s) return null;
      out.push({ kind: 'string', start: i, end: s.end, escaped: s.escaped, key: owner });
      i = s.end;
    } else if (c === 45 || isDigitCode(c)) {
      const end = numberEnd(text, i);
      if (end === -1) return null;
      out.push({ kind: 'number', start: i, end, escaped: false, key: owner });
      i = end;
    } else if (text.startsWith('true', i)) i += 4;
    else if (text.startsWith('false', i)) i += 5;
    else if (text.startsWith('null', i)) i += 4;
    else return null;
    expect = 'after';
  }
  return null; // unterminated
}

/**
 * The decoded text of the string literal text[start, end) (quotes included) and, for each of its
 * UTF-16 units, the raw offset where that unit is written; `map[decoded.length]` is the offset of
 * the closing quote. A decoded span [s, e) is written at raw [map[s], map[e]).
 */
export function decodeString(text: string, start: number, end: number): { decoded: string; map: Int32Array } {
  const units: string[] = [];
  const map = new Int32Array(end - start);
  let k = 0;
  for (let i = start + 1; i < end - 1;) {
    map[k++] = i;
    if (text.charCodeAt(i) !== BACKSLASH) {
      units.push(text[i] as string);
      i++;
      continue;
    }
    const e = text[i + 1] as string;
    if (e === 'u') {
      units.push(String.fromCharCode(parseInt(text.slice(i + 2, i + 6), 16)));
      i += 6;
      continue;
    }
    units.push(ESCAPES[e] ?? e);
    i += 2;
  }
  map[k] = end - 1;
  return { decoded: units.join(''), map: map.subarray(0, k + 1) };
}

const ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t' };
