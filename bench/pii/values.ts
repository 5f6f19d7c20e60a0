// Seeded generators of PII values for the default detectors, each valid by construction: phone
// numbers that libphonenumber (max metadata) calls valid for their country, SSNs in the issuable
// ranges, Luhn-valid cards, mod-97-valid IBANs, provider tokens of the documented shapes.
// Also the random helpers every other generator of the benchmark uses.

import {
  Faker,
  de,
  en,
  en_AU,
  en_GB,
  en_IN,
  en_US,
  es,
  fr,
  it,
  ja,
  nl,
  pl,
  pt_BR,
  base,
} from '@faker-js/faker';
import { parsePhoneNumberFromString } from 'libphonenumber-js/max';
import type { CountryCode, PhoneNumber } from 'libphonenumber-js/max';
import type { LocaleDefinition } from '@faker-js/faker';

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const B64URL = `${ALNUM}-_`;
const B64 = `${ALNUM}+/`;

export const PHONE_COUNTRIES = [
  'US',
  'GB',
  'FR',
  'DE',
  'IN',
  'BR',
  'JP',
  'ES',
  'IT',
  'NL',
  'AU',
  'PL',
] as const;
export type PhoneCountry = (typeof PHONE_COUNTRIES)[number];

const LOCALES: Record<PhoneCountry, LocaleDefinition[]> = {
  US: [en_US, en, base],
  GB: [en_GB, en, base],
  FR: [fr, en, base],
  DE: [de, en, base],
  IN: [en_IN, en, base],
  BR: [pt_BR, en, base],
  JP: [ja, en, base],
  ES: [es, en, base],
  IT: [it, en, base],
  NL: [nl, en, base],
  AU: [en_AU, en, base],
  PL: [pl, en, base],
};

export type IbanStyle = 'compact' | 'space' | 'dash';

const IBAN_COUNTRIES = [
  'DE',
  'FR',
  'GB',
  'NL',
  'ES',
  'IT',
  'BE',
  'CH',
  'AT',
  'PL',
  'SE',
  'IE',
  'PT',
  'AL',
  'NO',
  'DK',
  'FI',
  'CZ',
  'HU',
  'RO',
  'HR',
  'LT',
  'TR',
];

export interface Phone {
  country: PhoneCountry;
  national: string;
  international: string;
  e164: string;
}

/** Regions whose national numbers the benchmark writes without a country code (all in the default policy's regions). */
export const NATIONAL_REGIONS = ['JP', 'CN', 'IL', 'GB', 'DE', 'FR', 'IN', 'BR', 'AU', 'KR', 'MX'] as const;
export type NationalRegion = (typeof NATIONAL_REGIONS)[number];

// Valid national significant numbers (mobile and fixed line) whose tail the generator redraws until
// libphonenumber calls the result valid for the region.
const NATIONAL_SEEDS: Record<NationalRegion, readonly string[]> = {
  JP: ['9012345678', '8012345678', '7012345678', '312345678', '662345678'],
  CN: ['13812345678', '15912345678', '18612345678', '1012345678', '2112345678'],
  IL: ['502345678', '541234567', '97625400', '36123456', '21234567'],
  GB: ['7400123456', '7700123456', '2079460123', '1614960000'],
  DE: ['15123456789', '17612345678', '3012345678', '8912345678'],
  FR: ['612345678', '712345678', '123456789', '478123456'],
  IN: ['9876543210', '8123456789', '7012345678', '1123456789'],
  BR: ['11961234567', '21987654321', '1123456789'],
  AU: ['412345678', '412987654', '212345678', '398765432'],
  KR: ['1020000000', '1098765432', '21234567'],
  MX: ['5512345678', '2221234567', '3312345678'],
};

/** Area codes of real NANP regions, for the fictional 555-01xx numbers. */
const NANP_AREAS = [
  '201',
  '202',
  '206',
  '212',
  '213',
  '305',
  '312',
  '404',
  '415',
  '469',
  '503',
  '512',
  '617',
  '646',
  '702',
  '718',
  '805',
  '917',
];

/** A national number as written in its region, and the region. */
export interface NationalPhone {
  region: NationalRegion;
  /** libphonenumber's formatNational (`090-1234-5678`, `138 1234 5678`, `09-762-5400`). */
  national: string;
  /** The national digits without separators, trunk prefix kept (`09012345678`, `13812345678`). */
  digits: string;
  /** Another way people write it (`09-7625400`, `98765 43210`), or the national format. */
  written: string;
}

/** All the randomness of one benchmark run: one seed, one faker per locale. */
export class Gen {
  readonly f: Faker;
  private readonly locales = new Map<PhoneCountry, Faker>();

