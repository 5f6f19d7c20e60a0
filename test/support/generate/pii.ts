// Synthetic PII values that the built-in detectors must catch (DESIGN §3 `pii.detectors`).
// Every value is valid by the detector's own rules (Luhn, IBAN mod-97, SSA ranges,
// libphonenumber validity), so a value that survives masking is a real miss, not a bad plant.

import { Faker, base, en } from '@faker-js/faker';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import type { Rng } from './rng.js';

export const PII_TYPES = ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'] as const;
export type PiiType = (typeof PII_TYPES)[number];

/** Ground truth: `value` occurs verbatim in the text of artifact `artifact` (content or tool-call arguments). */
export interface PlantedPii {
  artifact: string;
  type: PiiType;
  value: string;
}

// One shared instance, reseeded per transcript: generation is synchronous, so no other caller can
// interleave draws. Not the global `faker`, whose seed other tests set for their own purposes.
const fakerInstance = new Faker({ locale: [en, base] });

export function seededFaker(seed: number): Faker {
  fakerInstance.seed(seed);
  return fakerInstance;
}

export interface Person {
  first: string;
  last: string;
  email: string;
  phone: string;
  street: string;
  city: string;
}

function asciiWord(text: string): string {
  const cleaned = text
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return cleaned.length > 0 ? cleaned : 'user';
}

const MAIL_DOMAINS = [
  'example.com',
  'mailbox.org',
  'fastmail.net',
  'proton.me',
  'outlook.example',
  'acme.io',
];

export function email(rng: Rng, first: string, last: string): string {
  const sep = rng.pick(['.', '_', '']);
  const suffix = rng.chance(0.5) ? String(rng.int(1, 99)) : '';
  const plus = rng.chance(0.1) ? `+${rng.pick(['billing', 'support', 'news'])}` : '';
  return `${asciiWord(first)}${sep}${asciiWord(last)}${suffix}${plus}@${rng.pick(MAIL_DOMAINS)}`;
}

const US_AREAS = ['212', '312', '415', '503', '617', '646', '702', '206', '303', '512'];

function phoneCandidate(rng: Rng): string {
  switch (rng.int(0, 4)) {
    case 0:
      return `+1 ${rng.pick(US_AREAS)} ${rng.int(200, 999)} ${rng.digits(4)}`;
    case 1:
      return `+1-${rng.pick(US_AREAS)}-${rng.int(200, 999)}-${rng.digits(4)}`;
    case 2:
      return `+44 20 7946 ${rng.int(0, 9)}${rng.digits(3)}`;
    case 3:
      return `+49 30 ${rng.int(2, 9)}${rng.digits(7)}`;
    default:
      return `+33 6 ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)} ${rng.digits(2)}`;
  }
}

/** An international-format number that libphonenumber (max metadata) accepts as valid. */
export function phone(rng: Rng): string {
  for (let attempt = 0; attempt < 50; attempt++) {
    const candidate = phoneCandidate(rng);
    if (isValidPhoneNumber(candidate)) return candidate;
  }
  throw new Error('phone(): no valid candidate in 50 draws; the templates no longer match libphonenumber');
}

/** `AAA-GG-SSSS` within SSA rules: area not 000, 666 or 900–999; group not 00; serial not 0000. */
export function ssn(rng: Rng): string {
  let area = rng.int(1, 899);
  if (area === 666) area = 667;
  const group = rng.int(1, 99);
  const serial = rng.int(1, 9999);
  return `${String(area).padStart(3, '0')}-${String(group).padStart(2, '0')}-${String(serial).padStart(4, '0')}`;
}

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

function luhnCheckDigit(body: string): string {
  for (let d = 0; d <= 9; d++) if (luhnValid(body + d)) return String(d);
  throw new Error('unreachable: some check digit always satisfies Luhn');
}

