// Email addresses: a practical RFC 5322 subset (dot-atom local part of common characters,
// an ASCII domain with a letter TLD). Scans outward from each '@' instead of running a regex
// over the whole text: text without '@' costs one indexOf.
//
// Not mailboxes: SCP remotes and URL authorities with a port (`git@github.com:org/repo`,
// `user@host:5432`), and the password of a URL's userinfo (`postgres://app:s3cret@db.example.com`:
// the "local part" follows a `:` and a `scheme://` opens the same whitespace-free token).
// `mailto:bob@x.com` has no `//` and stays an address. A URL-encoded address
// (`?email=jane.doe%40example.com`, `%40` for `@`) is an address too.

import type { Detector, PiiMatch } from '../types.js';
import { escapeLetterAt, isAsciiAlnum } from './scan.js';

const AT = 64;
const DOT = 46;
const HYPHEN = 45;
const COLON = 58;
const SLASH = 47;
const MAX_LOCAL = 64;
const MAX_DOMAIN = 253;
/** How far back from a `:` the `scheme://` of a URL's userinfo is looked for. */
const MAX_USERINFO = 256;

// Image/asset names such as `icon@2x.png` look like addresses; these extensions are not TLDs,
// so refusing them never hides a real address.
// prettier-ignore
const FILE_EXTENSIONS = new Set([
  'png', 'jpg', 'jpeg', 'gif', 'svg', 'webp', 'ico', 'bmp', 'tiff', 'avif', 'heic',
  'css', 'scss', 'js', 'mjs', 'cjs', 'ts', 'tsx', 'jsx', 'json', 'map', 'lock',
  'yml', 'yaml', 'txt', 'log', 'html', 'htm', 'pdf', 'zip', 'tar', 'tgz', 'gz', 'wasm',
]);

function isLocalChar(code: number): boolean {
  // A-Z a-z 0-9 . _ % + -
  return isAsciiAlnum(code) || code === DOT || code === 95 || code === 37 || code === 43 || code === HYPHEN;
}

function isDomainChar(code: number): boolean {
  return isAsciiAlnum(code) || code === DOT || code === HYPHEN;
}

function isWhitespace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

function validDomain(domain: string): boolean {
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  for (const label of labels) {
    if (label.length === 0 || label.length > 63) return false;
    if (label.charCodeAt(0) === HYPHEN || label.charCodeAt(label.length - 1) === HYPHEN) return false;
  }
  const tld = labels[labels.length - 1] ?? '';
  return /^[A-Za-z]{2,63}$/.test(tld) && !FILE_EXTENSIONS.has(tld.toLowerCase());
}

/**
 * The end of the longest valid domain in `text[from, end)` followed by a glued-on suffix: a file
 * extension (`.pdf`), a counter (`.0`, which the Claude Code reader appends to ids; a TLD is never
 * numeric) or a hyphen (`-0`). Any other trailing label (`x@self.weight.T`) means the token is not
 * an address.
 */
function validPrefixEnd(text: string, from: number, end: number): number | undefined {
  for (let p = end - 1; p > from; p--) {
    const code = text.charCodeAt(p);
    if (code === DOT) {
      const next = text.slice(p + 1, end).split(/[.-]/)[0] ?? '';
      if (!FILE_EXTENSIONS.has(next.toLowerCase()) && !/^[0-9]+$/.test(next)) continue;
    } else if (code !== HYPHEN) continue;
    if (validDomain(text.slice(from, p))) return p;
  }
  return undefined;
}

/**
 * Whether the local part starting at `start` is the password of a URL's userinfo: a `:` right
 * before it and `://` earlier in the same URL-shaped token (the scan back is bounded, so each
 * '@' costs O(1)).
 */
function isUserinfoPassword(text: string, start: number): boolean {
  if (text.charCodeAt(start - 1) !== COLON) return false;
  const floor = Math.max(0, start - 1 - MAX_USERINFO);
  for (let i = start - 2; i >= floor + 2; i--) {
    const code = text.charCodeAt(i);
    // A URL holds neither whitespace nor `"`, `<`, `>`: the token ends there (JSON strings, <URLs>).
    if (isWhitespace(code) || code === 34 || code === 60 || code === 62) return false;
    if (code === SLASH && text.charCodeAt(i - 1) === SLASH && text.charCodeAt(i - 2) === COLON) return true;
  }
  return false;
}

/**
 * The `@` and URL-encoded `%40` of `text` in order: called with a growing `from`, it returns the
 * next one's index and length, or undefined. Each search resumes where it stopped (issue 34: a
 * fresh `indexOf('%40')` per `@` scanned the rest of a text of many `@` and no `%40` each time).
 */
function separators(text: string): (from: number) => [number, number] | undefined {
  let plain = -2; // the next `@` at or after the last `from`; -1: none left
  let encoded = -2;
  return (from) => {
    if (plain !== -1 && plain < from) plain = text.indexOf('@', from);
    if (encoded !== -1 && encoded < from) encoded = text.indexOf('%40', from);
    if (encoded !== -1 && (plain === -1 || encoded < plain)) return [encoded, 3];
    return plain === -1 ? undefined : [plain, 1];
  };
}

export function findEmails(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  let floor = 0; // never extend a local part back into the previous match
  const nextAt = separators(text);
  for (let next = nextAt(0); next !== undefined; next = nextAt(next[0] + 1)) {
    const [at, sepLength] = next;
    const domainStart = at + sepLength;
    let start = at;
    while (start > floor && at - start < MAX_LOCAL && isLocalChar(text.charCodeAt(start - 1))) start--;
    while (start < at && text.charCodeAt(start) === DOT) start++; // a local part cannot open with '.'
    if (start < at && escapeLetterAt(text, start)) start++; // `\nbob@…` in JSON text: keep the `\n`
    if (start === at || isUserinfoPassword(text, start)) continue;
    let end = domainStart;
    while (end < text.length && end - domainStart < MAX_DOMAIN && isDomainChar(text.charCodeAt(end))) end++;
    // Sentence punctuation after an address is not part of it.
    while (end > domainStart && (text.charCodeAt(end - 1) === DOT || text.charCodeAt(end - 1) === HYPHEN))
      end--;
    if (end === domainStart || text.charCodeAt(end) === AT) continue;
    if (!validDomain(text.slice(domainStart, end))) {
      // `jane@example.com.pdf`, `jane@example.com-0`: an address with a suffix glued on is still an
      // address. The longest prefix that is a valid domain (two labels at least) is the address.
      const shorter = validPrefixEnd(text, domainStart, end);
      if (shorter === undefined) continue;
      end = shorter;
    }
    // `git@github.com:org/repo` and `user@host:port` are SCP remotes / URL authorities, not mailboxes.
    if (text.charCodeAt(end) === COLON && end + 1 < text.length && !isWhitespace(text.charCodeAt(end + 1))) {
      continue;
    }
    out.push({ type: 'email', start, end });
    floor = end;
    next[0] = end - 1;
  }
  return out;
}

export function emailDetector(): Detector {
  return { type: 'email', find: findEmails };
}