  constructor(seed: number) {
    this.f = new Faker({ locale: [en_US, en, base] });
    this.f.seed(seed);
    PHONE_COUNTRIES.forEach((c, i) => {
      const lf = new Faker({ locale: LOCALES[c] });
      lf.seed(seed * 31 + i + 1);
      this.locales.set(c, lf);
    });
  }

  locale(country: PhoneCountry): Faker {
    return this.locales.get(country) ?? this.f;
  }

  int(min: number, max: number): number {
    return this.f.number.int({ min, max });
  }

  pick<T>(items: readonly T[]): T {
    return this.f.helpers.arrayElement(items);
  }

  chance(p: number): boolean {
    return this.f.number.float({ min: 0, max: 1 }) < p;
  }

  chars(alphabet: string, n: number): string {
    let out = '';
    for (let i = 0; i < n; i++) out += alphabet[this.int(0, alphabet.length - 1)];
    return out;
  }

  digits(n: number): string {
    return this.chars(DIGITS, n);
  }

  hex(n: number): string {
    return this.chars('0123456789abcdef', n);
  }

  alnum(n: number): string {
    return this.chars(ALNUM, n);
  }

  upperAlnum(n: number): string {
    return this.chars(UPPER + DIGITS, n);
  }

  b64url(n: number): string {
    return this.chars(B64URL, n);
  }

  b64(n: number): string {
    return this.chars(B64, n);
  }

  /** A digit string of `n` digits without a leading zero. */
  number(n: number): string {
    return String(this.int(1, 9)) + this.digits(n - 1);
  }

  // --- people and places (unlabelled context) ---
  name(country: PhoneCountry = 'US'): string {
    return this.locale(country).person.fullName();
  }
  first(): string {
    return this.f.person.firstName();
  }
  user(): string {
    return this.f.internet
      .username()
      .toLowerCase()
      .replace(/[^a-z0-9_.]/g, '');
  }
  domain(): string {
    return this.f.internet.domainName();
  }
  word(): string {
    return (
      this.f.word
        .noun()
        .toLowerCase()
        .replace(/[^a-z]/g, '') || 'item'
    );
  }
  company(): string {
    return this.f.company.name();
  }
  city(country: PhoneCountry = 'US'): string {
    return this.locale(country).location.city();
  }
  /** ISO timestamp in June 2024 (fixed base: no clock). */
  iso(): string {
    return new Date(Date.UTC(2024, 5, 1) + this.int(0, 30 * 86_400_000)).toISOString();
  }
  unix(): number {
    return 1_717_200_000 + this.int(0, 3_000_000);
  }

  // --- PII values ---
  email(): string {
    const r = this.int(0, 9);
    if (r < 5) return this.locale(this.pick(PHONE_COUNTRIES)).internet.email();
    const first =
      this.f.person
        .firstName()
        .toLowerCase()
        .replace(/[^a-z]/g, '') || 'alex';
    const last =
      this.f.person
        .lastName()
        .toLowerCase()
        .replace(/[^a-z]/g, '') || 'lee';
    if (r < 7) return `${first}.${last}@${this.domain()}`;
    if (r < 8) return `${first}+${this.word()}@${this.pick(['gmail.com', 'outlook.com', 'proton.me'])}`;
    if (r < 9) return `${first[0]}${last}@${this.word()}.co.uk`;
    return `${first}_${last}${this.int(1, 99)}@${this.word()}-${this.word()}.io`;
  }

  phone(country: PhoneCountry): Phone {
    const lf = this.locale(country);
    for (let tries = 0; tries < 200; tries++) {
      const p: PhoneNumber | undefined = parsePhoneNumberFromString(
        lf.phone.number({ style: 'international' }),
      );
      if (p?.isValid() && p.country === country) {
        return {
          country,
          national: p.formatNational(),
          international: p.formatInternational(),
          e164: p.number,
        };
      }
    }
    throw new Error(`no valid ${country} phone number in 200 tries`);
  }

  /** A US number in one of the ways people write it. */
  usPhone(): { text: string; digits: string } {
    const p = this.phone('US');
    const d = p.e164.slice(2);
    const a = d.slice(0, 3);
    const b = d.slice(3, 6);
    const c = d.slice(6);
    const text = this.pick([
      p.national,
      `${a}-${b}-${c}`,
      `${a}.${b}.${c}`,
      `${a} ${b} ${c}`,
      d,
      `1-${a}-${b}-${c}`,
    ]);
    return { text, digits: d };
  }

  /** Ten NANP digits: a libphonenumber-valid US number, or a fictional 555-01xx one (a third). */
  nanpDigits(): string {
    if (this.chance(1 / 3)) return `${this.pick(NANP_AREAS)}55501${this.digits(2)}`;
    for (;;) {
      // A person's number: not toll-free (8xx) or premium (900).
      const d = this.phone('US').e164.slice(2);
      if (!/^(8(00|33|44|55|66|77|88)|900)/.test(d)) return d;
    }
  }

