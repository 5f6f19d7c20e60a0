import type { Diagnostic } from '../types.js';
import { JsonErrors, JsonFailure } from './errors.js';

export interface JsonParseOptions {
  /** The path as the user gave it; used only in diagnostics. */
  file: string;
  /** Deeper nesting is the error `too-deep`. Default 128 (keeps the recursive descent safe). */
  maxDepth?: number;
  /**
   * Line number of the text's first line, default 1. JSONL readers pass the record's line; the
   * messages then speak of "the record" instead of "the file".
   */
  firstLine?: number;
  /**
   * Where to record positions; a fresh map by default. The JSONL readers pass one map for every
   * record of a file: a map per record cost more memory than the records themselves. A Map, not a
   * WeakMap: the tree lives as long as its positions, and millions of weak entries made every
   * garbage collection slower (50 MB of small objects took minutes).
   */
  positions?: Map<object, JsonPos>;
  /**
   * An array with more elements, or an object with more members, is the error `too-many-records`
   * at its first element or member over the cap. Default: no cap. Transcript readers pass their
   * record cap: memory grows with the number of values, so a file of millions of tiny messages (or
   * one object of millions of keys: 1M keys took 71 MB and 13 s) stops here, before it fills the heap.
   */
  maxArrayLength?: number;
  /**
   * More objects and arrays in `positions` (all of a file's records when they share the map) is
   * the error `too-many-records` at the first one over. Default: no cap. Bounds what an array cap
   * cannot: a file of many arrays, each under the cap, holding millions of tiny objects.
   */
  maxContainers?: number;
}

/** 1-based; column in UTF-16 code units. */
export interface JsonPos {
  line: number;
  column: number;
}

export type JsonParseResult =
  { ok: true; value: unknown; positions: Map<object, JsonPos> } | { ok: false; error: Diagnostic };

export const DEFAULT_MAX_DEPTH = 128;

/**
 * Strict RFC 8259 JSON. Every object and array value gets its start position in `positions`.
 * Errors (first one only): `json-syntax`, then `duplicate-key` (at the second key, with its path),
 * `truncated` (the input ends inside a value), `empty` (no value at all), `too-deep` (nesting
 * beyond `maxDepth`). Messages never quote the input. Lone surrogates in \u escapes are allowed,
 * as in JS strings.
 */
export function parseJson(text: string, opts: JsonParseOptions): JsonParseResult {
  const parser = new Parser(text, opts);
  try {
    const value = parser.parseDocument();
    if (parser.duplicate) return { ok: false, error: parser.duplicate.diagnostic };
    return { ok: true, value, positions: parser.positions };
  } catch (e) {
    if (e instanceof JsonFailure) return { ok: false, error: e.diagnostic };
    throw e;
  }
}

// Character codes; a const enum so the scanner compares against inlined numbers.
const enum Ch {
  Tab = 0x09,
  Lf = 0x0a,
  Cr = 0x0d,
  Space = 0x20,
  Quote = 0x22,
  Plus = 0x2b,
  Comma = 0x2c,
  Minus = 0x2d,
  Dot = 0x2e,
  Slash = 0x2f,
  Zero = 0x30,
  One = 0x31,
  Nine = 0x39,
  Colon = 0x3a,
  UpperE = 0x45,
  OpenBracket = 0x5b,
  Backslash = 0x5c,
  CloseBracket = 0x5d,
  LowerB = 0x62,
  LowerE = 0x65,
  LowerF = 0x66,
  LowerN = 0x6e,
  LowerR = 0x72,
  LowerT = 0x74,
  LowerU = 0x75,
  OpenBrace = 0x7b,
  CloseBrace = 0x7d,
}

/** Single-pass recursive-descent scanner over UTF-16 code units. */
class Parser {
  readonly positions: Map<object, JsonPos>;
  /** The first duplicate key, reported after the text proved well-formed. */
  duplicate: JsonFailure | undefined;
  private readonly text: string;
  private readonly len: number;
  private readonly maxDepth: number;
  private readonly maxArrayLength: number;
  private readonly maxContainers: number;
  /** firstLine - 1, added to the 1-based line within the text. */
  private readonly lineOffset: number;
  private readonly errors: JsonErrors;
  private pos = 0;
  /** 0-based line of `pos` and the offset where that line starts; tracked in skipWs (strings hold no raw LF). */
  private line = 0;
  private lineStart = 0;
  private depth = 0;
  /** path[d]: key or index of the member being parsed in the container at depth d (for messages). */
  private readonly path: (string | number)[] = [];
  /** containerStart[d]: offset of the container at depth d (for truncation messages). */
  private readonly containerStart: number[] = [];

