// Finding and masking PII inside a JSON text (tool-call arguments, JSON tool outputs) by span:
// each string is decoded, searched with the type its key names (key-hints.ts), and only the
// characters of a found value are replaced in the raw text. Every other byte stays as written, so
// the agent never sees data that was not there (a parse-and-stringify round trip would round large
// integers, turn `1.0` into `1`, collapse duplicate keys and drop `"__proto__"`). Decoding finds
// values an escape hides from a raw scan (`\u0040`), and a cut never falls inside an escape.
import { decodeString, jsonLiterals } from './json-literals.js';
import type { JsonLiteral } from './json-literals.js';
import { hintOfKey } from './key-hints.js';
import { findPii, maskText, renderReplacement } from './mask.js';
import type { MaskOptions, MaskResult } from './mask.js';
import type { Detector, PiiMatch, TypeHint } from './types.js';

interface Search {
  detectors: readonly Detector[];
  allow: readonly string[];
  replacement: string | undefined;
}

function hintOf(lit: JsonLiteral): TypeHint | undefined {
  return lit.kind === 'key' ? undefined : hintOfKey(lit.key);
}

/**
 * The literals that can hold something: those with an escape (a raw scan cannot see their text),
 * those whose key names a type, and those a raw scan of the whole text found something in. A
 * literal without any of these is its own raw text and the raw scan found nothing in it.
 */
function literalsToSearch(text: string, literals: readonly JsonLiteral[], s: Search): JsonLiteral[] {
  const raw = findPii(text, s.detectors, s.allow, s.replacement);
  const out: JsonLiteral[] = [];
  let h = 0;
  for (const lit of literals) {
    while (h < raw.length && (raw[h] as PiiMatch).end <= lit.start) h++;
    const hit = h < raw.length && (raw[h] as PiiMatch).start < lit.end;
    if (hit || lit.escaped || hintOf(lit) !== undefined) out.push(lit);
  }
  return out;
}

/** The literal's text as a detector sees it, and where each of its units is written. */
function decodedOf(text: string, lit: JsonLiteral): { decoded: string; map: Int32Array | undefined } {
  if (lit.kind === 'number') return { decoded: text.slice(lit.start, lit.end), map: undefined };
  if (lit.escaped) return decodeString(text, lit.start, lit.end);
  return { decoded: text.slice(lit.start + 1, lit.end - 1), map: undefined };
}

/** Raw offset of decoded offset `k` (a string literal's content starts after its quote). */
function rawAt(lit: JsonLiteral, map: Int32Array | undefined, k: number): number {
  if (map) return map[k] as number;
  return lit.kind === 'number' ? lit.start + k : lit.start + 1 + k;
}

/**
 * PII spans of a JSON object or array text, as raw offsets (a value's span covers the characters
 * that write it, escapes included); null when the text is not JSON. What the `pii` check searches
 * with, so it sees exactly what the masker would have masked.
 */
export function findJsonPii(
  text: string,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement?: string,
): PiiMatch[] | null {
  const literals = jsonLiterals(text);
  if (literals === null) return null;
  const out: PiiMatch[] = [];
  for (const lit of literalsToSearch(text, literals, { detectors, allow, replacement })) {
    const { decoded, map } = decodedOf(text, lit);
    for (const m of findPii(decoded, detectors, allow, replacement, hintOf(lit))) {
      out.push({ type: m.type, start: rawAt(lit, map, m.start), end: rawAt(lit, map, m.end) });
    }
  }
  return out;
}

function addCounts(into: Map<string, number>, counts: Record<string, number>): void {
  for (const [k, v] of Object.entries(counts)) into.set(k, (into.get(k) ?? 0) + v);
}

/** A replacement's characters as they are written inside a JSON string. */
function escapeInString(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

/**
 * The literal with its PII masked, in raw form: for a string, the characters outside every found
 * span are kept as written; a number holding PII becomes a string of its masked text (a masked
 * number cannot stay a number). Undefined when nothing was found.
 */
function maskLiteral(
  text: string,
  lit: JsonLiteral,
  detectors: readonly Detector[],
  opts: MaskOptions,
  counts: Map<string, number>,
): string | undefined {
  const hint = hintOf(lit);
  if (lit.kind === 'number') {
    const r = maskText(text.slice(lit.start, lit.end), detectors, opts, hint);
    if (Object.keys(r.counts).length === 0) return undefined;
    addCounts(counts, r.counts);
    return `"${escapeInString(r.text)}"`;
  }
  // Masking repeats until nothing is found (mask.ts: a replacement can change its neighbours);
  // each pass rewrites only the spans it found.
  let raw = text.slice(lit.start, lit.end);
  let current: JsonLiteral = { ...lit, start: 0, end: raw.length };
  let changed = false;
  for (;;) {
    const { decoded, map } = decodedOf(raw, current);
    const spans = findPii(decoded, detectors, opts.allow, opts.replacement, hint);
    if (spans.length === 0) break;
    const parts: string[] = [];
    let pos = 0;
    for (const span of spans) {
      const start = rawAt(current, map, span.start);
      parts.push(raw.slice(pos, start), escapeInString(renderReplacement(opts.replacement, span.type)));
      pos = rawAt(current, map, span.end);
      counts.set(span.type, (counts.get(span.type) ?? 0) + 1);
    }
    parts.push(raw.slice(pos));
    raw = parts.join('');
    current = { ...current, end: raw.length, escaped: raw.includes('\\') };
    changed = true;
  }
  return changed ? raw : undefined;
}

/**
 * Masks the keys, strings and numbers of a JSON object or array text in place. Returns null when
 * the text is not JSON (mask it as plain text then), and the text unchanged when nothing was found.
 */
export function maskJsonText(
  text: string,
  detectors: readonly Detector[],
  opts: MaskOptions,
): MaskResult | null {
  const literals = jsonLiterals(text);
  if (literals === null) return null;
  const search = { detectors, allow: opts.allow, replacement: opts.replacement };
  const counts = new Map<string, number>();
  const parts: string[] = [];
  let pos = 0;
  for (const lit of literalsToSearch(text, literals, search)) {
    const masked = maskLiteral(text, lit, detectors, opts, counts);
    if (masked === undefined) continue;
    parts.push(text.slice(pos, lit.start), masked);
    pos = lit.end;
  }
  if (parts.length === 0) return { text, counts: {} };
  parts.push(text.slice(pos));
  const sorted = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { text: parts.join(''), counts: Object.fromEntries(sorted) };
}

/**
 * PII spans of any text an output carries: by literal for a JSON object or array (keys give their
 * values a type), else over the plain text.
 */
export function findPiiIn(
  text: string,
  detectors: readonly Detector[],
  allow: readonly string[],
  replacement?: string,
): PiiMatch[] {
  return findJsonPii(text, detectors, allow, replacement) ?? findPii(text, detectors, allow, replacement);
}
