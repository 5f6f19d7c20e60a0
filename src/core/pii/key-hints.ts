// What a JSON key says about its value: `"phone": 4155552671` is a phone number although no
// context word stands before the digits, and `"password": "hunter2"` is a secret whatever its shape.
// The value is then scanned with the key's types as a hint (Detector.find's second argument).
import type { TypeHint } from './types.js';

/** Words of a key that name a type; the key's words are lower-cased, split at `_`, `-`, `.`, spaces and camelCase. */
// prettier-ignore
const TYPE_WORDS: ReadonlyMap<string, string> = new Map([
  ...['phone', 'telephone', 'tel', 'mobile', 'cellphone', 'fax', 'msisdn', 'whatsapp'].map((w) => [w, 'phone'] as const),
  ...['email', 'mail', 'e-mail'].map((w) => [w, 'email'] as const),
  ...['ssn'].map((w) => [w, 'ssn'] as const),
  ...['card', 'cc', 'ccnum'].map((w) => [w, 'credit_card'] as const),
  ...['iban'].map((w) => [w, 'iban'] as const),
  ...['ip', 'ipv4', 'ipv6'].map((w) => [w, 'ip_address'] as const),
  ...['password', 'passwd', 'pwd', 'passphrase', 'secret', 'token', 'apikey', 'credential', 'credentials', 'authorization', 'bearer'].map((w) => [w, 'secret'] as const),
  ...['passport'].map((w) => [w, 'passport'] as const),
  ...['mac'].map((w) => [w, 'mac'] as const),
  ...['wallet'].map((w) => [w, 'crypto_wallet'] as const),
  ...['nino'].map((w) => [w, 'uk_nino'] as const),
  ...['nhs'].map((w) => [w, 'uk_nhs'] as const),
  ...['itin'].map((w) => [w, 'us_itin'] as const),
  ...['routing', 'aba'].map((w) => [w, 'us_aba_routing'] as const),
  ...['aadhaar', 'aadhar'].map((w) => [w, 'in_aadhaar'] as const),
  ...['nif', 'nie', 'dni'].map((w) => [w, 'es_nif'] as const),
  ...['tfn'].map((w) => [w, 'au_tfn'] as const),
]);

/** Two-word names (`api_key`, `social_security`, `fiscal_code`): joined without the separator. */
// prettier-ignore
const PAIRS: ReadonlyMap<string, string> = new Map([
  ['api key', 'secret'], ['access key', 'secret'], ['secret key', 'secret'], ['private key', 'secret'],
  ['signing key', 'secret'], ['client secret', 'secret'], ['social security', 'ssn'],
  ['credit card', 'credit_card'], ['card number', 'credit_card'], ['fiscal code', 'it_fiscal_code'],
  ['codice fiscale', 'it_fiscal_code'], ['tax file', 'au_tfn'], ['ip address', 'ip_address'], ['ip addr', 'ip_address'],
  ['remote addr', 'ip_address'],
]);

/**
 * A last word that makes the key about the value's kind, not the value: `token_count`,
 * `password_policy`, `phone_verified`, `email_template`, `card_type`.
 */
// prettier-ignore
const ABOUT = new Set([
  'count', 'counts', 'type', 'types', 'kind', 'length', 'len', 'size', 'limit', 'max', 'min', 'policy',
  'format', 'pattern', 'regex', 'field', 'label', 'placeholder', 'hint', 'name', 'names', 'enabled',
  'required', 'verified', 'valid', 'validated', 'confirmed', 'template', 'mode', 'usage', 'expiry',
  'expires', 'expiration', 'ttl', 'path', 'file', 'env', 'var', 'header', 'prefix', 'suffix', 'url',
  'endpoint', 'provider', 'brand', 'status', 'strength', 'rotation', 'version', 'scope',
  'scopes', 'family', 'country', 'region', 'locale', 'ext', 'extension',
]);

/** Last words that make the value an identifier: no type, but a card-shaped number is not a card. */
const IDENTIFIER = new Set(['id', 'ids', 'uuid', 'guid', 'uid']);
const IDENTIFIER_HINT: TypeHint = new Set(['identifier']);

/** Tokens that are cursors, not credentials: `next_page_token`, `continuation_token`. */
const NOT_SECRET_BEFORE_TOKEN = new Set(['page', 'next', 'continuation', 'sync', 'resume', 'cursor', 'prev']);

function wordsOf(key: string): string[] {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w.length > 0);
}

const cache = new Map<string, TypeHint | undefined>();
const CACHE_LIMIT = 4096;

function compute(key: string): TypeHint | undefined {
  if (key.length === 0 || key.length > 64) return undefined;
  const words = wordsOf(key);
  const last = words[words.length - 1];
  if (last === undefined || ABOUT.has(last)) return undefined;
  if (IDENTIFIER.has(last)) return IDENTIFIER_HINT;
  // The rightmost word (or pair) naming a type decides: `phone_number`, `billing_email`, `db_password`.
  for (let i = words.length - 1; i >= 0; i--) {
    const w = words[i] as string;
    const pair = i > 0 ? PAIRS.get(`${words[i - 1]} ${w}`) : undefined;
    if (pair) return new Set([pair]);
    const type = TYPE_WORDS.get(w);
    if (type === undefined) continue;
    if (w === 'token' && i > 0 && NOT_SECRET_BEFORE_TOKEN.has(words[i - 1] as string)) return undefined;
    return new Set([type]);
  }
  return undefined;
}

/** The types a JSON key names for its value, or undefined (most keys). */
export function hintOfKey(key: string | undefined): TypeHint | undefined {
  if (key === undefined) return undefined;
  if (cache.has(key)) return cache.get(key);
  const hint = compute(key);
  // A bounded memo of a pure function: the result never depends on what was cached.
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, hint);
  return hint;
}