  /** Ten NANP digits in one of the common written forms (`(415) 555-0132`, `415.555.0132`…). */
  nanpText(digits = this.nanpDigits()): string {
    const a = digits.slice(0, 3);
    const b = digits.slice(3, 6);
    const c = digits.slice(6);
    return this.pick([
      `(${a}) ${b}-${c}`,
      `(${a})${b}-${c}`,
      `${a}-${b}-${c}`,
      `${a}.${b}.${c}`,
      `1-${a}-${b}-${c}`,
    ]);
  }

  /** A local seven-digit number (`555-0132`, `867-5309`). */
  localPhone(): string {
    return this.chance(0.5)
      ? `555-01${this.digits(2)}`
      : `${this.int(2, 9)}${this.digits(2)}-${this.digits(4)}`;
  }

  /** A valid national number of `region` (its tail redrawn from a seed number). */
  nationalPhone(region: NationalRegion = this.pick(NATIONAL_REGIONS)): NationalPhone {
    for (let tries = 0; tries < 200; tries++) {
      const seed = this.pick(NATIONAL_SEEDS[region]);
      const keep = Math.max(2, seed.length - this.int(4, 6));
      const p = parsePhoneNumberFromString(
        seed.slice(0, keep) + this.digits(seed.length - keep),
        region as CountryCode,
      );
      if (!p?.isValid() || p.country !== region) continue;
      const national = p.formatNational();
      let digits = national.replace(/\D/g, '');
      // Indian mobiles are written as their ten digits, without the trunk 0.
      if (region === 'IN' && digits.length === 11) digits = digits.slice(1);
      let written = national;
      const il = /^(0\d)-(\d{3})-(\d{4})$/.exec(national);
      if (region === 'IL' && il) written = `${il[1]}-${il[2]}${il[3]}`;
      if (region === 'IN' && /^0\d{5} \d{5}$/.test(national)) written = national.slice(1);
      return { region, national, digits, written };
    }
    throw new Error(`no valid ${region} national number in 200 tries`);
  }

  ssn(sep = this.pick(['-', '-', '-', ' '])): string {
    let area = this.int(1, 899);
    if (area === 666) area = 665;
    const pad = (v: number, n: number) => String(v).padStart(n, '0');
    return `${pad(area, 3)}${sep}${pad(this.int(1, 99), 2)}${sep}${pad(this.int(1, 9999), 4)}`;
  }

  /** Luhn-valid card digits: Visa, Mastercard (51–55 and 2221–2720), Amex, Discover. */
  card(): { digits: string; brand: 'visa' | 'mastercard' | 'amex' | 'discover' } {
    const brand = this.pick(['visa', 'visa', 'mastercard', 'mastercard', 'amex', 'discover'] as const);
    const prefix =
      brand === 'visa'
        ? '4'
        : brand === 'mastercard'
          ? this.chance(0.7)
            ? `5${this.int(1, 5)}`
            : String(this.int(2221, 2720))
          : brand === 'amex'
            ? this.pick(['34', '37'])
            : '6011';
    const length = brand === 'amex' ? 15 : 16;
    const body = prefix + this.digits(length - 1 - prefix.length);
    return { digits: body + luhnDigit(body), brand };
  }

  /** A Luhn-valid 15-digit card: Amex (34, 37) or UATP (1…). */
  card15(brand = this.pick(['amex', 'uatp'] as const)): { digits: string; brand: 'amex' | 'uatp' } {
    const prefix = brand === 'amex' ? this.pick(['34', '37']) : '1';
    const body = prefix + this.digits(14 - prefix.length);
    return { digits: body + luhnDigit(body), brand };
  }

  /** A 15-digit card contiguous or grouped 4-6-5, 4-5-6 or 4-4-4-3 (spaces or dashes). */
  card15Text(digits = this.card15().digits): string {
    const sizes = this.pick([[15], [4, 6, 5], [4, 6, 5], [4, 5, 6], [4, 4, 4, 3]]);
    const sep = this.pick([' ', ' ', '-']);
    const parts: string[] = [];
    let at = 0;
    for (const n of sizes) {
      parts.push(digits.slice(at, at + n));
      at += n;
    }
    return parts.join(sep);
  }

