// Secrets assigned to a key that names one, whatever their format: `DB_PASSWORD=…`,
// `db.password: …`, `"client_secret": "…"`, `apiKey = '…'`, `Authorization: Bearer …`,
// `password := "…"`, `'token' => '…'`. Only the value is masked, and only when it passes the
// entropy gate of secret-values.ts (so `tokens: 1234`, `password = getPassword()`,
// `token = await fetchToken()` and `const token = req.headers.authorization` are left alone).
//
// How it stays cheap on text without secrets: it visits the separators (`=` and `:`, found by
// `String#indexOf`), looks at the few characters before each for a key whose last word names a
// secret, and only then reads the value. Each separator costs a bounded look-back (a key is at
// most MAX_KEY characters) and each value is read once (separators inside a value already read
// are skipped), so the scan is linear in the text.

import type { PiiMatch } from '../types.js';
import { urlPasswordAt } from './secret-url.js';
import { MIN_SECRET_LENGTH, containsRedaction, passesEntropyGate } from './secret-values.js';

/** Longest key name considered; longer runs are not configuration keys. */
const MAX_KEY = 80;
/** Longest value considered; longer runs are blobs that the format rules handle. */
const MAX_VALUE = 512;
/** Spaces allowed between a key, its separator and its value. */
const MAX_GAP = 16;

const EQ = 61; // =
const COLON = 58; // :

// prettier-ignore
/** Words before `token` that make it a count, a position or a vocabulary entry, not a credential. */
const TOKEN_NOT_SECRET = new Set([
  'page', 'next', 'prev', 'previous', 'continuation', 'pagination', 'cursor', 'sync', 'resume',
  'max', 'min', 'num', 'total', 'count', 'input', 'output', 'completion', 'prompt', 'eos', 'bos',
  'pad', 'unk', 'sep', 'cls', 'mask', 'special', 'start', 'stop', 'end', 'cache', 'cached',
  'reasoning', 'image', 'audio', 'text', 'vocab', 'first', 'last', 'csrf', 'xsrf', 'cancellation',
  'cancel', 'lexer', 'parser', 'syntax', 'ast', 'design', 'color', 'theme',
]);

// prettier-ignore
/** Words before `key` that make it an index, a lookup or a public key, not a credential. */
const KEY_NOT_SECRET = new Set([
  'public', 'pub', 'foreign', 'sort', 'cache', 'partition', 'idempotency', 'lookup', 'map', 'dict',
  'hash', 'row', 'object', 'file', 'path', 'name', 'id', 'type', 'group', 'column', 'field',
  'attribute', 'attr', 'registry', 'index', 'unique', 'composite', 'natural', 'surrogate', 'shard',
  'routing', 'message', 'event', 'dedup', 'dedupe', 'translation', 'i18n', 'locale', 'label',
  'search', 'query', 'filter', 'order', 'sequence', 's3', 'bucket', 'blob', 'list', 'item',
  'element', 'react', 'cell', 'table', 'entry', 'record', 'hot', 'short', 'shortcut', 'keyboard',
  'press', 'ssh', 'host', 'gpg', 'pgp', 'verify', 'verification', 'cert', 'certificate', 'cursor',
  'state', 'store', 'config', 'setting', 'settings', 'option', 'prop', 'property', 'metadata',
  'meta', 'tag', 'lock', 'min', 'max', 'start', 'end', 'next', 'prev', 'last', 'first', 'trace',
  'span', 'request', 'user', 'context', 'ctx', 'data', 'the', 'a', 'this',
]);

