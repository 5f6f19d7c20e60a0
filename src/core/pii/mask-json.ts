// Masking inside JSON text (tool-call arguments, JSON tool outputs). Masking the raw text could cut
// through an escape (`\u00e9` holds digits) and leave invalid JSON; masking the decoded strings and
// numbers keeps the document valid and finds values that escapes would hide from a raw scan.
import { maskText } from './mask.js';
import type { MaskOptions, MaskResult } from './mask.js';
import type { Detector } from './types.js';

function parseStructured(text: string): unknown {
  const t = text.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The indentation the document was written with, so a masked copy looks like the original. */
function indentOf(text: string): string | number {
  const m = /^\s*[{[]\r?\n([ \t]+)/.exec(text);
  return m ? (m[1] as string) : 0;
}

/** Every string (keys included) and number of a parsed JSON value, as text. */
export function jsonLeaves(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) jsonLeaves(v, out);
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      jsonLeaves(v, out);
    }
  }
  return out;
}

/** The decoded strings of a JSON text, or null when the text is not a JSON object or array. */
export function jsonTextLeaves(text: string): string[] | null {
  const v = parseStructured(text);
  return v === undefined ? null : jsonLeaves(v);
}

/**
 * Masks the strings, keys and numbers of a JSON object or array; a number holding PII becomes the
 * replacement string. Returns null when the text is not JSON (mask it as plain text then), and the
 * text unchanged when nothing was found.
 */
export function maskJsonText(
  text: string,
  detectors: readonly Detector[],
  opts: MaskOptions,
): MaskResult | null {
  const t = text.trimStart();
  if (!(t.startsWith('{') || t.startsWith('['))) return null;
  // Without escapes every decoded string stands verbatim in the text: when a raw scan finds
  // nothing, neither would the walk, and the parse is saved.
  if (!text.includes('\\')) {
    const raw = maskText(text, detectors, opts);
    if (raw.text === text) return raw;
  }
  const value = parseStructured(text);
  if (value === undefined) return null;
  const counts: Record<string, number> = {};
  let changed = false;
  const mask = (s: string): string => {
    const r = maskText(s, detectors, opts);
    if (r.text !== s) {
      changed = true;
      for (const [k, n] of Object.entries(r.counts)) counts[k] = (counts[k] ?? 0) + n;
    }
    return r.text;
  };
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return mask(v);
    if (typeof v === 'number') {
      const s = String(v);
      const m = mask(s);
      return m === s ? v : m;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) out[mask(k)] = walk(x);
      return out;
    }
    return v;
  };
  const masked = walk(value);
  if (!changed) return { text, counts: {} };
  const sorted = Object.fromEntries(Object.entries(counts).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return { text: JSON.stringify(masked, null, indentOf(text)), counts: sorted };
}
