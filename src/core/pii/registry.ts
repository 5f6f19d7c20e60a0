// Builds the detector list of a policy's `pii:` block (DESIGN §3) and the set the `pii` check
// searches with (DESIGN §5): the seven built-in typed detectors always, the opt-in ones a policy
// enables, its digit_run and its own rules.

import { creditCardDetector } from './detectors/credit-card.js';
import { digitRunDetector } from './detectors/digit-run.js';
import { emailDetector } from './detectors/email.js';
import { ibanDetector } from './detectors/iban.js';
import { ipAddressDetector } from './detectors/ip-address.js';
import {
  CHECKSUM_ID_TYPES,
  OPTIONAL_DETECTORS,
  OPTIONAL_PII_TYPES,
  isOptionalPiiType,
} from './detectors/optional.js';
import { DEFAULT_PHONE_REGIONS, phoneDetector } from './detectors/phone.js';
import { secretDetector } from './detectors/secret.js';
import { ssnDetector } from './detectors/ssn.js';
import { userRuleDetector } from './detectors/user-rule.js';
import type { CompiledRule } from './detectors/user-rule.js';
import { BUILTIN_PII_TYPES } from './types.js';
import type { BuiltinPiiType, Detector } from './types.js';

const BUILTIN: Record<BuiltinPiiType, (regions: readonly string[]) => Detector> = {
  email: emailDetector,
  phone: (regions) => phoneDetector(regions),
  ssn: ssnDetector,
  credit_card: creditCardDetector,
  iban: ibanDetector,
  ip_address: ipAddressDetector,
  secret: secretDetector,
};

/** Every detector name a policy may list: the built-ins, then the opt-in ones. */
export const PII_DETECTOR_NAMES = [...BUILTIN_PII_TYPES, ...OPTIONAL_PII_TYPES] as const;

/** What the default policy enables and the `pii` check always searches: the built-ins and the checksummed national ids. */
export const DEFAULT_PII_DETECTORS: readonly (typeof PII_DETECTOR_NAMES)[number][] = Object.freeze([
  ...BUILTIN_PII_TYPES,
  ...CHECKSUM_ID_TYPES,
]);

function isBuiltin(name: string): name is BuiltinPiiType {
  return (BUILTIN_PII_TYPES as readonly string[]).includes(name);
}

export interface DetectorConfig {
  /** Detector names (PII_DETECTOR_NAMES); duplicates are ignored. */
  detectors: readonly string[];
  /** Mask runs of at least this many digits; 0 = off, otherwise >= 2. */
  digit_run: number;
  rules: readonly CompiledRule[];
  /** Regions whose national phone numbers count (next to a context word); default DEFAULT_PHONE_REGIONS. */
  regions?: readonly string[];
}

/**
 * Detectors in a fixed order (built-ins in BUILTIN_PII_TYPES order, opt-in ones in
 * OPTIONAL_PII_TYPES order, then digit_run, then user rules as listed), so that the same policy
 * always yields the same list. Throws on an unknown detector name, a bad digit_run or an unknown
 * region: the policy loader validates them before calling this.
 */
export function createDetectors(cfg: DetectorConfig): Detector[] {
  for (const name of cfg.detectors) {
    if (!isBuiltin(name) && !isOptionalPiiType(name)) {
      throw new RangeError(`unknown PII detector; expected one of: ${PII_DETECTOR_NAMES.join(', ')}`);
    }
  }
  const regions = cfg.regions ?? DEFAULT_PHONE_REGIONS;
  const out: Detector[] = BUILTIN_PII_TYPES.filter((t) => cfg.detectors.includes(t)).map((t) =>
    BUILTIN[t](regions),
  );
  for (const t of OPTIONAL_PII_TYPES) if (cfg.detectors.includes(t)) out.push(OPTIONAL_DETECTORS[t]());
  if (cfg.digit_run !== 0) out.push(digitRunDetector(cfg.digit_run));
  for (const rule of cfg.rules) out.push(userRuleDetector(rule));
  return out;
}

let builtins: Detector[] | undefined;

/** All seven typed detectors with the default regions (shared: detectors are pure). */
export function builtinDetectors(): Detector[] {
  builtins ??= BUILTIN_PII_TYPES.map((t) => BUILTIN[t](DEFAULT_PHONE_REGIONS));
  return [...builtins];
}

let defaults: Detector[] | undefined;

/**
 * The detectors of DEFAULT_PII_DETECTORS with the default regions: what the default policy masks,
 * and what the edges (log lines, messages, report metadata) mask whatever the policy.
 */
export function defaultDetectors(): Detector[] {
  defaults ??= [...builtinDetectors(), ...CHECKSUM_ID_TYPES.map((t) => OPTIONAL_DETECTORS[t]())];
  return [...defaults];
}

/** A policy's `pii:` block (and its compiled rules) as the registry takes it. */
export function detectorConfig(
  pii: { detectors: readonly string[]; digit_run: number; regions: readonly string[] },
  rules: readonly CompiledRule[],
): DetectorConfig {
  return { detectors: pii.detectors, digit_run: pii.digit_run, rules, regions: pii.regions };
}

/**
 * What the `pii` check searches with, and the stabilizer's verdict with it: every default detector
 * (the built-ins and the checksummed national ids) whatever the policy enables, the other opt-in
 * ones it enables, its `digit_run` and its rules.
 */
export function checkDetectors(cfg: DetectorConfig): Detector[] {
  const optional = cfg.detectors.filter(isOptionalPiiType);
  return createDetectors({ ...cfg, detectors: [...DEFAULT_PII_DETECTORS, ...optional] });
}