/** Visa / Mastercard / Amex numbers passing Luhn, contiguous or grouped by spaces or dashes. */
export function creditCard(rng: Rng): string {
  const brand = rng.int(0, 2);
  const prefix = brand === 0 ? '4' : brand === 1 ? String(rng.int(51, 55)) : rng.pick(['34', '37']);
  const length = brand === 2 ? 15 : 16;
  const body = prefix + rng.digits(length - 1 - prefix.length);
  const number = body + luhnCheckDigit(body);
  const sep = rng.pick(['', ' ', '-']);
  if (sep === '') return number;
  const groups = brand === 2 ? [4, 6, 5] : [4, 4, 4, 4];
  const parts: string[] = [];
  let at = 0;
  for (const g of groups) {
    parts.push(number.slice(at, at + g));
    at += g;
  }
  return parts.join(sep);
}

/** BBAN layouts (registry lengths): n = digits, a = upper-case letters, c = alphanumerics. */
const IBAN_LAYOUTS: Record<string, string> = {
  DE: 'nnnnnnnnnnnnnnnnnn',
  GB: 'aaaannnnnnnnnnnnnn',
  FR: 'nnnnnnnnnnccccccccccccc',
  NL: 'aaaannnnnnnnnn',
  ES: 'nnnnnnnnnnnnnnnnnnnn',
  IT: 'annnnnnnnnncccccccccccc',
};

export function ibanMod97(iban: string): number {
  const compact = iban.replace(/ /g, '');
  const rearranged = compact.slice(4) + compact.slice(0, 4);
  let rem = 0;
  for (const ch of rearranged) {
    const code = ch.charCodeAt(0);
    const value = code >= 65 ? String(code - 55) : ch;
    for (const digit of value) rem = (rem * 10 + (digit.charCodeAt(0) - 48)) % 97;
  }
  return rem;
}

export function iban(rng: Rng): string {
  const country = rng.pick(Object.keys(IBAN_LAYOUTS));
  const layout = IBAN_LAYOUTS[country] ?? '';
  let bban = '';
  for (const slot of layout) {
    if (slot === 'n') bban += rng.digits(1);
    else if (slot === 'a') bban += rng.upper(1);
    else bban += rng.chance(0.5) ? rng.digits(1) : rng.upper(1);
  }
  const check = 98 - ibanMod97(`${country}00${bban}`);
  const compact = `${country}${String(check).padStart(2, '0')}${bban}`;
  return rng.chance(0.5) ? compact : (compact.match(/.{1,4}/g) ?? []).join(' ');
}

/**
 * Public-looking IPv4 (no 0.x, 10.x, 127.x, multicast) whose first number is no version's (32 or
 * more: `16.7.10.224` reads as a version without context, ip-address.ts): mask-worthy anywhere.
 */
export function ipv4(rng: Rng): string {
  let first = rng.int(32, 223);
  if (first === 127) first = 128;
  return `${first}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`;
}

/** High-signal credential formats: OpenAI project key, GitHub PAT, AWS access key id. */
export function secret(rng: Rng): string {
  switch (rng.int(0, 2)) {
    case 0:
      return `sk-proj-${rng.base62(48)}`;
    case 1:
      return `ghp_${rng.base62(36)}`;
    default:
      return `AKIA${rng.upper(16)}`;
  }
}

export function person(rng: Rng, faker: Faker): Person {
  const first = faker.person.firstName();
  const last = faker.person.lastName();
  return {
    first,
    last,
    email: email(rng, first, last),
    phone: phone(rng),
    street: faker.location.streetAddress(),
    city: faker.location.city(),
  };
}

export function piiValue(rng: Rng, type: PiiType, who?: Person): string {
  switch (type) {
    case 'email':
      return who ? who.email : email(rng, 'alex', 'doe');
    case 'phone':
      return who ? who.phone : phone(rng);
    case 'ssn':
      return ssn(rng);
    case 'credit_card':
      return creditCard(rng);
    case 'iban':
      return iban(rng);
    case 'ip_address':
      return ipv4(rng);
    case 'secret':
      return secret(rng);
  }
}
