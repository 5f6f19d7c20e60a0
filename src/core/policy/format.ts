// How policy paths and values appear in diagnostics. Policy values are configuration, not
// transcript content, so a diagnostic may show them — but always masked, shortened and escaped:
// a phone number typed into the wrong key must not reach a log or an annotation, and a long or
// hostile value cannot flood a log or smuggle control characters into a terminal.
import { maskedForMessage as masked } from '../pii/shown.js';

/** Longest value shown in a diagnostic, quotes and ellipsis included. */
export const MAX_SHOWN_CHARS = 40;

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

// C1 controls, line/paragraph separators, bidi overrides and isolates, BOM: invisible or
// reordering characters that JSON.stringify leaves as they are.
const INVISIBLE = /[\u007f-\u009f\u200b-\u200f\u2028\u2029\u202a-\u202e\u2060-\u2069\ufeff]/g;

function escapeString(text: string): string {
  return JSON.stringify(text).replace(
    INVISIBLE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Cuts to at most `max` UTF-16 units without splitting a surrogate pair, marking the cut with `…`. */
function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  let cut = max - 1;
  const last = text.charCodeAt(cut - 1);
  if (last >= 0xd800 && last <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/** A quoted, escaped, PII-masked string of at most MAX_SHOWN_CHARS characters. */
export function showString(text: string): string {
  // Masked before escaping (the value as written) and after (an escape can make one: `x\u0000@host.org`).
  const quoted = masked(escapeString(masked(text)));
  if (quoted.length <= MAX_SHOWN_CHARS) return quoted;
  // Keep the closing quote visible so the reader sees the value was cut, not malformed. A cut can
  // make an address of what was none (`a@example.orgcanary…` cut after `org`): masked once more.
  return `${masked(shorten(quoted, MAX_SHOWN_CHARS - 1))}"`;
}

/** A short rendering of any parsed value: scalars as written, collections by their shape. */
export function showValue(value: unknown): string {
  if (typeof value === 'string') return showString(value);
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
    return masked(shorten(masked(String(value)), MAX_SHOWN_CHARS));
  }
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) {
    if (value.length === 0) return 'an empty list';
    return `a list of ${value.length} ${value.length === 1 ? 'entry' : 'entries'}`;
  }
  if (value instanceof Uint8Array) return 'binary data';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/** The kind of a parsed value, as a YAML author would name it. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  if (typeof value === 'object') return 'a mapping';
  return `a ${typeof value}`;
}

/** A key as it appears in a message: bare when it is a plain identifier, quoted otherwise. */
export function showKey(key: PropertyKey): string {
  const text = String(key);
  return IDENTIFIER.test(text) && text.length <= MAX_SHOWN_CHARS && masked(text) === text
    ? text
    : showString(text);
}

/** `resilience.protected_tools[2]`; the top level is `(top level)`. */
export function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(top level)';
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else out += out === '' ? showKey(segment) : `.${showKey(segment)}`;
  }
  return out;
}