// The last word of a secret-naming key, by its last letter. `suffix`: the word may end a longer
// one with no boundary (`PGPASSWORD`, `clientsecret`, `authtoken`); otherwise it must be a whole
// word (`DB_PASS` but not `bypass`, `basic_auth` but not `oauth`). `password`: a word for what a
// person chooses (short values count) rather than what a machine issues (see MIN_TOKEN_LENGTH).
interface KeyWord {
  word: string;
  suffix: boolean;
  password: boolean;
}
const word = (w: string, suffix: boolean, password = false): KeyWord => ({ word: w, suffix, password });
const KEY_WORDS_BY_LAST: readonly (readonly KeyWord[] | undefined)[] = (() => {
  // prettier-ignore
  const words = [
    word('password', true, true), word('passwd', true, true), word('passphrase', true, true),
    word('pass', false, true), word('pwd', false, true), word('pw', false, true),
    word('secret', true), word('token', true), word('credentials', true), word('credential', true),
    word('creds', true), word('apikey', true), word('authorization', false), word('auth', false),
    word('key', false),
  ];
  const table: KeyWord[][] = Array.from({ length: 128 }, () => []);
  for (const w of words) table[w.word.charCodeAt(w.word.length - 1)]!.push(w);
  return table.map((list) => (list.length > 0 ? list : undefined));
})();
/** Words after the secret-naming one that still name its value (`SECRET_KEY_BASE`, `token_value`). */
const QUALIFIERS = ['value', 'base', 'plain', 'plaintext', 'raw'];

/** The last two letters (lower case, as `c1 << 8 | c2`) of every key word and qualifier. */
const ENDINGS = new Set(
  [...KEY_WORDS_BY_LAST.flatMap((list) => (list ?? []).map((w) => w.word)), ...QUALIFIERS].map(
    (w) => (w.charCodeAt(w.length - 2) << 8) | w.charCodeAt(w.length - 1),
  ),
);

/**
 * Machine-issued tokens and keys are long (16 to 100+ characters); a shorter value under a
 * `token`, `secret` or `key` name is an id, a flag or a public badge token (`?token=lWZ9OBQ7GM`).
 * Passwords are chosen by people and may be as short as MIN_SECRET_LENGTH.
 */
export const MIN_TOKEN_LENGTH = 16;

/** HTTP authentication schemes in front of the credential (`Authorization: Bearer …`). */
const SCHEME = /(?:Bearer|Basic|Token|Bot|Digest|ApiKey)[ \t]+/iy;

/** The code unit at `i`, or -1 outside the text (an out-of-range `charCodeAt` deoptimizes V8). */
function codeAt(text: string, i: number): number {
  return i >= 0 && i < text.length ? text.charCodeAt(i) : -1;
}
function isLetter(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}
function isUpper(c: number): boolean {
  return c >= 65 && c <= 90;
}
function isLower(c: number): boolean {
  return c >= 97 && c <= 122;
}
function isAlnum(c: number): boolean {
  return isLetter(c) || (c >= 48 && c <= 57);
}
function isKeyChar(c: number): boolean {
  return isAlnum(c) || c === 95 || c === 45 || c === 46; // _ - .
}
/** A table of the ASCII characters of `chars`. */
function charSet(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}
function inSet(set: Uint8Array, c: number): boolean {
  return c >= 0 && c < 128 && set[c] === 1;
}
/** Before `=`, these make it a comparison or a compound assignment (`==`, `!=`, `<=`, `+=`, `:=`). */
const OPERATORS = charSet('=!<>+-*/%&|^?~:');
/** These end an unquoted value: whitespace, quotes, brackets, list and statement separators, `\`. */
const ENDS_UNQUOTED = charSet('"\'`,;&|()[]{}<>\\ \t\n\r\f\v');
function isQuote(c: number): boolean {
  return c === 34 || c === 39 || c === 96; // " ' `
}
function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}
function isSpace(c: number): boolean {
  return c === 32 || (c >= 9 && c <= 13);
}

/** `text[start, end)` equals `word` (lower case) ignoring ASCII case. */
function equalsAt(text: string, start: number, word: string): boolean {
  if (start < 0) return false;
  for (let i = 0; i < word.length; i++) {
    if ((text.charCodeAt(start + i) | 32) !== word.charCodeAt(i)) return false;
  }
  return true;
}

/** A word boundary at `i` inside a key: start of the key, after a non-letter, or a case change. */
function boundaryAt(text: string, keyStart: number, i: number): boolean {
  if (i <= keyStart) return true;
  const before = text.charCodeAt(i - 1);
  const at = text.charCodeAt(i);
  if (!isLetter(before)) return true;
  if (isLower(before) && isUpper(at)) return true; // dbPassword
  return isUpper(at) && isLower(codeAt(text, i + 1)) && isUpper(before); // APIKey
}

