import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { findSecrets, secretDetector } from '../../../../src/core/pii/detectors/secret.js';
import { fcOptions } from '../../../support/fc.js';
import { body, matchedTexts } from '../helpers.js';

const HEX = '0123456789abcdef';
const b64url = (s: string) => btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const jwt = `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url('{"sub":"1234567890"}')}.${body(43)}`;
const pem = (label: string, lines: string[]) =>
  [`-----BEGIN ${label}-----`, ...lines, `-----END ${label}-----`].join('\n');

// Fixtures are assembled from prefix + body at run time (see helpers.body).
const POSITIVES: [string, string][] = [
  ['AWS access key id', `AKIA${body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
  ['AWS temporary access key id', `ASIA${body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}`],
  ['GitHub classic PAT', `ghp_${body(36)}`],
  ['GitHub OAuth token', `gho_${body(36)}`],
  ['GitHub user-to-server token', `ghu_${body(36)}`],
  ['GitHub server-to-server token', `ghs_${body(36)}`],
  ['GitHub refresh token', `ghr_${body(36)}`],
  ['GitHub fine-grained PAT', `github_pat_${body(22)}_${body(59)}`],
  ['GitLab PAT', `glpat-${body(20)}`],
  ['Google API key', `AIza${body(35)}`],
  ['Google OAuth client secret', `GOCSPX-${body(28)}`],
  ['OpenAI project key', `sk-proj-${body(100)}`],
  ['OpenAI legacy key', `sk-${body(48)}`],
  ['Anthropic key', `sk-ant-api03-${body(93)}-${body(6)}`],
  ['Slack bot token', `xoxb-${body(12, '0123456789')}-${body(13, '0123456789')}-${body(24)}`],
  ['Slack user token', `xoxp-${body(12, '0123456789')}-${body(24)}`],
  [
    'Slack app-level token',
    `xapp-1-A${body(10, 'ABCDEFGHIJ0123456789')}-${body(13, '0123456789')}-${body(64, HEX)}`,
  ],
  [
    'Slack webhook',
    `https://hooks.slack.com/services/T${body(8, 'ABC123')}/B${body(8, 'DEF456')}/${body(24)}`,
  ],
  ['Stripe live secret key', `sk_live_${body(24)}`],
  ['Stripe test secret key', `sk_test_${body(24)}`],
  ['Stripe restricted key', `rk_live_${body(24)}`],
  ['Twilio API key SID', `SK${body(32, HEX)}`],
  ['SendGrid key', `SG.${body(22)}.${body(43)}`],
  ['npm token', `npm_${body(36)}`],
  ['PyPI token', `pypi-AgEIcHlwaS5vcmc${body(60)}`],
  ['Hugging Face token', `hf_${body(34)}`],
  ['Discord bot token', `MT${body(22)}.${body(6)}.${body(27)}`],
  ['JWT', jwt],
  ['PEM RSA key', pem('RSA PRIVATE KEY', [body(64), body(64), `${body(20)}==`])],
  ['PEM PKCS#8 key', pem('PRIVATE KEY', [body(64)])],
  ['PEM OpenSSH key', pem('OPENSSH PRIVATE KEY', [body(70)])],
  ['PEM encrypted key', pem('ENCRYPTED PRIVATE KEY', [body(64)])],
  ['PGP private key block', pem('PGP PRIVATE KEY BLOCK', ['', body(64), `=${body(4)}`])],
];

const AWS_VALUE = body(40, 'ABCDEFabcdef0123456789/+');
const AWS_NAMED: [string, string][] = [
  ['env file', `AWS_SECRET_ACCESS_KEY=${AWS_VALUE}`],
  ['credentials file', `aws_secret_access_key = ${AWS_VALUE}`],
  ['STS JSON', `"SecretAccessKey": "${AWS_VALUE}"`],
];