  /** The card written the way receipts, forms and dashboards write it. */
  cardText(): string {
    const { digits } = this.card();
    const sep = this.pick([' ', ' ', '-', '']);
    if (sep === '') return digits;
    if (digits.length === 15) return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].join(sep);
    return (digits.match(/.{4}/g) ?? []).join(sep);
  }

  /**
   * A mod-97-valid IBAN, contiguous or in groups of four (space- or dash-separated); `true` and
   * `false` are kept for "space" and "compact".
   */
  iban(
    style: IbanStyle | boolean = this.pick(['compact', 'compact', 'space', 'space', 'dash'] as const),
  ): string {
    const country = this.pick(IBAN_COUNTRIES);
    const compact = this.f.finance.iban({ countryCode: country }).replace(/\s/g, '');
    const bban = compact.slice(4);
    const check = 98 - mod97(`${bban}${country}00`);
    const valid = `${country}${String(check).padStart(2, '0')}${bban}`;
    const s = style === true ? 'space' : style === false ? 'compact' : style;
    if (s === 'compact') return valid;
    return (valid.match(/.{1,4}/g) ?? []).join(s === 'dash' ? '-' : ' ');
  }

  /** An IPv4 address someone could be reached at: not 0/8, loopback (127/8) or broadcast. */
  ipv4(): string {
    for (;;) {
      const ip = this.f.internet.ipv4();
      const first = Number(ip.split('.')[0]);
      if (first !== 0 && first !== 127 && ip !== '255.255.255.255') return ip;
    }
  }

  /** Full or compressed (`2001:db8::8a2e:370:7334`) IPv6. */
  ipv6(): string {
    const groups = this.f.internet
      .ipv6()
      .split(':')
      .map((g) => g.replace(/^0+(?=.)/, ''));
    if (this.chance(0.35)) return groups.join(':');
    const at = this.int(1, 5);
    const len = this.int(2, 8 - at - 1);
    const left = groups.slice(0, at);
    const right = groups.slice(at + len);
    if (this.chance(0.3)) return `fe80::${right.slice(-4).join(':')}`;
    return `${left.join(':')}::${right.join(':')}`;
  }

  // --- secrets ---
  password(n = this.int(14, 24)): string {
    return this.f.internet.password({ length: n, pattern: /[A-Za-z0-9]/ });
  }

  /** A provider token of a documented shape (prefix + random body). */
  providerToken(): string {
    const k = this.int(0, 15);
    switch (k) {
      case 0:
        return `ghp_${this.alnum(36)}`;
      case 1:
        return `github_pat_${this.alnum(22)}_${this.alnum(59)}`;
      case 2:
        return `${this.pick(['gho', 'ghs', 'ghu'])}_${this.alnum(36)}`;
      case 3:
        return `AKIA${this.upperAlnum(16)}`;
      case 4:
        return `xoxb-${this.number(12)}-${this.number(13)}-${this.alnum(24)}`;
      case 5:
        return `${this.pick(['sk_live_', 'rk_live_', 'sk_test_'])}${this.alnum(this.pick([24, 99]))}`;
      case 6:
        return `sk-proj-${this.b64url(this.pick([48, 74, 156]))}`;
      case 7:
        return `sk-ant-api03-${this.b64url(93)}AA`;
      case 8:
        return `AIza${this.b64url(35)}`;
      case 9:
        return `npm_${this.alnum(36)}`;
      case 10:
        return this.jwt();
      case 11:
        return `glpat-${this.b64url(20)}`;
      case 12:
        return `SG.${this.b64url(22)}.${this.b64url(43)}`;
      case 13:
        return `hf_${this.alnum(34)}`;
      case 14:
        return `sk-${this.alnum(48)}`;
      default:
        return `xoxp-${this.number(12)}-${this.number(12)}-${this.number(13)}-${this.hex(32)}`;
    }
  }

  jwt(): string {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const alg = this.pick(['HS256', 'RS256', 'ES256']);
    const header = enc({ alg, typ: 'JWT' });
    const payload = enc({
      sub: this.f.string.uuid(),
      iat: this.unix(),
      exp: this.unix() + 3600,
      scope: 'read',
    });
    return `${header}.${payload}.${this.b64url(alg === 'RS256' ? 342 : 43)}`;
  }

  /** A PEM private key block; `eol` is the line break as written (`\n`). */
  pem(eol = '\n'): string {
    const label = this.pick(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY']);
    const lines = Array.from({ length: this.int(4, 12) }, () => this.b64(64));
    lines.push(`${this.b64(this.int(8, 60))}${this.pick(['', '=', '=='])}`);
    return [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join(eol);
  }
}

export function luhnDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = body.charCodeAt(body.length - 1 - i) - 48;
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

/** ISO 7064 mod 97 of an alphanumeric string (letters count as 10–35). */
export function mod97(s: string): number {
  let rem = 0;
  for (const ch of s) {
    const code = ch.charCodeAt(0);
    rem = code >= 65 ? (rem * 100 + (code - 55)) % 97 : (rem * 10 + (code - 48)) % 97;
  }
  return rem;
}