/**
 * The word of the key `text[keyStart, …)` that ends at `end`, or ends one separator (`_`, `-`,
 * `.`) before it: camelCase, snake_case, kebab-case and dotted keys all split. Lower case.
 */
function wordBefore(text: string, keyStart: number, end: number): string {
  let i = end;
  if (i > keyStart && !isAlnum(text.charCodeAt(i - 1))) i--;
  const wordEnd = i;
  if (wordEnd <= keyStart) return '';
  const allUpper = isUpper(text.charCodeAt(wordEnd - 1));
  while (i > keyStart) {
    const c = text.charCodeAt(i - 1);
    if (!isAlnum(c) || (allUpper && isLower(c))) break;
    i--;
    if (!allUpper && isUpper(c)) break; // the capital that starts a camelCase word
  }
  return text.slice(i, wordEnd).toLowerCase();
}

/**
 * Whether the key `text[start, end)` names a secret by its last word (see KEY_WORDS_BY_LAST): 0
 * when it does not, else the shortest value worth masking under it.
 */
export function secretKeyMinLength(text: string, start: number, end: number): number {
  for (let round = 0; round < 2; round++) {
    const last = text.charCodeAt(end - 1) | 32;
    for (const { word, suffix, password } of (last < 128 ? KEY_WORDS_BY_LAST[last] : undefined) ?? []) {
      const at = end - word.length;
      if (at < start || !equalsAt(text, at, word)) continue;
      const whole = boundaryAt(text, start, at);
      if (!whole && !suffix) continue;
      if (word === 'key') {
        const before = wordBefore(text, start, at);
        return before.length >= 2 && !KEY_NOT_SECRET.has(before) ? MIN_TOKEN_LENGTH : 0; // not `e.key`
      }
      if (word === 'token') {
        const stem = whole
          ? wordBefore(text, start, at)
          : text
              .slice(start, at)
              .toLowerCase()
              .replace(/.*[^a-z]/, '');
        return TOKEN_NOT_SECRET.has(stem) ? 0 : MIN_TOKEN_LENGTH;
      }
      return password ? MIN_SECRET_LENGTH : MIN_TOKEN_LENGTH;
    }
    // `SECRET_KEY_BASE`, `token_value`: drop one qualifier word and look again.
    let qualifier = '';
    for (const q of QUALIFIERS) {
      if (
        end - q.length > start &&
        equalsAt(text, end - q.length, q) &&
        boundaryAt(text, start, end - q.length)
      )
        qualifier = q;
    }
    if (qualifier === '') return 0;
    end -= qualifier.length;
    while (end > start && !isLetter(text.charCodeAt(end - 1))) end--;
  }
  return 0;
}

/**
 * Appends to `out` the values of secret-naming keys that pass the entropy gate, and the
 * passwords of URLs (secret-url.ts: the same scan visits each `://`). Separators are `=`, `:`,
 * `:=` and `=>` (not `==`, `!=`, `<=`, `>=`, `+=`, `::`).
 */
export function findAssignedSecrets(text: string, out: PiiMatch[]): void {
  let doneUntil = 0;
  let eq = text.indexOf('=');
  let colon = text.indexOf(':');
  while (eq !== -1 || colon !== -1) {
    let i: number;
    if (colon === -1 || (eq !== -1 && eq < colon)) {
      i = eq;
      eq = text.indexOf('=', eq + 1);
    } else {
      i = colon;
      colon = text.indexOf(':', colon + 1);
    }
    if (i < doneUntil) continue;
    const end = assignmentAt(text, i, out);
    if (end > doneUntil) doneUntil = end;
  }
}

/**
 * Handles the separator at `i`: when a secret-naming key ends before it, reads the value, pushes
 * it to `out` when it passes the gate, and returns where the value ends (else -1). A `://` hands
 * over to secret-url.ts and returns where the URL's authority ends.
 */
