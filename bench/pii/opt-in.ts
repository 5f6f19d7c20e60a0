// The detector sets the benchmark scores: the default policy's (what a repository without a policy
// file masks) and, apart, the opt-in types it leaves off (src/core/pii/detectors/optional.ts), with
// the default policy's detectors on as well (a policy that opts in keeps them), so a value another
// detector claims first shows as "predicted as". Also valid values of each opt-in type (checksums
// computed here) and their carriers.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as registry from '../../src/core/pii/registry.js';
import type { Detector } from '../../src/core/pii/index.js';
import { DEFAULT_POLICY } from '../../src/core/policy/default.js';
import { sb } from './positives-contact.js';
import type { Template } from './positives-contact.js';
import type { Gen } from './values.js';

/**
 * The checksummed national-ID types the issue makes default-on. They are scored in the default
 * table whatever the policy says: while the default policy leaves them off, their recall is what it
 * really masks (about 0).
 */
export const DEFAULT_ID_TYPES = ['uk_nhs', 'in_aadhaar', 'es_nif', 'it_fiscal_code', 'au_tfn'] as const;

const OPTIONAL_TS = fileURLToPath(new URL('../../src/core/pii/detectors/optional.ts', import.meta.url));

/** The default policy's `pii:` block as the registry takes it. */
function defaultPii(): { detectors: readonly string[]; digit_run: number; regions: readonly string[] } {
  const pii = DEFAULT_POLICY.pii as {
    detectors: readonly string[];
    digit_run: number;
    regions: readonly string[];
  };
  return { detectors: pii.detectors, digit_run: pii.digit_run, regions: pii.regions };
}

export interface DefaultSet {
  /** The detectors the default policy enables, as the product builds them for masking. */
  detectors: Detector[];
  /** The types the default policy lists. */
  policyTypes: string[];
  /** The types scored in the default table: the policy's plus DEFAULT_ID_TYPES. */
  types: string[];
  /** DEFAULT_ID_TYPES the default policy does not enable (scored anyway: their recall is ~0). */
  notEnabled: string[];
  /** When some are not enabled: the default policy's detectors plus them (a preview), else undefined. */
  withIds: Detector[] | undefined;
}

/** `createDetectors(detectorConfig(DEFAULT_POLICY.pii, []))`: what the default policy masks with. */
export function loadDefaultSet(): DefaultSet {
  const pii = defaultPii();
  const detectors = registry.createDetectors(registry.detectorConfig(pii, []));
  const policyTypes = [...new Set(pii.detectors)];
  const enabled = new Set(detectors.map((d) => d.type));
  const notEnabled = DEFAULT_ID_TYPES.filter((t) => !enabled.has(t));
  let withIds: Detector[] | undefined;
  if (notEnabled.length > 0) {
    try {
      withIds = registry.createDetectors(
        registry.detectorConfig({ ...pii, detectors: [...pii.detectors, ...notEnabled] }, []),
      );
    } catch {
      withIds = undefined; // the registry does not know them: no preview
    }
  }
  return {
    detectors,
    policyTypes,
    types: [...new Set([...policyTypes, ...DEFAULT_ID_TYPES])],
    notEnabled,
    withIds,
  };
}

export type OptIn = { types: string[]; detectors: Detector[]; how: string } | { missing: string };

function isDetector(v: unknown): v is Detector {
  return typeof v === 'object' && v !== null && typeof (v as Detector).find === 'function';
}

function toDetector(v: unknown): Detector | undefined {
  if (isDetector(v)) return v;
  if (typeof v === 'function') {
    const made: unknown = (v as () => unknown)();
    if (isDetector(made)) return made;
  }
  return undefined;
}

/**
 * The opt-in types outside the default table (the default policy's detectors on as well), or why
 * they are not scored.
 */
