// Planted PII for the property tests: a small pool of values of every built-in type, drawn from a
// seeded faker and the generator's validated value makers (Luhn cards, mod-97 IBANs, valid phones).
import { PII_TYPES } from '../../support/generate/index.js';
import type { PiiType } from '../../support/generate/index.js';
import { person, piiValue, seededFaker } from '../../support/generate/pii.js';
import { Rng } from '../../support/generate/rng.js';

export interface PiiValue {
  type: PiiType;
  value: string;
}

/** Two values of each type (one faker email among them), in a fixed order for a given seed. */
export function piiPool(seed: number): PiiValue[] {
  const faker = seededFaker(seed);
  const rng = new Rng(seed);
  const who = person(rng, faker);
  const pool: PiiValue[] = [{ type: 'email', value: faker.internet.email({ provider: 'example.org' }) }];
  // An SSN carries its context word: without one, an SSN-shaped number after a part-number word
  // (`order 787-70-0251`, and the generator's words include `order`) is a part number (ssn.ts).
  const planted = (type: PiiType, value: string): PiiValue => ({
    type,
    value: type === 'ssn' ? `SSN ${value}` : value,
  });
  for (const type of PII_TYPES) {
    pool.push(planted(type, piiValue(rng, type, type === 'email' || type === 'phone' ? who : undefined)));
    if (type !== 'email') pool.push(planted(type, piiValue(rng, type)));
  }
  return pool;
}