  constructor(text: string, opts: JsonParseOptions) {
    this.text = text;
    this.len = text.length;
    this.positions = opts.positions ?? new Map();
    this.maxDepth = opts.maxDepth ?? DEFAULT_MAX_DEPTH;
    this.maxArrayLength = opts.maxArrayLength ?? Infinity;
    this.maxContainers = opts.maxContainers ?? Infinity;
    this.lineOffset = (opts.firstLine ?? 1) - 1;
    this.errors = new JsonErrors(
      text,
      opts.file,
      this.lineOffset,
      opts.firstLine === undefined ? 'file' : 'record',
    );
  }

  parseDocument(): unknown {
    this.skipWs();
    if (this.pos >= this.len) throw this.errors.empty();
    const value = this.parseValue();
    this.skipWs();
    if (this.pos < this.len) throw this.errors.trailingContent(this.pos);
    return value;
  }

  private skipWs(): void {
    const text = this.text;
    let i = this.pos;
    for (;;) {
      const c = text.charCodeAt(i);
      if (c === Ch.Space || c === Ch.Tab || c === Ch.Cr) i++;
      else if (c === Ch.Lf) {
        i++;
        this.line++;
        this.lineStart = i;
      } else break;
    }
    this.pos = i;
  }

  /** Called with `pos` on the first character of the value (after skipWs, not at the end). */
  private parseValue(): unknown {
    const c = this.text.charCodeAt(this.pos);
    switch (c) {
      case Ch.OpenBrace:
        return this.parseObject();
      case Ch.OpenBracket:
        return this.parseArray();
      case Ch.Quote:
        return this.parseString();
      case Ch.LowerT:
        return this.parseLiteral('true', true);
      case Ch.LowerF:
        return this.parseLiteral('false', false);
      case Ch.LowerN:
        return this.parseLiteral('null', null);
      default:
        if (c === Ch.Minus || (c >= Ch.Zero && c <= Ch.Nine)) return this.parseNumber();
        throw this.errors.valueExpected(this.pos);
    }
  }

  /** Opens a container at `pos`: depth check, position record. */
  private enter(container: object): void {
    const start = this.pos;
    if (++this.depth > this.maxDepth) throw this.errors.tooDeep(start, this.maxDepth);
    this.containerStart[this.depth] = start;
    if (this.positions.size >= this.maxContainers)
      throw this.errors.tooManyContainers(start, this.maxContainers);
    this.positions.set(container, {
      line: this.line + 1 + this.lineOffset,
      column: start - this.lineStart + 1,
    });
    this.pos++;
    this.skipWs();
  }

  private unfinished(what: 'an object' | 'an array'): JsonFailure {
    return this.errors.truncated(what, this.containerStart[this.depth] ?? 0);
  }

