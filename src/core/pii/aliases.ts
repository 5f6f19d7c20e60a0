// PII strategies (DESIGN §3 `pii.strategy`, issue 29): what a found value becomes.
// - numbered: `[EMAIL_1]`, `[EMAIL_2]`: one number per distinct value and type, in order of first
//   occurrence (artifact order, then position; tool arguments included), so two people stay two
//   and a tool call can name the one it means;
// - redact: one text per type, `[REDACTED_EMAIL]` (the values are gone, and so is who is who);
// - hash: a short keyed hash (HMAC-SHA256 with a key the host gives), the same in every transcript
//   made with that key;
// - block: masked as redact, and a call whose context holds PII is refused.
// Pure: the key is an input; SHA-256 is the core's own (crypto-wallet.ts), as src/core may not
// import node:crypto.
import { sha256 } from './detectors/crypto-wallet.js';
import {
  HASH_ALPHABET,
  HASH_CHARS,
  HASH_PLACEHOLDER,
  NUMBER_PLACEHOLDER,
  isPerValue,
  renderTemplate,
} from './template.js';

export const PII_STRATEGIES = ['numbered', 'redact', 'hash', 'block'] as const;
export type PiiStrategy = (typeof PII_STRATEGIES)[number];

/** The strategy of a policy that names none. */
export const DEFAULT_PII_STRATEGY: PiiStrategy = 'numbered';

/** The replacement of each strategy when the policy sets no `pii.replacement`. */
export const DEFAULT_TEMPLATES: Readonly<Record<PiiStrategy, string>> = {
  numbered: '[{TYPE}_{N}]',
  redact: '[REDACTED_{TYPE}]',
  hash: '[{TYPE}_{HASH}]',
  block: '[REDACTED_{TYPE}]',
};

/** The environment variable the CLI and the Action read the hash key from. */
export const PII_KEY_ENV = 'CONTEXT_STABILITY_PII_KEY';

/**
 * Credentials: masked like any type, but never restorable (a host restores a person's address for
 * the tool that needs it, never a token the model could then use or repeat).
 */
export const SECRET_TYPES: ReadonlySet<string> = new Set(['secret', 'url_credentials']);

export function isSecretType(type: string): boolean {
  return SECRET_TYPES.has(type);
}

/**
 * The effective strategy of a policy's `pii:` block: the one it names; else the one its replacement
 * implies (`{HASH}` hash, `{N}` numbered, a fixed text such as `[REDACTED_{TYPE}]` redact, so a
 * policy written before strategies existed masks as it did); else numbered.
 */
export function piiStrategyOf(pii: {
  readonly strategy?: PiiStrategy | undefined;
  readonly replacement?: string | undefined;
}): PiiStrategy {
  if (pii.strategy !== undefined) return pii.strategy;
  if (pii.replacement === undefined) return DEFAULT_PII_STRATEGY;
  return impliedStrategy(pii.replacement);
}

/** The strategy a replacement template implies when the policy names none. */
export function impliedStrategy(template: string): PiiStrategy {
  if (template.includes(HASH_PLACEHOLDER)) return 'hash';
  if (template.includes(NUMBER_PLACEHOLDER)) return 'numbered';
  return 'redact';
}

const SEPARATORS = /[\s\-.()/]/g;

/**
 * The value as numbering and hashing compare it: an address in any case, a phone, card, SSN or
 * IBAN with or without its spaces, dashes, dots and parentheses are one value; anything else is
 * compared exactly.
 */
export function normalizeValue(type: string, value: string): string {
  switch (type) {
    case 'email':
      // `jane%40example.com` in a query string is the address `jane@example.com`.
      return value.replace(/%40/g, '@').toLowerCase();
    case 'phone':
    case 'credit_card':
    case 'ssn':
      return value.replace(SEPARATORS, '');
    case 'iban':
      return value.replace(SEPARATORS, '').toUpperCase();
    default:
      return value;
  }
}

const BLOCK = 64;

/** HMAC-SHA256 (RFC 2104) of `message` under `key`, both UTF-8. */
export function hmacSha256(key: string, message: string): Uint8Array {
  const enc = new TextEncoder();
  let k: Uint8Array = enc.encode(key);
  if (k.length > BLOCK) k = sha256(k);
  const pad = (byte: number): Uint8Array => {
    const out = new Uint8Array(BLOCK).fill(byte);
    for (let i = 0; i < k.length; i++) out[i] = (k[i] as number) ^ byte;
    return out;
  };
  const m = enc.encode(message);
  const inner = new Uint8Array(BLOCK + m.length);
  inner.set(pad(0x36));
  inner.set(m, BLOCK);
  const innerHash = sha256(inner);
  const outer = new Uint8Array(BLOCK + innerHash.length);
  outer.set(pad(0x5c));
  outer.set(innerHash, BLOCK);
  return sha256(outer);
}

