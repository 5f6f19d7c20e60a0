// The password of a URL's userinfo, `scheme://user:password@host`: database URLs (postgres,
// mysql, mongodb+srv, redis, amqp, mssql, jdbc:…, clickhouse), git remotes and proxies with
// credentials, any scheme. Only the password is masked, so
// `postgres://app:[REDACTED_SECRET]@db.internal:5432/orders` keeps the user, host and database.
// A placeholder password (`password`, `****`, `<password>`, `${DB_PASS}`, `$PASSWORD`, `%s`,
// `{password}`) is not a secret; a percent-encoded one is.
//
// Cost: each `://` (found by the separator scan of secret-generic.ts, or by `findUrlPasswords`)
// reads the authority after it once (to its first `/`, `?`, `#`, whitespace, quote or bracket, at
// most MAX_AUTHORITY characters), and the scan resumes after it, so it is linear in the text.

import type { PiiMatch } from '../types.js';
import { containsRedaction, isPlaceholderOrReference } from './secret-values.js';

const MAX_AUTHORITY = 512;

function isSchemeChar(c: number): boolean {
  return (
    (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46
  );
}

/** These end the authority: `/ ? #`, whitespace, quotes, `< > ( ) [ ] \ , ;`. */
const ENDS_AUTHORITY = new Uint8Array(128);
for (const c of '/?#"\'`<>()[]\\,; \t\n\r\f\v') ENDS_AUTHORITY[c.charCodeAt(0)] = 1;

/** Placeholders written percent-encoded in a URL (`%7Bpassword%7D`, `%24%7BPASS%7D`). */
function decodePlaceholderChars(value: string): string {
  return value.replace(/%(7B|7D|24|3C|3E|2A)/gi, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Handles the `://` at `i`: pushes the password of its userinfo to `out` unless it is a
 * placeholder, and returns where the authority ends (the next `://` can only come after it).
 */
export function urlPasswordAt(text: string, i: number, out: PiiMatch[]): number {
  const authority = i + 3;
  let j = authority;
  let colon = -1;
  let at = -1;
  for (; j < text.length && j - authority < MAX_AUTHORITY; j++) {
    const c = text.charCodeAt(j);
    if (c < 128 && ENDS_AUTHORITY[c] === 1) break;
    if (c === 64)
      at = j; // the last @ ends the userinfo (a raw @ in a password happens)
    else if (c === 58 && colon === -1 && at === -1) colon = j; // the first : of the userinfo
  }
  if (colon === -1 || at === -1 || i === 0 || !isSchemeChar(text.charCodeAt(i - 1))) return j;
  const password = text.slice(colon + 1, at);
  if (!isPlaceholderOrReference(decodePlaceholderChars(password)) && !containsRedaction(password)) {
    out.push({ type: 'secret', start: colon + 1, end: at });
  }
  return j;
}

/** Appends the password of every `scheme://user:password@host` in `text` to `out`. */
export function findUrlPasswords(text: string, out: PiiMatch[]): void {
  for (let i = text.indexOf('://'); i !== -1;)
    i = text.indexOf('://', Math.max(urlPasswordAt(text, i, out), i + 3));
}
