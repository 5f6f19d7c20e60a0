// Shared helpers of the PII tests.
import type { PiiMatch } from '../../../src/core/pii/types.js';

/** The matched substrings, in text order. */
export function matchedTexts(find: (text: string) => PiiMatch[], text: string): string[] {
  return find(text)
    .sort((a, b) => a.start - b.start)
    .map((m) => text.slice(m.start, m.end));
}

/**
 * A token-like body of `length` characters. Secret fixtures are assembled at run time from a
 * prefix and this body so that the test sources hold no string a secret scanner would flag.
 */
export function body(length: number, alphabet = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC'): string {
  let out = '';
  for (let i = 0; i < length; i++) out += alphabet[(i * 7 + 3) % alphabet.length];
  return out;
}

/** `digits` followed by the check digit that makes it pass Luhn. */
export function luhnComplete(digits: string): string {
  for (let d = 0; d <= 9; d++) {
    const candidate = digits + d;
    let sum = 0;
    for (let i = 0; i < candidate.length; i++) {
      let v = candidate.charCodeAt(candidate.length - 1 - i) - 48;
      if (i % 2 === 1) v = v * 2 > 9 ? v * 2 - 9 : v * 2;
      sum += v;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable: one check digit always fits');
}

/** An IBAN-shaped string for `country` and `bban` with correct mod-97 check digits. */
export function withIbanCheck(country: string, bban: string): string {
  const numeric = (bban + country + '00').replace(/[A-Z]/g, (c) => String(c.charCodeAt(0) - 55));
  let rem = 0;
  for (const ch of numeric) rem = (rem * 10 + Number(ch)) % 97;
  return `${country}${String(98 - rem).padStart(2, '0')}${bban}`;
}
