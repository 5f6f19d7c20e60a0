import { describe, expect, it } from 'vitest';
import {
  findUrlCredentials,
  isCredentialParam,
  isPlaceholder,
} from '../../../../src/core/pii/detectors/url-credentials.js';
import { body, matchedTexts } from '../helpers.js';

// Secret-looking values are assembled at run time so the sources hold nothing a scanner flags.
const TOKEN = body(24);
const SIG = body(32, '0123456789abcdef');
const PW = `pw-${body(10)}`;

describe('url_credentials detector', () => {
  it.each([
    [`https://api.example.com/v1/me?access_token=${TOKEN}&format=json`, [TOKEN]],
    [`GET /callback?foo=1&api_key=${TOKEN} HTTP/1.1`, [TOKEN]],
    [`https://x.example/?apiKey=${TOKEN}#frag`, [TOKEN]],
    [`?token=${TOKEN}.`, [TOKEN]],
    [
      `https://s3.example/o?X-Amz-Credential=AKIDEXAMPLE%2F20240610&X-Amz-Signature=${SIG}`,
      ['AKIDEXAMPLE%2F20240610', SIG],
    ],
    [`&X-Amz-Security-Token=${TOKEN}%2F%2B&X-Amz-Date=20240610T000000Z`, [`${TOKEN}%2F%2B`]],
    [`https://acct.blob.example/c?sv=2022&sp=r&sig=${TOKEN}%3D`, [`${TOKEN}%3D`]],
    [`https://maps.example/api?key=${TOKEN}`, [TOKEN]],
    [`grant_type=password&password=${PW}&client_secret=${TOKEN}`, [PW, TOKEN]],
    [`<a href="/x?a=1&amp;auth_token=${TOKEN}">`, [TOKEN]],
    [`[link](https://x.example/?jwt=${TOKEN})`, [TOKEN]],
    [`?refresh_token=${TOKEN}&id_token=${SIG}`, [TOKEN, SIG]],
    [`?oauth_signature=${SIG}&pwd=${PW}&pass=${PW}`, [SIG, PW, PW]],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findUrlCredentials, text)).toEqual(expected);
  });

  it.each([
    ['ssh://git@github.com/org/repo.git', 'user name without password'],
    ['https://example.com:8443/path?x=1', 'port, no userinfo'],
    ['https://example.com/user:pass@host', 'colon and @ in the path'],
    ['https://example.com/cb?code=abc123&state=xyz789', 'OAuth code and state'],
    ['?token={token}&api_key=<api_key>&secret=${SECRET}&pwd=$DB_PASSWORD', 'placeholders'],
    ['?token=%7Btoken%7D&key=%3Ckey%3E', 'URL-encoded placeholders'],
    ['?token=xxx&secret=***&password=••••&sig=...', 'redaction marks'],
    ['?api_key=YOUR_API_KEY&token=your-token-here&client_secret=paste_here', 'fill-in names'],
    ['?password=password&secret=secret&token=[REDACTED]&key=changeme', 'the word itself'],
    [
      'https://user:${DB_PASSWORD}@host/ and https://user:****@host/ and https://u:<password>@h/',
      'userinfo placeholders',
    ],
    ['https://user:@host/', 'empty password'],
    ['?token=&key=', 'empty values'],
    ['?page_token=abc&pageToken=def&nextPageToken=ghi&continuation_token=jkl', 'pagination tokens'],
    ['?max_tokens=256&token_type=bearer&expires_in=3600', 'counts and token metadata'],
    ['?authuser=0&author=bob&sort_key=name&cache_key=k1&keyword=x', 'names that merely contain a word'],
    ['a ? b & c = d, x?token = y', 'prose with spaces'],
    ['12:30:45 and localhost:8080 and a::b', 'colons without URLs'],
  ])('ignores %j (%s)', (text) => {
    expect(findUrlCredentials(text)).toEqual([]);
  });

  it('masks only the value', () => {
    const text = `https://h.example/?token=${TOKEN}`;
    const start = text.indexOf(TOKEN);
    expect(findUrlCredentials(text)).toEqual([{ type: 'url_credentials', start, end: start + TOKEN.length }]);
  });

  it.each([
    ['access_token', true],
    ['api_key', true],
    ['apiKey', true],
    ['APIKEY', true],
    ['X-Amz-Signature', true],
    ['X-Goog-Credential', true],
    ['client_secret', true],
    ['sig', true],
    ['key', true],
    ['auth', true],
    ['basic_auth', true],
    ['subscription-key', true],
    ['hub.verify_token', true],
    ['code', false],
    ['state', false],
    ['sort_key', false],
    ['keyword', false],
    ['authuser', false],
    ['author', false],
    ['max_tokens', false],
    ['token_type', false],
    ['pageToken', false],
    ['next_page_token', false],
  ])('isCredentialParam(%j) is %s', (name, expected) => {
    expect(isCredentialParam(name)).toBe(expected);
  });

  it('leaves a userinfo password to the secret detector', () => {
    expect(findUrlCredentials(`postgres://app:${PW}@db.internal:5432/app`)).toEqual([]);
  });

  it('isPlaceholder', () => {
    expect(isPlaceholder('{{ token }}')).toBe(true);
    expect(isPlaceholder('XXXXXXXX')).toBe(true);
    expect(isPlaceholder(TOKEN)).toBe(false);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    // One value swallows every parameter-like string after it.
    expect(findUrlCredentials('?token=a'.repeat(131_072))).toHaveLength(1);
    expect(findUrlCredentials('?token'.repeat(174_763))).toEqual([]);
    expect(findUrlCredentials('&'.repeat(1 << 20))).toEqual([]);
    expect(findUrlCredentials(`https://${'a'.repeat(1 << 20)}`)).toEqual([]);
    expect(findUrlCredentials(`https://${'a:'.repeat(1 << 19)}`)).toEqual([]);
    expect(findUrlCredentials('a://'.repeat(262_144))).toEqual([]);
    expect(findUrlCredentials('a://b:c@'.repeat(131_072))).toEqual([]);
  });
});