function assignmentAt(text: string, i: number, out: PiiMatch[]): number {
  const c = text.charCodeAt(i);
  const next = codeAt(text, i + 1);
  const prev = codeAt(text, i - 1);
  let valueFrom = i + 1;
  if (c === EQ) {
    if (next === EQ || inSet(OPERATORS, prev)) return -1; // ==, !=, <=, +=, :=, …
    if (next === 62) valueFrom++; // =>
  } else {
    if (next === COLON || prev === COLON) return -1; // ::
    if (next === 47 && codeAt(text, i + 2) === 47) return urlPasswordAt(text, i, out); // ://
    if (next === EQ) valueFrom++; // :=
  }

  // The key: back over blanks, a closing quote (maybe escaped), then the key's characters.
  let k = i;
  for (let gap = 0; k > 0 && isBlank(text.charCodeAt(k - 1)); gap++) {
    if (gap === MAX_GAP) return -1;
    k--;
  }
  if (k > 0 && isQuote(text.charCodeAt(k - 1))) {
    k--;
    if (k > 0 && text.charCodeAt(k - 1) === 92) k--; // \" inside a JSON string
  }
  const keyEnd = k;
  if (
    keyEnd < 2 ||
    !ENDINGS.has(((text.charCodeAt(keyEnd - 2) | 32) << 8) | (text.charCodeAt(keyEnd - 1) | 32))
  ) {
    return -1; // cheap: no key word (or qualifier) ends with these two letters
  }
  while (k > 0 && isKeyChar(text.charCodeAt(k - 1))) {
    if (keyEnd - k === MAX_KEY) return -1;
    k--;
  }
  const before = codeAt(text, k - 1);
  if (before === 47 || before === 64) return -1; // inside a URL or a path: `//token:x@`, `/auth:`
  while (k < keyEnd && !isLetter(text.charCodeAt(k)) && text.charCodeAt(k) !== 95) k++; // `--password`, `.env`
  if (k < keyEnd && k > 0 && text.charCodeAt(k - 1) >= 48 && text.charCodeAt(k - 1) <= 57) return -1; // `5pw=`: data, not a key
  const minLength = secretKeyMinLength(text, k, keyEnd);
  if (minLength === 0) return -1;

  // The value: after blanks, an optional (escaped) opening quote and an HTTP auth scheme.
  let v = valueFrom;
  for (let gap = 0; v < text.length && isBlank(text.charCodeAt(v)); gap++) {
    if (gap === MAX_GAP) return v;
    v++;
  }
  let quote = -1;
  let escaped = false;
  if (codeAt(text, v) === 92 && isQuote(codeAt(text, v + 1))) {
    escaped = true;
    v++;
  }
  if (isQuote(codeAt(text, v))) quote = text.charCodeAt(v++);
  else if (escaped) return v;
  SCHEME.lastIndex = v;
  if (SCHEME.test(text)) v = SCHEME.lastIndex;

  let j = v;
  if (quote !== -1) {
    for (; ; j++) {
      if (j >= text.length || j - v > MAX_VALUE) return j;
      const ch = text.charCodeAt(j);
      if (
        escaped ? ch === 92 && codeAt(text, j + 1) === quote : ch === quote && text.charCodeAt(j - 1) !== 92
      )
        break;
      if (isSpace(ch)) return j; // prose or a passphrase: not a token-like value
    }
  } else {
    while (j < text.length && !inSet(ENDS_UNQUOTED, text.charCodeAt(j))) {
      if (j - v > MAX_VALUE) return j;
      j++;
    }
    const after = codeAt(text, j);
    if (after === 40 || after === 91) return j; // getPassword(…), tokens[i]: code
  }
  let valueEnd = j;
  if (quote === -1) while (valueEnd > v && '.:!?'.includes(text.charAt(valueEnd - 1))) valueEnd--;
  const value = text.slice(v, valueEnd);
  if (passesEntropyGate(value, minLength) && !containsRedaction(value)) {
    out.push({ type: 'secret', start: v, end: valueEnd });
  }
  return j;
}
