// Builds the detector list of a policy's `pii:` block (DESIGN §3) and the fixed built-in set the
// `pii` check uses (DESIGN §5).

import { creditCardDetector } from './detectors/credit-card.js';
import { digitRunDetector } from './detectors/digit-run.js';
import { emailDetector } from './detectors/email.js';
import { ibanDetector } from './detectors/iban.js';
import { ipAddressDetector } from './detectors/ip-address.js';
import { phoneDetector } from './detectors/phone.js';
import { secretDetector } from './detectors/secret.js';
import { ssnDetector } from './detectors/ssn.js';
import { userRuleDetector } from './detectors/user-rule.js';
import type { CompiledRule } from './detectors/user-rule.js';
import { BUILTIN_PII_TYPES } from './types.js';
import type { BuiltinPiiType, Detector } from './types.js';

const BUILTIN: Record<BuiltinPiiType, () => Detector> = {
  email: emailDetector,
  phone: phoneDetector,
  ssn: ssnDetector,
  credit_card: creditCardDetector,
  iban: ibanDetector,
  ip_address: ipAddressDetector,
  secret: secretDetector,
};

function isBuiltin(name: string): name is BuiltinPiiType {
  return (BUILTIN_PII_TYPES as readonly string[]).includes(name);
}

export interface DetectorConfig {
  /** Built-in detector names (BUILTIN_PII_TYPES); duplicates are ignored. */
  detectors: readonly string[];
  /** Mask runs of at least this many digits; 0 = off, otherwise >= 2. */
  digit_run: number;
  rules: readonly CompiledRule[];
}

/**
 * Detectors in a fixed order (built-ins in BUILTIN_PII_TYPES order, then digit_run, then user
 * rules as listed), so that the same policy always yields the same list. Throws on an unknown
 * detector name or a bad digit_run: the policy loader validates both before calling this.
 */
export function createDetectors(cfg: DetectorConfig): Detector[] {
  for (const name of cfg.detectors) {
    if (!isBuiltin(name)) {
      throw new RangeError(`unknown PII detector; expected one of: ${BUILTIN_PII_TYPES.join(', ')}`);
    }
  }
  const out: Detector[] = BUILTIN_PII_TYPES.filter((t) => cfg.detectors.includes(t)).map((t) => BUILTIN[t]());
  if (cfg.digit_run !== 0) out.push(digitRunDetector(cfg.digit_run));
  for (const rule of cfg.rules) out.push(userRuleDetector(rule));
  return out;
}

/** All seven typed detectors: the `pii` check runs these whatever the policy enables. */
export function builtinDetectors(): Detector[] {
  return BUILTIN_PII_TYPES.map((t) => BUILTIN[t]());
}

/**
 * What the `pii` check searches with, and the stabilizer's verdict with it: every typed detector
 * whatever the policy enables, then the policy's `digit_run` and its own rules.
 */
export function checkDetectors(digitRun: number, rules: readonly CompiledRule[]): Detector[] {
  return [...builtinDetectors(), ...createDetectors({ detectors: [], digit_run: digitRun, rules })];
}