/** Texts that hold a format's prefix (or look like a secret) but no secret. */
const DECOYS = [
  'pip install scikit-learn; use sk-learn',
  'task-list disk-usage',
  'TASK: ASK about the DISK',
  `ghp_${body(20)}`,
  `myghp_${body(36)}`, // glued to letters; after `my_` it is a token in an id (issue 34)
  `AKIA${body(15, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`,
  `eyJ${body(20)}.${body(20)}.${body(10)}`,
  '-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----',
  `hf_${body(34)}_more`,
  'aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}',
  'M12345678901234567890123.abcdef.12345',
  'see https://hooks.slack.com/ for details',
  'npm_config_cache and xoxo and SG.x',
  '[REDACTED_SECRET]',
];

describe('secret detector', () => {
  it.each(POSITIVES)('finds a %s', (_name, secret) => {
    expect(matchedTexts(findSecrets, `token: ${secret} (rotate it)`)).toEqual([secret]);
  });

  it.each(AWS_NAMED)('masks only the value of an AWS secret access key (%s)', (_name, text) => {
    expect(matchedTexts(findSecrets, text)).toEqual([body(40, 'ABCDEFabcdef0123456789/+')]);
  });

  it('masks a value of the wrong length after the AWS key name too (generic assignment rule)', () => {
    // Not the 40-character AWS format, but still a high-entropy value under a secret-naming key.
    expect(matchedTexts(findSecrets, `aws_secret_access_key = ${body(39)}`)).toEqual([body(39)]);
  });

  it('masks a PEM key in a JSON string (escaped newlines) up to its END line', () => {
    const text = `{"key":"-----BEGIN PRIVATE KEY-----\\n${body(64)}\\n-----END PRIVATE KEY-----\\n","next":1}`;
    const [found] = matchedTexts(findSecrets, text);
    expect(found).toBe(`-----BEGIN PRIVATE KEY-----\\n${body(64)}\\n-----END PRIVATE KEY-----`);
  });

  it('masks a truncated PEM key (no END line) up to the end of its body', () => {
    const text = `cat key.pem\n-----BEGIN RSA PRIVATE KEY-----\n${body(64)}\n${body(30)}"} (output truncated)`;
    expect(matchedTexts(findSecrets, text)).toEqual([
      `-----BEGIN RSA PRIVATE KEY-----\n${body(64)}\n${body(30)}`,
    ]);
  });

  it.each([
    [`pk_live_${body(24)}`, 'Stripe publishable key: meant to be public'],
    [`AC${body(32, HEX)}`, 'Twilio account SID: an account id, not a credential'],
    ['3f786850e387550fdab836ed7e6dc881de23001b', 'git SHA'],
    ['123e4567-e89b-12d3-a456-426614174000', 'UUID'],
    ['pip install scikit-learn; use sk-learn', 'prose containing sk-'],
    ['task-list disk-usage', 'words ending in sk-'],
    [`ghp_${body(20)}`, 'GitHub prefix with too short a body'],
    [`AKIA${body(15, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`, 'AWS prefix with 15 characters'],
    [`XAKIA${body(16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')}`, 'AWS-like run inside a longer upper-case token'],
    [`myghp_${body(36)}`, 'prefix glued to a word (after `my_` it is a token in an id: issue 34)'],
    [
      `${b64url('{"foo":1,"bar":2}')}.${b64url('{"x":1}')}.${body(10)}`,
      'JWT-shaped but the header has no alg',
    ],
    [`eyJ${body(20)}.${body(20)}.${body(10)}`, 'JWT-shaped but the header is not JSON'],
    ['-----BEGIN PUBLIC KEY-----\nMFkwEwYH\n-----END PUBLIC KEY-----', 'public key'],
    ['-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----', 'certificate'],
    ['aws_secret_access_key = ${AWS_SECRET_ACCESS_KEY}', 'AWS key name with a reference, not a value'],
    [`hf_${body(34)}_more`, 'Hugging Face-like identifier continuing with _'],
    ['M12345678901234567890123.abcdef.12345', 'Discord-like but the last part is too short'],
    ['[REDACTED_SECRET]', 'already masked'],
  ])('ignores %j (%s)', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('secret detector on texts that mix formats', () => {
  // Fragments are joined with ' | ', which ends every token, so each fragment's secrets are found
  // exactly as when it stands alone, wherever other fragments (and their prefixes) come first.
  const fragments: [string, string[]][] = [
    ...POSITIVES.map(([, secret]): [string, string[]] => [secret, [secret]]),
    ...AWS_NAMED.map(([, text]): [string, string[]] => [text, [AWS_VALUE]]),
    ...DECOYS.map((text): [string, string[]] => [text, []]),
  ];

  it('finds every secret of every fragment, whatever comes before it', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...fragments), { maxLength: 12 }), (picked) => {
        const text = picked.map(([fragment]) => fragment).join(' | ');
        expect(matchedTexts(findSecrets, text)).toEqual(picked.flatMap(([, secrets]) => secrets));
      }),
      fcOptions(500),
    );
  });

  it('finds them all in one text holding every format, in either order', () => {
    const expected = fragments.flatMap(([, secrets]) => secrets);
    const text = fragments.map(([fragment]) => fragment).join(' | ');
    expect(matchedTexts(findSecrets, text)).toEqual(expected);
    const reversed = [...fragments].reverse();
    expect(matchedTexts(findSecrets, reversed.map(([fragment]) => fragment).join(' | '))).toEqual(
      reversed.flatMap(([, secrets]) => secrets),
    );
  });

  it('finds a key after its prefix first occurs inside ordinary words', () => {
    const key = `sk-${body(48)}`;
    expect(matchedTexts(findSecrets, `task-list disk-usage ${'x'.repeat(1000)} ${key}`)).toEqual([key]);
    const sid = `SK${body(32, HEX)}`;
    expect(matchedTexts(findSecrets, `TASK DISK ASK MASK ${sid}`)).toEqual([sid]);
  });
});