/** The `{HASH}` of a value: its first 40 HMAC bits in base32 (8 characters, no padding). */
export function keyedHash(key: string, type: string, value: string): string {
  const mac = hmacSha256(key, `${type}\u0000${normalizeValue(type, value)}`);
  let bits = 0;
  let acc = 0;
  let out = '';
  for (let i = 0; out.length < HASH_CHARS;) {
    if (bits < 5) {
      acc = (acc << 8) | (mac[i++] as number);
      bits += 8;
    }
    bits -= 5;
    out += HASH_ALPHABET[(acc >>> bits) & 31];
    acc &= (1 << bits) - 1;
  }
  return out;
}

function hex(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += b.toString(16).padStart(2, '0');
  return s;
}

/**
 * The aliases of one transcript (or one agent session): the number of each value, per type, and
 * what each alias stands for. The originals are the restore map (host-side only: nothing here is
 * ever written out); secrets are numbered but never kept, not even as the numbering key, which is
 * their SHA-256.
 */
export class PiiAliases {
  private readonly numbers = new Map<string, number>();
  private readonly lastNumber = new Map<string, number>();
  private readonly originals = new Map<string, string>();

  /** The number of the value (1, 2, … per type, in order of first call). */
  numberOf(type: string, value: string): number {
    const norm = normalizeValue(type, value);
    const key = `${type}\u0000${isSecretType(type) ? hex(sha256(new TextEncoder().encode(norm))) : norm}`;
    let n = this.numbers.get(key);
    if (n === undefined) {
      n = (this.lastNumber.get(type) ?? 0) + 1;
      this.lastNumber.set(type, n);
      this.numbers.set(key, n);
      this.remember(type, String(n), value);
    }
    return n;
  }

  /** Keeps what the alias part (a number or hash) of `type` stands for; the first spelling wins. */
  remember(type: string, part: string, value: string): void {
    if (isSecretType(type)) return;
    const key = `${type.toUpperCase()}\u0000${part}`;
    if (!this.originals.has(key)) this.originals.set(key, value);
  }

  /** The value an alias stands for (`type` upper-case, as aliases write it); undefined for secrets. */
  original(type: string, part: string): string | undefined {
    return this.originals.get(`${type}\u0000${part}`);
  }

  /** Distinct values numbered so far (all types). */
  get size(): number {
    return this.numbers.size;
  }

  clear(): void {
    this.numbers.clear();
    this.lastNumber.clear();
    this.originals.clear();
  }
}

/** A found value's replacement text (mask.ts MaskOptions.alias). */
export type AliasOf = (type: string, value: string) => string;

/** Thrown when a template hashes values and no key was given; says what to set. */
export class PiiKeyMissingError extends Error {
  readonly code = 'pii_key_missing';
  constructor() {
    super(
      `pii.strategy is hash, which needs a key: set the environment variable ${PII_KEY_ENV} (CLI, Action) or the piiKey option (ContextStabilizer, stabilize()).`,
    );
    this.name = 'PiiKeyMissingError';
  }
}

export interface AliasSettings {
  /** The numbering table (a fresh one when absent). */
  aliases?: PiiAliases | undefined;
  /** The hash key; required by a `{HASH}` template. */
  key?: string | undefined;
}

/**
 * How found values are rendered under `template`: undefined for a fixed one (the template itself),
 * numbered for `{N}`, hashed for `{HASH}`. The template decides, so a policy built in code keeps
 * working whatever its strategy says; the policy schema keeps the two consistent.
 */
export function aliasOf(template: string, settings: AliasSettings = {}): AliasOf | undefined {
  if (!isPerValue(template)) return undefined;
  const table = settings.aliases ?? new PiiAliases();
  if (template.includes('{HASH}')) {
    const key = settings.key;
    return (type, value) => {
      if (key === undefined || key === '') throw new PiiKeyMissingError();
      const part = keyedHash(key, type, value);
      table.remember(type, part, value);
      return renderTemplate(template, type, part);
    };
  }
  return (type, value) => renderTemplate(template, type, String(table.numberOf(type, value)));
}
