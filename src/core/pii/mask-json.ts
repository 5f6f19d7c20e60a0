// Finding and masking PII inside a JSON text (tool-call arguments, JSON tool outputs) by span:
// each string is decoded, searched with the type its key names (key-hints.ts), and only the
// characters of a found value are replaced in the raw text. Every other byte stays as written, so
// the agent never sees data that was not there (a parse-and-stringify round trip would round large
// integers, turn `1.0` into `1`, collapse duplicate keys and drop `"__proto__"`). Decoding finds
// values an escape hides from a raw scan (`\u0040`), and a cut never falls inside an escape.
import { decodeString, jsonLiterals } from './json-literals.js';
import type { JsonLiteral } from './json-literals.js';
import { hintOfKey } from './key-hints.js';
import { findPii, maskText, replacementOf } from './mask.js';
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

interface Found {
  lit: JsonLiteral;
  decoded: string;
  map: Int32Array | undefined;
  /** Spans in `decoded`, sorted and disjoint. */
  spans: PiiMatch[];
}

// Literals are searched as one text, joined by a blank line: one scan instead of one per literal
// (most are a few characters: keys, ids, flags), and a key's words stand right before its value,
// where the detectors look for context, as they do in the raw text.
const SEP = '\n\n';

/**
 * The literals holding PII, with their spans in decoded form. A literal whose key names a type
 * is searched again alone with that hint (`"phone": 4155552671`, `"password": "…"`).
 */
function findInLiterals(text: string, literals: readonly JsonLiteral[], s: Search): Found[] {
  const decoded = literals.map((lit) => decodedOf(text, lit));
  const starts: number[] = [];
  let at = 0;
  for (const d of decoded) {
    starts.push(at);
    at += d.decoded.length + SEP.length;
  }
  const hits = findPii(decoded.map((d) => d.decoded).join(SEP), s.detectors, s.allow, s.replacement);
  const byLiteral = new Map<number, PiiMatch[]>();
  let i = 0;
  for (const h of hits) {
    while (i + 1 < starts.length && (starts[i + 1] as number) <= h.start) i++;
    // A span reaching over a separator (a PEM body runs over blank lines) is cut to each literal.
    for (let k = i; k < starts.length && (starts[k] as number) < h.end; k++) {
      const base = starts[k] as number;
      const len = (decoded[k] as { decoded: string }).decoded.length;
      const start = Math.max(h.start - base, 0);
      const end = Math.min(h.end - base, len);
      if (start >= end) continue;
      // Appended in place: a literal may hold tens of thousands of hits (copying was quadratic).
      const spans = byLiteral.get(k);
      if (spans) spans.push({ type: h.type, start, end });
      else byLiteral.set(k, [{ type: h.type, start, end }]);
    }
  }
  const out: Found[] = [];
  literals.forEach((lit, k) => {
    const d = decoded[k] as { decoded: string; map: Int32Array | undefined };
    const hint = hintOf(lit);
    let spans = byLiteral.get(k) ?? [];
    // A value under a typed key is searched alone with its hint, which decides: the hint can add
    // (a national number under "phone") or take away (a card-shaped id under "order_id"). The
    // identifier hint only takes away, so a value the joined scan found nothing in stays clean.
    if (hint !== undefined && (spans.length > 0 || !hint.has('identifier'))) {
      spans = findPii(d.decoded, s.detectors, s.allow, s.replacement, hint);
    }
    if (spans.length > 0) out.push({ lit, decoded: d.decoded, map: d.map, spans });
  });
  return out;
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
  for (const f of findInLiterals(text, literals, { detectors, allow, replacement })) {
    for (const m of f.spans) {
      out.push({ type: m.type, start: rawAt(f.lit, f.map, m.start), end: rawAt(f.lit, f.map, m.end) });
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
 * number cannot stay a number).
 */
function maskLiteral(
  text: string,
  found: Found,
  detectors: readonly Detector[],
  opts: MaskOptions,
  counts: Map<string, number>,
): string {
  const { lit } = found;
  const hint = hintOf(lit);
  if (lit.kind === 'number') {
    const r = maskText(text.slice(lit.start, lit.end), detectors, opts, hint);
    addCounts(counts, r.counts);
    return `"${escapeInString(r.text)}"`;
  }
  // Masking repeats until nothing is found (mask.ts: a replacement can change its neighbours);
  // each pass rewrites only the spans it found. The first pass's spans come from the joined scan.
  let raw = text.slice(lit.start, lit.end);
  let current: JsonLiteral = { ...lit, start: 0, end: raw.length };
  let map: Int32Array | undefined = found.map ? found.map.map((k) => k - lit.start) : undefined;
  let decoded = found.decoded;
  let spans = found.spans;
  while (spans.length > 0) {
    const parts: string[] = [];
    let pos = 0;
    for (const span of spans) {
      // The value as decoded (an escape hides nothing): what numbering and hashing see.
      const value = decoded.slice(span.start, span.end);
      parts.push(raw.slice(pos, rawAt(current, map, span.start)));
      parts.push(escapeInString(replacementOf(opts, span.type, value)));
      pos = rawAt(current, map, span.end);
      counts.set(span.type, (counts.get(span.type) ?? 0) + 1);
    }
    parts.push(raw.slice(pos));
    raw = parts.join('');
    current = { ...current, end: raw.length, escaped: raw.includes('\\') };
    const next = decodedOf(raw, current);
    map = next.map;
    decoded = next.decoded;
    spans = findPii(next.decoded, detectors, opts.allow, opts.replacement, hint);
  }
  return raw;
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
  for (const found of findInLiterals(text, literals, search)) {
    parts.push(text.slice(pos, found.lit.start), maskLiteral(text, found, detectors, opts, counts));
    pos = found.lit.end;
  }
  if (parts.length === 0) return { text, counts: {} };
  parts.push(text.slice(pos));
  // A replacement can change what its neighbours in other literals look like (`[REDACTED_PHONE]`
  // is a context word for the value after it), so masking repeats over the whole text until
  // nothing is found, as maskText does: masking twice then changes nothing.
  const again = maskJsonText(parts.join(''), detectors, opts);
  if (again) addCounts(counts, again.counts);
  const sorted = [...counts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return { text: again?.text ?? parts.join(''), counts: Object.fromEntries(sorted) };
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
