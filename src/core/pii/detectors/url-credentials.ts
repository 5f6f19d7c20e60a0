// Credentials carried in URLs, masked as the VALUE only so the URL stays readable: the value of a
// query (or form-encoded) parameter whose NAME says it holds a credential:
//   token, secret, password/passwd/pwd/pass, signature/sig, auth/authorization, credential, jwt,
//   and API/access/secret/private/… keys (`?access_token=…`, `&api_key=…`, `X-Amz-Signature=…`,
//   `X-Amz-Security-Token=…`, `sig=…`, `client_secret=…`, Google's `key=…`). The name decides by
//   its last word, so `token_type=bearer`, `max_tokens=256` and `authuser=0` are not credentials.
//
// Deliberately not matched:
// - the password of a URL's userinfo (`postgres://app:s3cret@db/x`): the default `secret`
//   detector masks it (secret-url.ts), with or without this one;
// - OAuth `code=` and `state=` (one-time, useless once exchanged, and `code` names everything);
// - pagination tokens (`page_token`, `pageToken`, `next_token`, `continuation_token`,
//   `sync_token`, `cursor`): opaque list positions every API returns, not secrets;
// - session ids (`sid=`, `session_id=`): the name says nothing about a credential often enough
//   to be worth the noise; enable a user rule for an application's own cookie names;
// - placeholders: `{token}`, `{{token}}`, `<token>`, `${TOKEN}`, `$TOKEN`, `%7Btoken%7D`, `xxx`,
//   `***`, `…`, `[REDACTED]`, `YOUR_API_KEY`, `your-token-here`, and values that are just the
//   parameter's own word (`password`, `secret`, `token`, `redacted`, `changeme`).
//
// Query parameters are recognised after `?`, `&` or `&amp;` anywhere, not only inside a
// `scheme://` URL: relative URLs in logs (`GET /cb?token=…`) and form bodies
// (`grant_type=password&password=…`) carry the same secrets.

import type { Detector, PiiMatch } from '../types.js';
import { forEachMatch, isAsciiLetter } from './scan.js';

const TYPE = 'url_credentials';

// ---- placeholders -------------------------------------------------------------------------

const PLACEHOLDER_SHAPES: readonly RegExp[] = [
  /^\{+[^{}]*\}+$/, // {token}, {{token}}
  /^\$\{[^{}]*\}$/, // ${TOKEN}
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, // $TOKEN
  /^<[^<>]*>$/, // <token>
  /^\[[^[\]]*\]$/, // [REDACTED]
  /^([xX*•#.…_-])\1*$/u, // xxx, ***, •••, ...
  /^(?:your|my)[_-]/i, // YOUR_API_KEY, your-token-here
  /[_-]here$/i, // token_here, paste-key-here
];

// prettier-ignore
const PLACEHOLDER_WORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'secret', 'token', 'key', 'apikey', 'api_key', 'redacted',
  'masked', 'hidden', 'removed', 'placeholder', 'changeme', 'example', 'dummy', 'null', 'undefined',
  'none', 'xxx',
]);

function decodeBraces(value: string): string {
  return value
    .replace(/%7B/gi, '{')
    .replace(/%7D/gi, '}')
    .replace(/%24/g, '$')
    .replace(/%3C/gi, '<')
    .replace(/%3E/gi, '>')
    .replace(/%5B/gi, '[')
    .replace(/%5D/gi, ']');
}

/** Values that stand for a credential instead of being one. */
export function isPlaceholder(raw: string): boolean {
  const value = decodeBraces(raw);
  if (value === '') return true;
  if (PLACEHOLDER_WORDS.has(value.toLowerCase())) return true;
  return PLACEHOLDER_SHAPES.some((re) => re.test(value));
}

// ---- parameter names ----------------------------------------------------------------------

/** Name endings (separators removed, lower case) that say the value is a credential. */
// prettier-ignore
const SECRET_SUFFIXES = [
  'token', 'secret', 'password', 'passwd', 'passphrase', 'signature', 'credential', 'credentials',
  'apikey', 'accesskey', 'secretkey', 'privatekey', 'authkey', 'appkey', 'clientkey', 'signingkey',
  'masterkey', 'sharedkey', 'accountkey', 'subscriptionkey', 'sessionkey', 'licensekey', 'jwt',
];
/** Credential-looking endings that are list positions, not secrets. */
const NOT_SECRET_SUFFIXES = ['pagetoken', 'nexttoken', 'continuationtoken', 'synctoken', 'cursortoken'];
/** Whole last words that say the value is a credential. */
const SECRET_LAST_WORDS = new Set(['key', 'sig', 'auth', 'authorization', 'pwd', 'pw', 'pass']);

function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Cheap pre-filter: every credential name contains one of these (most names contain none). */
const MAYBE_SECRET = /tok|sec|pas|pw|sig|key|aut|cred|jwt/i;

/** Whether a query parameter `name` says its value is a credential. */
export function isCredentialParam(name: string): boolean {
  if (!MAYBE_SECRET.test(name)) return false;
  const parts = words(name);
  const last = parts[parts.length - 1];
  if (last === undefined) return false;
  const flat = parts.join('');
  if (NOT_SECRET_SUFFIXES.some((s) => flat.endsWith(s))) return false;
  // `key` alone is Google's API key parameter; `sort_key`, `cache_key` are not secrets, so a
  // qualified key needs a qualifier the suffix list knows (`api_key`, `access_key`, …).
  if (last === 'key') return parts.length === 1 || SECRET_SUFFIXES.some((s) => flat.endsWith(s));
  return SECRET_LAST_WORDS.has(last) || SECRET_SUFFIXES.some((s) => flat.endsWith(s));
}

// ---- scanning -----------------------------------------------------------------------------

/** Characters of a query value: RFC 3986 query characters minus the delimiters `& ; # ( ) '`. */
function isValueChar(code: number): boolean {
  if (isAsciiLetter(code) || (code >= 48 && code <= 57)) return true;
  // - . _ ~ % ! $ * + , = : @ / ? { }
  return '-._~%!$*+,=:@/?{}'.includes(String.fromCharCode(code));
}

/** Trailing punctuation that ends a sentence rather than the value. */
const TRAILING = '.,:!?';

const PARAM = /(?:&amp;|[?&])([A-Za-z0-9_.[\]-]{1,64})=/g;

function findQueryCredentials(text: string, out: PiiMatch[]): void {
  forEachMatch(PARAM, text, 0, (m) => {
    if (!isCredentialParam(m[1] ?? '')) return;
    const start = m.index + m[0].length;
    let end = start;
    while (end < text.length && isValueChar(text.charCodeAt(end))) end++;
    // Scanning resumes after the value: a parameter-like string inside it is part of it.
    PARAM.lastIndex = end;
    while (end > start && TRAILING.includes(text.charAt(end - 1))) end--;
    if (!isPlaceholder(text.slice(start, end))) out.push({ type: TYPE, start, end });
  });
}

export function findUrlCredentials(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  findQueryCredentials(text, out);
  return out;
}

export function urlCredentialsDetector(): Detector {
  return { type: TYPE, find: findUrlCredentials };
}