describe('secret detector with a type hint (the value of a secret-naming JSON key)', () => {
  const SECRET = new Set(['secret']);
  const whole = (text: string) => findSecrets(text, SECRET).map((m) => text.slice(m.start, m.end));

  it.each([
    ['a short password', body(7)],
    ['a passphrase with spaces', `${body(5)} ${body(6)} ${body(4)}`],
    ['a value a format rule would cut short', `ghp_${body(36)}.${body(3)}`],
    ['code-looking text (the key says what it is)', `get${body(6)}()`],
  ])('masks the whole value: %s', (_name, value) => {
    expect(whole(value)).toEqual([value]);
  });

  it('trims surrounding whitespace', () => {
    const value = `${body(6)} ${body(6)}`;
    expect(whole(`  \n${value}\t `)).toEqual([value]);
  });

  it.each([
    ['empty', ''],
    ['whitespace', '   '],
    ['a redaction token', '[REDACTED_SECRET]'],
    ['another redaction token', '[REDACTED_PASSWORD]'],
    ['a value masked in part', 'Bearer [REDACTED_SECRET]'],
    ['a ${VAR} reference', '${DB_PASS}'],
    ['a $VAR reference', '$PASSWORD'],
    ['a GitHub Actions expression', '${{ secrets.DEPLOY_TOKEN }}'],
    ['process.env', 'process.env.DB_PASSWORD'],
    ['os.environ', "os.environ['DB_PASSWORD']"],
    ['an <angle> placeholder', '<password>'],
    ['a {brace} placeholder', '{password}'],
    ['changeme', 'changeme'],
    ['stars', '********'],
    ['xxx', 'xxxx-xxxx'],
    ['YOUR_API_KEY', 'YOUR_API_KEY'],
    ['true', 'true'],
    ['false', 'false'],
    ['null', 'null'],
    ['a number', '1234'],
    ['the key word itself', 'password'],
  ])('leaves %s alone', (_name, value) => {
    expect(findSecrets(value, SECRET)).toEqual([]);
  });

  it('falls back to the usual scan when the value is not masked whole', () => {
    const token = `ghp_${body(36)}`;
    expect(findSecrets(`Bearer [REDACTED_SECRET] ${token}`, SECRET).length).toBe(1);
  });

  it('ignores hints that do not name a secret', () => {
    expect(findSecrets(body(7), new Set(['phone']))).toEqual([]);
    expect(findSecrets(body(7), new Set())).toEqual([]);
  });

  it('is the detector the registry builds', () => {
    const detector = secretDetector();
    expect(detector.type).toBe('secret');
    expect(detector.find(body(7), SECRET)).toEqual([{ type: 'secret', start: 0, end: 7 }]);
  });
});