export async function loadOptIn(defaults: DefaultSet): Promise<OptIn> {
  if (!existsSync(OPTIONAL_TS)) return { missing: 'src/core/pii/detectors/optional.ts does not exist yet' };
  const specifier = pathToFileURL(OPTIONAL_TS).href;
  let mod: Record<string, unknown>;
  try {
    mod = (await import(specifier)) as Record<string, unknown>;
  } catch (e) {
    return { missing: `optional.ts failed to load (${(e as Error).message.split('\n')[0]})` };
  }
  const all = Array.isArray(mod.OPTIONAL_PII_TYPES) ? mod.OPTIONAL_PII_TYPES.map(String) : [];
  const types = all.filter((t) => !defaults.types.includes(t));
  if (types.length === 0) return { missing: 'no opt-in type outside the default table' };
  // The product path first: the registry building them by name.
  try {
    const pii = defaultPii();
    const detectors = registry.createDetectors(
      registry.detectorConfig({ ...pii, detectors: [...pii.detectors, ...types] }, []),
    );
    if (types.every((t) => detectors.some((d) => d.type === t)))
      return { types, detectors, how: 'createDetectors' };
  } catch {
    // the registry does not know them yet: build them from the module's own export
  }
  const raw = mod.OPTIONAL_DETECTORS;
  const entries: unknown[] = Array.isArray(raw)
    ? raw
    : typeof raw === 'object' && raw !== null
      ? Object.entries(raw as Record<string, unknown>)
          .filter(([t]) => types.includes(t))
          .map(([, v]) => v)
      : [];
  const optional = entries.map(toDetector).filter((d): d is Detector => d !== undefined);
  if (optional.length === 0) return { missing: 'optional.ts exports no usable OPTIONAL_DETECTORS' };
  return { types, detectors: [...defaults.detectors, ...optional], how: 'OPTIONAL_DETECTORS' };
}

// --- checksums ---
const VD = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];
const VP = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];
const VINV = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

