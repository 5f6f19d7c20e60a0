// Regions (ISO 3166-1 alpha-2 codes as libphonenumber knows them) whose NATIONAL numbers the
// phone detector reads. International numbers (`+…`, `00…`) need no region: their country code
// says where they belong, and every region libphonenumber knows counts for them.

import { getCountries, isSupportedCountry, Metadata } from 'libphonenumber-js/max';
import type { CountryCode } from 'libphonenumber-js/max';

/**
 * The default national-number regions, sorted: wide on purpose, since a national number needs a
 * context word (or the `phone` key hint) before it anyway, so a region costs no precision.
 *
 * - North America: CA, MX, US.
 * - Europe: the UK and Ireland (GB, IE); the EU's larger members (AT, BE, CZ, DE, DK, ES, FI, FR,
 *   GR, HU, IT, NL, PL, PT, RO, SE); CH, NO; TR.
 * - Asia-Pacific: AU, NZ; CN, HK, IN, JP, KR, PH, SG, TW.
 * - Latin America: AR, BR, CL, CO.
 * - Middle East and Africa: AE, IL, ZA.
 */
// prettier-ignore
export const DEFAULT_PHONE_REGIONS: readonly string[] = Object.freeze([
  'AE', 'AR', 'AT', 'AU', 'BE', 'BR', 'CA', 'CH', 'CL', 'CN', 'CO', 'CZ', 'DE', 'DK', 'ES', 'FI',
  'FR', 'GB', 'GR', 'HK', 'HU', 'IE', 'IL', 'IN', 'IT', 'JP', 'KR', 'MX', 'NL', 'NO', 'NZ', 'PH',
  'PL', 'PT', 'RO', 'SE', 'SG', 'TR', 'TW', 'US', 'ZA',
]);

/** Whether libphonenumber knows `code` as a region (upper-case ISO 3166-1 alpha-2, e.g. `GB`). */
export function isPhoneRegion(code: string): code is CountryCode {
  return isSupportedCountry(code);
}

/** Every region code libphonenumber knows, sorted (for messages listing the accepted values). */
export function phoneRegionCodes(): string[] {
  return [...getCountries()].sort();
}

/**
 * Lengths a national significant number may have in `region` (libphonenumber's possible
 * lengths; local-only lengths such as the US's seven digits are not among them).
 */
export function nationalNumberLengths(region: CountryCode): readonly number[] {
  const metadata = new Metadata();
  metadata.selectNumberingPlan(region);
  return metadata.numberingPlan?.possibleLengths() ?? [];
}