describe('secret detector matches', () => {
  it('merges a format match and an assignment match of the same token into one', () => {
    const token = `ghp_${body(36)}`;
    expect(findSecrets(`GITHUB_TOKEN=${token}`)).toEqual([
      { type: 'secret', start: 13, end: 13 + token.length },
    ]);
  });

  it('never carries the value', () => {
    const [m] = findSecrets(`DB_PASSWORD=${body(12)}`);
    expect(Object.keys(m!).sort()).toEqual(['end', 'start', 'type']);
  });
});

describe('secret detector on adversarial input (linear time)', () => {
  // Each input is 1 MB or so; a quadratic rule would not finish within the test timeout.
  const MB = 1_000_000;
  it.each([
    ['letters', 'a'.repeat(MB)],
    ['colons', ':'.repeat(MB)],
    ['equal signs', '='.repeat(MB)],
    ['dots', '.'.repeat(MB)],
    ['underscores', '_'.repeat(MB)],
    ['dashes', '-'.repeat(MB)],
    ['upper case', 'A'.repeat(MB)],
    ['key, colon', 'a:'.repeat(MB / 2)],
    ['URL schemes', 'a://'.repeat(MB / 4)],
    ['scheme then colons', `x://${':'.repeat(MB)}`],
    ['at signs after a scheme', `x://${'a@'.repeat(MB / 2)}`],
    ['GitHub prefixes', 'ghs_'.repeat(MB / 4)],
    ['OpenAI prefixes', 'sk-'.repeat(MB / 3)],
    ['Twilio prefixes', 'SK'.repeat(MB / 2)],
    ['Vault prefixes', 'hvs.'.repeat(MB / 4)],
    ['Doppler prefixes', 'dp.st.'.repeat(MB / 6)],
    ['JWT prefixes', 'eyJ.'.repeat(MB / 4)],
    ['Discord-like dots', 'M23456789012345678901234.abcdef.'.repeat(MB / 32)],
    ['a long identifier before a key', `${'a'.repeat(MB)}password=x`],
    ['blanks after a key', `password${' '.repeat(MB)}=x`],
    ['an unterminated quoted value', `password="${'a'.repeat(MB)}`],
    ['a PEM header without a key', `-----BEGIN ${'A'.repeat(MB)}`],
  ])('finds nothing in %s', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    ['repeated assignments', 'password='.repeat(MB / 9)],
    ['repeated JSON members', '"token":"'.repeat(MB / 9)],
  ])('stays linear on %s', (_name, text) => {
    // Whatever it masks, it masks within the text and without overlaps.
    const found = findSecrets(text);
    for (const [i, m] of found.entries()) {
      expect(m.start).toBeGreaterThanOrEqual(i === 0 ? 0 : found[i - 1]!.end);
      expect(m.end).toBeLessThanOrEqual(text.length);
    }
  });

  it('finds a real token after a 1 MB run of decoys', () => {
    const token = `ghp_${body(36)}`;
    const text = `${'sk-'.repeat(MB / 3)} ${'password='.repeat(1000)} ${token}`;
    expect(matchedTexts(findSecrets, text)).toContain(token);
  });
});
