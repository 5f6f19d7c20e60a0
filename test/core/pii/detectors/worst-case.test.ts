// Issue 34: every detector stays linear in its input. For each detector and each worst-case shape
// (long runs of one character, many hits in one text, near misses, runs of prefixes), the time of
// one text of BIG characters is compared with the time of the same detector on the same amount of
// the same shape cut into PIECES texts: a linear detector takes about as long for both (measured
// 1 to 2.5), a quadratic one PIECES times longer for the long text. The bound (RATIO) leaves room
// for a noisy shared machine and is still over 10 times under a quadratic's ratio (PIECES / RATIO).
import { describe, expect, it } from 'vitest';
import { digitRunDetector } from '../../../../src/core/pii/detectors/digit-run.js';
import { OPTIONAL_DETECTORS, OPTIONAL_PII_TYPES } from '../../../../src/core/pii/detectors/optional.js';
import { defaultDetectors } from '../../../../src/core/pii/registry.js';
import type { Detector } from '../../../../src/core/pii/types.js';
import { body } from '../helpers.js';

const PIECES = 64;
const RATIO = 6;
const BIG = 200_000;
const PIECE = BIG / PIECES;
/** Below this a measurement is noise, and no quadratic rule finishes 200 KB this fast. */
const FLOOR_MS = 15;
const ROUNDS = 4;

/** `unit` repeated to `length` characters. */
function fill(unit: string, length: number): string {
  return unit.repeat(Math.ceil(length / unit.length)).slice(0, length);
}

/** CPU time of `run` in ms: time spent by the neighbours on a shared machine is not counted. */
function cpuMs(run: () => void): number {
  const t0 = process.cpuUsage();
  run();
  const used = process.cpuUsage(t0);
  return (used.user + used.system) / 1000;
}

/** The fastest of ROUNDS interleaved runs of each, after a warm-up of both (JIT tiers, caches). */
function fastestOfEach(a: () => void, b: () => void): [number, number] {
  a();
  b();
  let bestA = Infinity;
  let bestB = Infinity;
  for (let r = 0; r < ROUNDS; r++) {
    bestA = Math.min(bestA, cpuMs(a));
    bestB = Math.min(bestB, cpuMs(b));
  }
  return [bestA, bestB];
}

// Shapes every detector gets: runs of one character and of separators around digits.
const COMMON: [string, string][] = [
  ['letters', 'a'],
  ['digits', '9'],
  ['spaces', ' '],
  ['hyphens', '-'],
  ['dots', '.'],
  ['digit, hyphen', '9-'],
  ['digit, space', '1 '],
  ['digit, dot', '1.'],
  ['backslash n', '\\n'],
];

const GH = `ghp_${body(36)}`;

// Shapes aimed at one detector: its near misses, its prefixes, many of its hits.
const SPECIFIC: Record<string, [string, string][]> = {
  email: [
    ['many addresses', 'jane.doe@example.com '],
    ['at signs', '@'],
    ['local parts', 'a@'],
    ['numeric labels', 'x@1.'],
    ['bad first label, counters', 'x@-a.bb.0.'],
    ['encoded at signs', '%40'],
  ],
  phone: [
    ['many numbers', '+44 20 7946 0958, '],
    ['plus signs', '+'],
    ['digit groups', '+1 415 '],
    ['context then digits', 'phone 12 '],
  ],
  ssn: [
    ['many SSNs', '187-24-2083 '],
    ['near misses', '999-99-999'],
    ['context words and numbers', 'SSN 123456789 '],
    ['cues and numbers', 'id #123-45-6789 '],
  ],
  credit_card: [
    ['many cards', '4111 1111 1111 1111 '],
    ['digit groups', '4111 '],
    ['contiguous near misses', '41111111111111112'],
  ],
  iban: [
    ['many IBANs', 'DE89 3704 0044 0532 0130 00 '],
    ['country codes', 'DE89 '],
    ['letters and digits', 'DE89AB'],
  ],
  ip_address: [
    ['many addresses', '81.2.69.160 '],
    ['octets', '255.'],
    ['IPv6 groups', 'fe80:'],
    ['colons', ':'],
  ],
  secret: [
    ['many tokens in ids', `call_${GH} `],
    ['GitHub prefixes', 'ghp_'],
    ['OpenAI prefixes', 'sk-proj-'],
    ['id prefixes', 'c-'],
    ['JWT prefixes', 'eyJ'],
    ['assignments', 'password='],
    ['underscores', '_'],
  ],
  uk_nhs: [
    ['digit groups', '943 476 '],
    ['many near misses', '9434765918 '],
  ],
  in_aadhaar: [
    ['digit groups', '2345 '],
    ['many near misses', '2345 6789 0123 '],
  ],
  es_nif: [
    ['digits and letters', '12345678Z'],
    ['many near misses', 'X1234567L '],
  ],
  it_fiscal_code: [
    ['letters', 'RSSMRA'],
    ['many near misses', 'RSSMRA85T10A562S '],
  ],
  au_tfn: [
    ['digit groups', '123 '],
    ['many near misses', '123 456 782 '],
  ],
  mac: [
    ['pairs', '00:'],
    ['hyphen pairs', '0a-'],
  ],
  crypto_wallet: [
    ['base58', '1A'],
    ['hex', '0x'],
    ['bech32', 'bc1q'],
  ],
  url_credentials: [
    ['schemes', 'a://'],
    ['userinfo', 'a://u:p@'],
    ['colons', 'x:'],
  ],
  us_itin: [
    ['near misses', '999-99-999'],
    ['many ITINs', '912-70-1234 '],
  ],
  us_aba_routing: [
    ['nine digits', '123456789 '],
    ['context words', 'routing '],
  ],
  uk_nino: [
    ['letters and digits', 'AB123456'],
    ['many ninos', 'AB 12 34 56 C '],
  ],
  in_pan: [
    ['letters', 'ABCDE'],
    ['many PANs', 'ABCDE1234F '],
  ],
  passport: [
    ['context words', 'passport '],
    ['letters and digits', 'X1234567'],
  ],
  digit_run: [],
};

const detectors: Detector[] = [
  ...defaultDetectors(),
  ...OPTIONAL_PII_TYPES.filter((t) => !defaultDetectors().some((d) => d.type === t)).map((t) =>
    OPTIONAL_DETECTORS[t](),
  ),
  digitRunDetector(3),
];

const cases = detectors.flatMap((d) =>
  [...COMMON, ...(SPECIFIC[d.type] ?? [])].map(([name, unit]): [string, string, Detector, string] => [
    d.type,
    name,
    d,
    unit,
  ]),
);

describe('every detector is linear in its input (issue 34)', () => {
  it('has worst-case shapes for every detector', () => {
    expect(detectors.map((d) => d.type).filter((t) => SPECIFIC[t] === undefined)).toEqual([]);
  });

  it.each(cases)('%s on %s', (_type, _name, detector, unit) => {
    const big = fill(unit, BIG);
    const piece = fill(unit, PIECE);
    const [whole, pieces] = fastestOfEach(
      () => detector.find(big),
      () => {
        for (let i = 0; i < PIECES; i++) detector.find(piece);
      },
    );
    if (whole > FLOOR_MS) expect(whole / pieces).toBeLessThan(RATIO);
  });
});
