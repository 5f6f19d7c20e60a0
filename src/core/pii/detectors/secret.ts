// The `secret` detector: credentials, found three ways.
// - By FORMAT (secret-formats.ts): provider tokens and keys with a fixed prefix or frame that
//   ordinary text, hashes and ids do not produce (`ghp_…`, `sk-ant-…`, `AKIA…`, PEM blocks, JWTs).
// - By CONTEXT: the password of a URL's userinfo (secret-url.ts), and the value assigned to a key
//   that names a secret (`DB_PASSWORD=…`, `"client_secret": "…"`) when it passes an entropy gate
//   (secret-generic.ts). Only the value is masked, so its context stays readable.
// - By HINT: the text is the whole value of a JSON member whose key names a secret (`"password":
//   …`): it is masked whole, whatever its shape, unless it is a placeholder or a reference.
//
// A generic "any high-entropy string" rule is deliberately absent: in transcripts full of git
// SHAs, UUIDs and base64 it masks far more than it protects. Every rule is linear in the text.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { findFormatSecrets } from './secret-formats.js';
import { findAssignedSecrets } from './secret-generic.js';
import { containsRedaction, isNumber, isPlaceholderOrReference } from './secret-values.js';

/**
 * The whole value (trimmed of surrounding whitespace) of a member whose key names a secret, or
 * undefined when it is empty, a placeholder, a reference, `true`/`false`/`null`, a number, or
 * already (partly) masked.
 */
function wholeValue(text: string): PiiMatch | undefined {
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  if (end <= start) return undefined;
  const value = text.slice(start, end);
  if (isPlaceholderOrReference(value) || isNumber(value) || containsRedaction(value)) return undefined;
  return { type: 'secret', start, end };
}

/** Sorted, with overlapping matches (a format and an assignment finding the same token) merged. */
function merge(matches: PiiMatch[]): PiiMatch[] {
  if (matches.length < 2) return matches;
  matches.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: PiiMatch[] = [matches[0]!];
  for (let i = 1; i < matches.length; i++) {
    const m = matches[i]!;
    const last = out[out.length - 1]!;
    if (m.start < last.end) last.end = Math.max(last.end, m.end);
    else out.push(m);
  }
  return out;
}

export function findSecrets(text: string, hint?: TypeHint): PiiMatch[] {
  if (hint?.has('secret')) {
    const whole = wholeValue(text);
    if (whole) return [whole];
  }
  const out: PiiMatch[] = [];
  findFormatSecrets(text, out);
  findAssignedSecrets(text, out); // and the passwords of URLs
  return merge(out);
}

export function secretDetector(): Detector {
  return { type: 'secret', find: findSecrets };
}