export function verhoeffDigit(body: string): string {
  let c = 0;
  const rev = [...body].reverse();
  rev.forEach((ch, i) => {
    c = VD[c]![VP[(i + 1) % 8]![Number(ch)]!]!;
  });
  return String(VINV[c]);
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function base58check(payload: Buffer): string {
  const sha = (b: Buffer) => createHash('sha256').update(b).digest();
  const full = Buffer.concat([payload, sha(sha(payload)).subarray(0, 4)]);
  let n = BigInt(`0x${full.toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = B58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const byte of full) {
    if (byte !== 0) break;
    out = `1${out}`;
  }
  return out;
}

const BECH32 = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ gen[i]!) >>> 0;
  }
  return chk;
}

/** A P2WPKH (`bc1q…`) address of 20 bytes. */
function bech32Address(program: Buffer): string {
  const words = [0];
  let acc = 0;
  let bits = 0;
  for (const byte of program) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      words.push((acc >>> bits) & 31);
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31);
  const hrp = [...'bc'].map((c) => c.charCodeAt(0));
  const expanded = [...hrp.map((c) => c >> 5), 0, ...hrp.map((c) => c & 31)];
  const mod = bech32Polymod([...expanded, ...words, 0, 0, 0, 0, 0, 0]) ^ 1;
  const checksum = Array.from({ length: 6 }, (_, i) => (mod >>> (5 * (5 - i))) & 31);
  return `bc1${[...words, ...checksum].map((w) => BECH32[w]).join('')}`;
}

// Values of the characters in odd positions; digits 0–9 take those of A–J.
const IT_ODD = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21, 2, 4, 18, 20, 11, 3, 6, 8, 12, 14, 16, 10, 22, 25, 24, 23];

function itCheck(body: string): string {
  let sum = 0;
  [...body].forEach((ch, i) => {
    const v = /\d/.test(ch) ? Number(ch) : ch.charCodeAt(0) - 65;
    sum += i % 2 === 0 ? (IT_ODD[v] as number) : v;
  });
  return String.fromCharCode(65 + (sum % 26));
}

// --- values ---
const UP = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export const OPT_VALUES: Record<string, (g: Gen) => string> = {
  mac: (g) => {
    const bytes = Array.from({ length: 6 }, () => g.hex(2));
    const mac = bytes.join(g.pick([':', ':', '-']));
    return g.chance(0.3) ? mac.toUpperCase() : mac;
  },
  crypto_wallet: (g) => {
    const body = Buffer.from(g.hex(40), 'hex');
    const k = g.int(0, 3);
    if (k === 0) return base58check(Buffer.concat([Buffer.from([0]), body]));
    if (k === 1) return base58check(Buffer.concat([Buffer.from([5]), body]));
    if (k === 2) return bech32Address(body);
    return `0x${g.hex(40)}`;
  },
  url_credentials: (g) => g.password(),
  uk_nino: (g) => {
    let prefix: string;
    do prefix = g.chars('ABCEGHJKLMNOPRSTWXYZ', 1) + g.chars('ABCEGHJKLMNPRSTWXYZ', 1);
    while (['BG', 'GB', 'KN', 'NK', 'NT', 'TN', 'ZZ'].includes(prefix));
    const d = g.digits(6);
    const suffix = g.chars('ABCD', 1);
    return g.chance(0.5)
      ? `${prefix}${d}${suffix}`
      : `${prefix} ${d.slice(0, 2)} ${d.slice(2, 4)} ${d.slice(4)} ${suffix}`;
  },
  uk_nhs: (g) => {
    for (;;) {
      const d = g.digits(9);
      const sum = [...d].reduce((s, ch, i) => s + Number(ch) * (10 - i), 0);
      const check = (11 - (sum % 11)) % 11;
      if (check === 10) continue;
      const v = d + String(check);
      return g.chance(0.6) ? `${v.slice(0, 3)} ${v.slice(3, 6)} ${v.slice(6)}` : v;
    }
  },
  us_itin: (g) => {
    const group = g.pick([
      ...Array.from({ length: 16 }, (_, i) => 50 + i),
      ...Array.from({ length: 19 }, (_, i) => 70 + i),
      90,
      91,
      92,
      94,
      95,
      96,
      97,
      98,
      99,
    ]);
    return `9${g.digits(2)}-${group}-${g.digits(4)}`;
  },
  us_aba_routing: (g) => {
    const head = String(
      g.pick([
        ...Array.from({ length: 12 }, (_, i) => i + 1),
        ...Array.from({ length: 12 }, (_, i) => i + 21),
        ...Array.from({ length: 12 }, (_, i) => i + 61),
        80,
      ]),
    ).padStart(2, '0');
    const d = [...(head + g.digits(6))].map(Number);
    const s = 3 * (d[0]! + d[3]! + d[6]!) + 7 * (d[1]! + d[4]! + d[7]!) + (d[2]! + d[5]!);
    return d.join('') + String((10 - (s % 10)) % 10);
  },
  in_pan: (g) =>
    `${g.chars(UP, 3)}${g.chars('PCHFATBLJG', 1)}${g.chars(UP, 1)}${g.digits(4)}${g.chars(UP, 1)}`,
  in_aadhaar: (g) => {
    const body = String(g.int(2, 9)) + g.digits(10);
    const v = body + verhoeffDigit(body);
    return g.chance(0.7) ? `${v.slice(0, 4)} ${v.slice(4, 8)} ${v.slice(8)}` : v;
  },
  es_nif: (g) => {
    const letters = 'TRWAGMYFPDXBNJZSQVHLCKE';
    if (g.chance(0.7)) {
      const n = g.digits(8);
      return n + letters[Number(n) % 23];
    }
    const lead = g.int(0, 2);
    const n = g.digits(7);
    return 'XYZ'[lead]! + n + letters[Number(`${lead}${n}`) % 23];
  },
  it_fiscal_code: (g) => {
    const month = g.chars('ABCDEHLMPRST', 1);
    const day = String(g.int(1, 28) + (g.chance(0.5) ? 40 : 0)).padStart(2, '0');
    const body = `${g.chars(UP, 6)}${g.digits(2)}${month}${day}${g.chars('ABCDEFGHILM', 1)}${g.digits(3)}`;
    return body + itCheck(body);
  },
  au_tfn: (g) => {
    const w = [1, 4, 3, 7, 5, 8, 6, 9];
    for (;;) {
      const d = String(g.int(1, 9)) + g.digits(7);
      const s = [...d].reduce((acc, ch, i) => acc + Number(ch) * w[i]!, 0) % 11;
      if (s === 10) continue;
      const v = d + String(s);
      return g.chance(0.6) ? `${v.slice(0, 3)} ${v.slice(3, 6)} ${v.slice(6)}` : v;
    }
  },
  passport: (g) =>
    g.pick([
      g.number(9),
      `${g.chars(UP, 1)}${g.digits(8)}`,
      `C${g.chars('CFGHJKLMNPRTVWXYZ0123456789', 8)}`,
      `${g.chars(UP, 1)}${g.digits(7)}`,
    ]),
};

// What people write before each value, and the JSON key a tool output names it with.
const OPT_CONTEXT: Record<string, { words: string[]; key: string }> = {
  mac: { words: ['MAC address', 'MAC', 'hwaddr'], key: 'mac_address' },
  crypto_wallet: { words: ['wallet', 'send the refund to wallet', 'deposit address'], key: 'wallet_address' },
  url_credentials: { words: [], key: 'repository' },
  uk_nino: { words: ['National Insurance number', 'NI number:', 'NINO'], key: 'nino' },
  uk_nhs: { words: ['NHS number', 'NHS no.', 'NHS number:'], key: 'nhs_number' },
  us_itin: { words: ['ITIN', 'ITIN:', 'taxpayer ID (ITIN)'], key: 'itin' },
  us_aba_routing: { words: ['routing number', 'ABA routing', 'routing no.'], key: 'routing_number' },
  in_pan: { words: ['PAN', 'PAN card', 'PAN:'], key: 'pan' },
  in_aadhaar: { words: ['Aadhaar', 'Aadhaar number', 'Aadhaar no.'], key: 'aadhaar' },
  es_nif: { words: ['DNI', 'NIF', 'NIE:'], key: 'nif' },
  it_fiscal_code: { words: ['codice fiscale', 'CF:', 'fiscal code'], key: 'codice_fiscale' },
  au_tfn: { words: ['TFN', 'tax file number', 'TFN:'], key: 'tfn' },
  passport: { words: ['passport no.', 'passport number', 'Passport:'], key: 'passport_number' },
};

/** Three carriers per type: prose after its context word, a JSON tool output, a log line. */
export function optInTemplates(type: string): Template[] {
  const value = OPT_VALUES[type];
  const ctx = OPT_CONTEXT[type];
  if (!value || !ctx) return [];
  if (type === 'url_credentials') {
    // The detector masks a credential query parameter's value only (a userinfo password is the
    // default secret detector's).
    return [
      (g) => {
        const b = sb('url_credentials/curl', 'code');
        return b.text(
          `$ curl -s "https://api.${g.domain()}/v2/${g.word()}?api_key=${b.s(type, g.b64url(32))}"`,
        );
      },
      (g) => {
        const b = sb('url_credentials/json', 'json');
        return b.json({
          download_url: `https://${g.word()}.s3.amazonaws.com/${g.word()}.csv?X-Amz-Expires=900&X-Amz-Signature=${b.s(type, g.b64url(32))}`,
          expires_in: 900,
        });
      },
      (g) => {
        const b = sb('url_credentials/webhook-log', 'log');
        return b.text(
          `${g.iso()} INFO webhook: POST https://hooks.${g.domain()}/in?token=${b.s(type, g.b64url(32))} 202`,
        );
      },
      (g) => {
        const b = sb('url_credentials/query-param', 'log');
        const name = g.pick(['access_token', 'api_key', 'token', 'sig', 'client_secret']);
        return b.text(`GET /v1/export?format=csv&${name}=${b.s(type, g.b64url(32))} 200 ${g.int(1, 900)}ms`);
      },
    ];
  }
  return [
    (g) => {
      const b = sb(`${type}/prose`, 'prose');
      return b.text(
        `Updated the record for ${g.name()}: ${g.pick(ctx.words)} ${b.s(type, value(g))}, checked on ${g.iso().slice(0, 10)}.`,
      );
    },
    (g) => {
      const b = sb(`${type}/json`, 'json');
      return b.json({ id: g.int(1, 99999), name: g.name(), [ctx.key]: b.s(type, value(g)), verified: true });
    },
    (g) => {
      const b = sb(`${type}/log`, 'log');
      return b.text(
        `${g.iso()} INFO kyc: ${ctx.key}=${b.s(type, value(g))} accepted for ${g.f.string.uuid()}`,
      );
    },
  ];
}
