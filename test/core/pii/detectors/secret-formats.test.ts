// The provider formats added to secret-formats.ts: each has a true positive and a near miss (a
// string that shares its prefix or shape but must not match). Fixtures are assembled at run time
// from a prefix and helpers.body so that this file holds no string a secret scanner would flag.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findSecrets } from '../../../../src/core/pii/detectors/secret.js';
import { FORMATS } from '../../../../src/core/pii/detectors/secret-formats.js';
import { fcOptions } from '../../../support/fc.js';
import { body, matchedTexts } from '../helpers.js';

const HEX = '0123456789abcdef';
const DIGITS = '0123456789';
const UPPER_DIGITS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const BASE64 = 'aB3dE5gH7jK9mN1pQ2rS4tU6vW8xY0zC+/';
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';
const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = `${b64url('{"alg":"RS256","typ":"JWT"}')}.${b64url('{"iss":"github","app":1}')}.${body(43)}`;

/** [format name (as in FORMATS), true positive, near miss]. */
const CASES: [string, string, string][] = [
  ['GitHub token, stateless layout', `ghs_${body(7, DIGITS)}_${jwt}`, `ghs_${body(6)}.${body(5)}.${body(5)}`],
  [
    'GitHub token, stateless layout',
    `ghu_${body(6, DIGITS)}_${jwt}`,
    `myghs_${body(7, DIGITS)}_${body(10)}.${body(10)}.${body(10)}`,
  ], // `my_ghs_…`: a token in an id (issue 34)
  ['GitLab token', `glrt-${body(20)}`, `glrt-${body(12)}`],
  ['GitLab token', `gldt-${body(25)}`, 'gldt-config'],
  ['GitLab token', `glcbt-${body(24)}`, `xglcbt-${body(24)}`],
  ['GitLab token', `glpat-${body(31)}.01.${body(7, 'abcdefghijklmnopqrstuvwxyz0123456789')}`, 'glpat-'],
  ['OpenAI project', `sk-None-${body(48)}`, `sk-None-${body(10)}`],
  ['OpenRouter', `sk-or-v1-${body(64, HEX)}`, `sk-or-v1-${body(60, HEX)}`],
  ['Groq', `gsk_${body(52)}`, `gsk_${body(51)}`],
  ['Perplexity', `pplx-${body(48)}`, `pplx-${body(40)}`],
  ['Slack token', `xoxe.xoxp-1-${body(60)}`, 'xoxe.x'],
  ['Slack token', `xoxe-1-${body(60)}`, 'xoxe-1'],
  ['Stripe (or Svix) webhook', `whsec_${body(32)}`, `whsec_${body(12)}`],
  ['Docker Hub', `dckr_pat_${body(27)}`, `dckr_pat_${body(8)}`],
  ['Cloudflare API token', `cfut_${body(40)}${body(8, HEX)}`, `cfut_${body(40)}`],
  ['Cloudflare API token', `cfat_${body(40)}${body(8, HEX)}`, `cfat_${body(50)}`],
  ['Cloudflare API token', `cfk_${body(40)}${body(8, HEX)}`, `cfk_${body(47)}`],
  ['Cloudflare origin CA key', `v1.0-${body(24, HEX)}-${body(146, HEX)}`, 'v1.0-beta.3'],
  ['Vercel', `vcp_${body(56)}`, 'vcp_memory_write'],
  ['Vercel', `vck_${body(24)}`, 'vca_ComputeSignalsForBacktests'],
  ['Tailscale', `tskey-auth-${body(11)}-${body(30)}`, 'tskey-api-XXXXXX'],
  ['Tailscale', `tskey-client-${body(11)}-${body(30)}`, `tskey-other-${body(11)}-${body(30)}`],
  ['HashiCorp Vault', `hvs.${body(92)}`, `hvs.${body(10)}`],
  ['HashiCorp Vault', `hvb.${body(140)}`, `hvbx.${body(140)}`],
  ['Doppler', `dp.pt.${body(43)}`, `dp.pt.${body(20)}`],
  ['Doppler', `dp.st.dev.${body(40)}`, `dp.xx.${body(40)}`],
  ['Databricks', `dapi${body(32, HEX)}`, `dapi${body(31, HEX)}`],
  ['Databricks', `dapi${body(32, HEX)}-2`, 'dapiVersion'],
  ['DigitalOcean', `dop_v1_${body(64, HEX)}`, `dop_v1_${body(63, HEX)}`],
  ['DigitalOcean', `dor_v1_${body(64, HEX)}`, `dox_v1_${body(64, HEX)}`],
  ['Shopify', `shpat_${body(32, HEX)}`, `shpat_${body(31, HEX)}`],
  ['Shopify', `shpss_${body(32, HEX)}`, `shpss_${body(32)}`],
  ['Atlassian', `ATATT3${body(186, `${BASE64.slice(0, 32)}_-`)}=${body(8, HEX)}`, `ATATT3${body(20)}`],
  ['Linear', `lin_api_${body(40)}`, `lin_api_${body(39)}`],
  ['Postman', `PMAK-${body(24, HEX)}-${body(34, HEX)}`, `PMAK-${body(24, HEX)}`],
  ['Grafana service account', `glsa_${body(32)}_${body(8, HEX)}`, `glsa_${body(32)}`],
  ['Grafana Cloud', `glc_${body(60, BASE64)}==`, `glc_${body(20)}`],
  ['Grafana API key (legacy', `eyJrIjoi${body(72)}`, `eyJrIjoi${body(20)}`],
  ['New Relic', `NRAK-${body(27, UPPER_DIGITS)}`, `NRAK-${body(26, UPPER_DIGITS)}`],
  ['New Relic', `NRII-${body(32)}`, `NRJS-${body(19, HEX)}`],
  ['Sentry organisation', `sntrys_eyJ${body(80, BASE64)}_${body(43, BASE64)}`, `sntrys_${body(20)}`],
  ['Sentry user', `sntryu_${body(64, HEX)}`, `sntryu_${body(63, HEX)}`],
  ['Notion integration token', `ntn_${body(11, DIGITS)}${body(35)}`, `ntn_${body(20)}`],
  ['Notion integration token (legacy', `secret_${body(43)}`, `client_secret_${body(43)}`],
  ['Supabase', `sbp_${body(40, HEX)}`, `sbp_${body(20, HEX)}`],
  ['Supabase', `sb_secret_${body(31)}`, `sb_publishable_${body(31)}`],
  ['PlanetScale', `pscale_pw_${body(43)}`, `pscale_pw_${body(12)}`],
  ['PlanetScale', `pscale_tkn_${body(43)}`, `pscale_db_${body(43)}`],
  ['Fly.io', `fo1_${body(43)}`, `fo1_${body(42)}`],
  ['Fly.io', `fm2_${body(120, BASE64)}`, `fm2_${body(60, BASE64)}`],
  ['age secret key', `AGE-SECRET-KEY-1${body(58, BECH32)}`, `AGE-SECRET-KEY-1${body(57, BECH32)}`],
  ['Heroku', `HRKU-AA${body(58)}`, `HRKU-${body(20)}`],
  ['Twilio API key SID', `SK${body(32, HEX)}`, `SK${body(32, HEX).toUpperCase()}`],
];

