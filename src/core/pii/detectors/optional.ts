// The opt-in detectors: never part of the built-in set the `pii` check always runs, enabled by
// name in a policy's `pii:` block. One entry per type, in a fixed order (network and financial
// identifiers first, then national ids grouped by country) so that the same policy always
// yields the same detector list.

import type { Detector } from '../types.js';
import { auTfnDetector } from './au-tfn.js';
import { cryptoWalletDetector } from './crypto-wallet.js';
import { esNifDetector } from './es-nif.js';
import { inAadhaarDetector } from './in-aadhaar.js';
import { inPanDetector } from './in-pan.js';
import { itFiscalCodeDetector } from './it-fiscal-code.js';
import { macDetector } from './mac.js';
import { passportDetector } from './passport.js';
import { ukNhsDetector } from './uk-nhs.js';
import { ukNinoDetector } from './uk-nino.js';
import { urlCredentialsDetector } from './url-credentials.js';
import { usAbaRoutingDetector } from './us-aba-routing.js';
import { usItinDetector } from './us-itin.js';

export const OPTIONAL_PII_TYPES = [
  'mac',
  'crypto_wallet',
  'url_credentials',
  'us_itin',
  'us_aba_routing',
  'uk_nino',
  'uk_nhs',
  'in_pan',
  'in_aadhaar',
  'es_nif',
  'it_fiscal_code',
  'au_tfn',
  'passport',
] as const;
export type OptionalPiiType = (typeof OPTIONAL_PII_TYPES)[number];

export const OPTIONAL_DETECTORS: Record<OptionalPiiType, () => Detector> = {
  mac: macDetector,
  crypto_wallet: cryptoWalletDetector,
  url_credentials: urlCredentialsDetector,
  us_itin: usItinDetector,
  us_aba_routing: usAbaRoutingDetector,
  uk_nino: ukNinoDetector,
  uk_nhs: ukNhsDetector,
  in_pan: inPanDetector,
  in_aadhaar: inAadhaarDetector,
  es_nif: esNifDetector,
  it_fiscal_code: itFiscalCodeDetector,
  au_tfn: auTfnDetector,
  passport: passportDetector,
};

/**
 * The national ids whose check digit (or check letter) makes them precise enough to be on by
 * default (issue 30): in the default policy's `pii.detectors` and always searched by the `pii`
 * check, like the seven built-ins. The other opt-in types have no checksum (uk_nino, in_pan,
 * us_itin, passport) or are not personal (us_aba_routing names a bank, mac a device), so a policy
 * opts in to them.
 */
export const CHECKSUM_ID_TYPES = ['uk_nhs', 'in_aadhaar', 'es_nif', 'it_fiscal_code', 'au_tfn'] as const;

export function isOptionalPiiType(name: string): name is OptionalPiiType {
  return (OPTIONAL_PII_TYPES as readonly string[]).includes(name);
}