  private parseObject(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.enter(obj);
    const text = this.text;
    const depth = this.depth;
    let c = text.charCodeAt(this.pos);
    if (c === Ch.CloseBrace) {
      this.pos++;
      this.depth--;
      return obj;
    }
    for (let members = 0; ; members++) {
      if (c !== Ch.Quote) {
        throw this.pos >= this.len ? this.unfinished('an object') : this.errors.keyExpected(this.pos);
      }
      const keyStart = this.pos;
      if (members >= this.maxArrayLength) throw this.errors.tooManyMembers(keyStart, this.maxArrayLength);
      const key = this.parseString();
      this.path[depth] = key;
      // Reported once the whole text is known to be well-formed: a syntax error is the more
      // fundamental problem, and JSON readers agree on it, whatever comes first.
      if (Object.hasOwn(obj, key)) {
        this.duplicate ??= this.errors.duplicateKey(keyStart, this.path.slice(1, depth + 1));
      }
      this.skipWs();
      if (text.charCodeAt(this.pos) !== Ch.Colon) {
        throw this.pos >= this.len ? this.unfinished('an object') : this.errors.expectedColon(this.pos);
      }
      this.pos++;
      this.skipWs();
      if (this.pos >= this.len) throw this.unfinished('an object');
      const value = this.parseValue();
      // `__proto__` must become an own property (as JSON.parse makes it), not the prototype.
      if (key === '__proto__') {
        Object.defineProperty(obj, key, { value, writable: true, enumerable: true, configurable: true });
      } else obj[key] = value;
      this.skipWs();
      c = text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        const comma = this.pos;
        this.pos++;
        this.skipWs();
        c = text.charCodeAt(this.pos);
        if (c === Ch.CloseBrace) throw this.errors.trailingComma(comma, 'object');
        continue;
      }
      if (c === Ch.CloseBrace) {
        this.pos++;
        this.depth--;
        return obj;
      }
      throw this.pos >= this.len ? this.unfinished('an object') : this.errors.expectedMemberEnd(this.pos);
    }
  }

  private parseArray(): unknown[] {
    const arr: unknown[] = [];
    this.enter(arr);
    const text = this.text;
    const depth = this.depth;
    if (text.charCodeAt(this.pos) === Ch.CloseBracket) {
      this.pos++;
      this.depth--;
      return arr;
    }
    for (let index = 0; ; index++) {
      if (this.pos >= this.len) throw this.unfinished('an array');
      if (index >= this.maxArrayLength) throw this.errors.tooManyElements(this.pos, this.maxArrayLength);
      this.path[depth] = index;
      arr.push(this.parseValue());
      this.skipWs();
      const c = text.charCodeAt(this.pos);
      if (c === Ch.Comma) {
        const comma = this.pos;
        this.pos++;
        this.skipWs();
        if (text.charCodeAt(this.pos) === Ch.CloseBracket) throw this.errors.trailingComma(comma, 'array');
        continue;
      }
      if (c === Ch.CloseBracket) {
        this.pos++;
        this.depth--;
        return arr;
      }
      throw this.pos >= this.len ? this.unfinished('an array') : this.errors.expectedElementEnd(this.pos);
    }
  }

  /** Called with `pos` on the opening quote; leaves `pos` after the closing quote. */
  private parseString(): string {
    const text = this.text;
    const len = this.len;
    const start = this.pos;
    let i = start + 1;
    // Fast path: no escapes, one slice.
    while (i < len) {
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) {
        this.pos = i + 1;
        return text.slice(start + 1, i);
      }
      if (c === Ch.Backslash) break;
      if (c < Ch.Space) throw this.errors.controlChar(i, c);
      i++;
    }
    // Escapes: validate the rest of the string here, then let the engine unescape the checked
    // slice. Far less garbage than concatenating pieces, and it cannot throw once validated.
    while (i < len) {
      const c = text.charCodeAt(i);
      if (c === Ch.Quote) {
        this.pos = i + 1;
        return JSON.parse(text.slice(start, i + 1)) as string;
      }
      if (c === Ch.Backslash) i = this.checkEscape(i, start);
      else if (c < Ch.Space) throw this.errors.controlChar(i, c);
      else i++;
    }
    throw this.errors.truncated('a string', start);
  }

  /** Validates the escape whose backslash is at `i`; returns the offset after it. */
  private checkEscape(i: number, stringStart: number): number {
    const text = this.text;
    const len = this.len;
    if (i + 1 >= len) throw this.errors.truncated('a string', stringStart);
    const e = text.charCodeAt(i + 1);
    if (e === Ch.LowerU) {
      for (let k = i + 2; k < i + 6; k++) {
        if (k >= len) throw this.errors.truncated('a string', stringStart);
        if (!isHexDigit(text.charCodeAt(k))) throw this.errors.badUnicodeEscape(i);
      }
      return i + 6;
    }
    if (
      e === Ch.Quote ||
      e === Ch.Backslash ||
      e === Ch.Slash ||
      e === Ch.LowerB ||
      e === Ch.LowerF ||
      e === Ch.LowerN ||
      e === Ch.LowerR ||
      e === Ch.LowerT
    ) {
      return i + 2;
    }
    throw this.errors.badEscape(i);
  }

  private parseNumber(): number {
    const text = this.text;
    const start = this.pos;
    let i = start;
    let c = text.charCodeAt(i);
    if (c === Ch.Minus) c = text.charCodeAt(++i);
    if (c === Ch.Zero) {
      c = text.charCodeAt(++i);
      if (c >= Ch.Zero && c <= Ch.Nine) throw this.errors.leadingZero(start);
    } else if (c >= Ch.One && c <= Ch.Nine) {
      do c = text.charCodeAt(++i);
      while (c >= Ch.Zero && c <= Ch.Nine);
    } else if (i >= this.len) {
      throw this.errors.truncated('a number', start);
    } else if (text.startsWith('Infinity', i)) {
      throw this.errors.nonFinite(start);
    } else {
      throw this.errors.badNumber(i, "a digit must follow '-'");
    }
    if (c === Ch.Dot) {
      i = this.digits(i + 1, start, 'a digit must follow the decimal point');
      c = text.charCodeAt(i);
    }
    if (c === Ch.LowerE || c === Ch.UpperE) {
      c = text.charCodeAt(++i);
      if (c === Ch.Plus || c === Ch.Minus) i++;
      i = this.digits(i, start, 'the exponent needs at least one digit');
    }
    this.pos = i;
    return Number(text.slice(start, i));
  }

  /** Skips one or more digits from `i`; returns the offset after them. */
  private digits(i: number, numberStart: number, problem: string): number {
    const text = this.text;
    let c = text.charCodeAt(i);
    if (!(c >= Ch.Zero && c <= Ch.Nine)) {
      throw i >= this.len
        ? this.errors.truncated('a number', numberStart)
        : this.errors.badNumber(i, problem);
    }
    do c = text.charCodeAt(++i);
    while (c >= Ch.Zero && c <= Ch.Nine);
    return i;
  }

  private parseLiteral<T>(word: string, value: T): T {
    const start = this.pos;
    if (this.text.startsWith(word, start)) {
      this.pos = start + word.length;
      return value;
    }
    const truncated = this.len - start < word.length && word.startsWith(this.text.slice(start));
    throw truncated ? this.errors.truncated('a literal', start) : this.errors.badLiteral(start);
  }
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}