describe('secret formats added for current providers', () => {
  it.each(CASES)('%s: finds the token', (_name, secret) => {
    expect(matchedTexts(findSecrets, `found ${secret} in the build log`)).toEqual([secret]);
  });

  it.each(CASES)('%s: ignores the near miss', (_name, _secret, nearMiss) => {
    expect(findSecrets(`found ${nearMiss} in the build log`)).toEqual([]);
  });

  it.each(CASES)('%s: the case names a format of the table', (name) => {
    expect(FORMATS.some((f) => f.name.startsWith(name))).toBe(true);
  });

  it('finds a Fly.io token after its FlyV1 scheme, one macaroon at a time', () => {
    const [a, b] = [`fm2_${body(120, BASE64)}`, `fm2_${body(110, BASE64)}=`];
    expect(matchedTexts(findSecrets, `Authorization: FlyV1 ${a},${b}`)).toEqual([a, b]);
  });

  it('masks only the account key of an Azure storage connection string', () => {
    const key = `${body(86, BASE64)}==`;
    const text = `DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=${key};EndpointSuffix=core.windows.net`;
    expect(matchedTexts(findSecrets, text)).toEqual([key]);
  });

  it('masks only the shared access key of a Service Bus connection string', () => {
    const key = `${body(43, BASE64)}=`;
    const text = `Endpoint=sb://acme.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${key}`;
    expect(matchedTexts(findSecrets, text)).toEqual([key]);
  });

  it.each([
    ['an empty account key', 'AccountName=acme;AccountKey=;EndpointSuffix=core.windows.net'],
    ['a short account key', `AccountKey=${body(12)};`],
    ['the key name of a Service Bus connection string', 'SharedAccessKeyName=RootManageSharedAccessKey;'],
  ])('ignores %s', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('keeps the classic GitHub layout and finds the stateless one whole, not its first segment', () => {
    const classic = `ghs_${body(36)}`;
    const stateless = `ghs_${body(7, DIGITS)}_${jwt}`;
    expect(matchedTexts(findSecrets, `${classic} then ${stateless}.`)).toEqual([classic, stateless]);
  });
});

describe('secret formats on texts that mix them', () => {
  const fragments: [string, string[]][] = [
    ...CASES.map(([, secret]): [string, string[]] => [secret, [secret]]),
    ...CASES.map(([, , nearMiss]): [string, string[]] => [nearMiss, []]),
  ];

  it('finds every token of every fragment, whatever comes before it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 12 }), (picked) => {
        const text = picked.map(([fragment]) => fragment).join(' | ');
        expect(matchedTexts(findSecrets, text)).toEqual(picked.flatMap(([, secrets]) => secrets));
      }),
      fcOptions(300),
    );
  });

  it('finds them all in one text, in either order', () => {
    for (const list of [fragments, [...fragments].reverse()]) {
      const text = list.map(([fragment]) => fragment).join(' | ');
      expect(matchedTexts(findSecrets, text)).toEqual(list.flatMap(([, secrets]) => secrets));
    }
  });
});
