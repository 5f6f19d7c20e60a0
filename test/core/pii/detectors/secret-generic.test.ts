// The generic assignment rule: a value under a secret-naming key, masked when it passes the
// entropy gate. Values are assembled at run time from helpers.body (8 and more distinct
// characters: 3 bits per character and up) so that this file holds no literal secret.
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../../src/core/pii/detectors/secret.js';
import { MIN_TOKEN_LENGTH, secretKeyMinLength } from '../../../../src/core/pii/detectors/secret-generic.js';
import {
  MIN_SECRET_ENTROPY,
  MIN_SECRET_LENGTH,
  passesEntropyGate,
  shannonEntropy,
} from '../../../../src/core/pii/detectors/secret-values.js';
import { body, matchedTexts } from '../helpers.js';

const PW = body(12); // a password: 12 distinct characters
const TOKEN = body(40); // a machine-issued token

describe('generic assignments: the value of a secret-naming key', () => {
  it.each([
    ['env file', `DB_PASSWORD=${PW}`, PW],
    ['dotted key', `db.password: ${PW}`, PW],
    ['camelCase key, quoted', `dbPassword = "${PW}"`, PW],
    ['single quotes', `SECRET_KEY = '${TOKEN}'`, TOKEN],
    ['JSON member', `{"client_secret": "${TOKEN}", "scope": "read"}`, TOKEN],
    ['JSON inside a JSON string', `{\\"api_key\\":\\"${TOKEN}\\"}`, TOKEN],
    ['HTTP header with a scheme', `Authorization: Bearer ${TOKEN}`, TOKEN],
    ['quoted header value with a scheme', `"Authorization": "Basic ${TOKEN}"`, TOKEN],
    ['Go :=', `password := "${PW}"`, PW],
    ['PHP/Ruby =>', `'password' => '${PW}',`, PW],
    ['header with dashes', `x-api-key: ${TOKEN}`, TOKEN],
    ['name ending in the word', `PGPASSWORD=${PW}`, PW],
    ['command-line flag', `psql --password=${PW} -h db`, PW],
    ['query string', `?user=app&password=${PW}&ssl=true`, PW],
    ['ADO.NET connection string', `Server=db;User Id=sa;Password=${PW};`, PW],
    ['camelCase apiKey', `apiKey: "${TOKEN}",`, TOKEN],
    ['qualifier after the word', `SECRET_KEY_BASE=${TOKEN}`, TOKEN],
    ['npmrc auth token', `//registry.npmjs.org/:_authToken=${TOKEN}`, TOKEN],
    ['YAML', `  access_token: ${TOKEN}\n  expires_in: 3600`, TOKEN],
    ['trailing full stop', `Use token: ${TOKEN}.`, TOKEN],
    ['credentials', `AZURE_CREDENTIALS=${TOKEN}`, TOKEN],
    ['provider key without a format', `MISTRAL_API_KEY=${body(32)}`, body(32)],
  ])('masks only the value (%s)', (_name, text, value) => {
    expect(matchedTexts(findSecrets, text)).toEqual([value]);
  });

  it.each([
    // Names that are not secrets (counts, settings, positions in a list).
    ['a count', 'tokens: 1234'],
    ['a limit', 'max_tokens=256'],
    ['a counter name', 'token_count: 99'],
    ['a tokenizer', 'tokenizer: o200k_base'],
    ['a policy', 'password_policy = strict'],
    ['a game', 'secret_santa = alice'],
    ['usage in JSON', '{"input_tokens": 1532, "output_tokens": 377}'],
    ['a pagination token', `next_page_token: ${TOKEN}`],
    ['a camelCase pagination token', `"nextPageToken": "${TOKEN}"`],
    ['a vocabulary token', 'eos_token: "</s>"'],
    ['a public key', `public_key: ${TOKEN}`],
    ['a bare key', `key: ${TOKEN}`],
    ['a sort key', `sort_key = "${TOKEN}"`],
    // Code: calls, member accesses, indexes, identifiers, types, comparisons, templates.
    ['a call', 'password = getPassword()'],
    ['an awaited call', 'token = await fetchToken()'],
    ['a member access', 'const token = req.headers.authorization'],
    ['an index', 'token = tokens[i]'],
    ['an environment lookup', 'secret = os.environ["SECRET"]'],
    ['a method chain', 'token = self.tokenizer.encode(text)'],
    ['a negation', 'const hasExclamationToken = !!node.exclamationToken;'],
    ['a variable of the same name', 'password = password'],
    ['a camelCase variable', 'token = authorizationHeaderValueFromReq'],
    ['a type annotation', 'password: str'],
    ['a TypeScript type', 'token: string;'],
    ['a comparison', `if (password == "${PW}")`],
    ['a template literal', 'proxyAuth: `${proxyUrl.username}:${proxyUrl.password}`'],
    // Found in real code and docs (a sweep of node_modules).
    ['a type alias', 'type SemicolonToken = SemicolonToken$1;'],
    ['a type annotation of a class', 'password: URLPatternComponentResult;'],
    ['a constant naming a key', 'const ssrDynamicImportKey = `__vite_ssr_dynamic_import__`;'],
    ['a symbol-named constant', 'withCredentials: kEnumerableProperty,'],
    ['minified code', 'return e.key=this.type===_.num||this.type===_.string'],
    ['base64 data', 'SGFyZA== IGRpYWxvZw== 5pw= IHBvc2Vz IHNsb3Rz'],
    ['an example that spells out what it is', 'auth: "mypersonalaccesstoken123",'],
    // Placeholders and references.
    ['${VAR}', 'password=${DB_PASS}'],
    ['$VAR', 'password: $PASSWORD'],
    ['process.env', 'api_key=process.env.OPENAI_API_KEY'],
    ['<placeholder>', 'password: <password>'],
    ['changeme', 'password=changeme'],
    ['stars', 'token: ***'],
    ['a boolean', 'secret: true'],
    ['null', 'password: null'],
    ['YOUR_API_KEY', 'api_key = YOUR_API_KEY'],
    ['a constant name', 'secret_key = SECRET_KEY_BASE'],
    ['an already masked value', 'password=[REDACTED_SECRET]'],
    // Paths, URLs and numbers.
    ['a path', 'PWD=/home/user/project'],
    ['a relative file', 'token_file: ./secrets/token.txt'],
    ['a URL', 'auth_url=https://example.com/oauth'],
    ['a date', 'token=2024-01-01T00:00:00Z'],
    // Prose.
    ['prose', 'The password is long and the token expired.'],
    ['a heading', 'Token: see below'],
  ])('ignores %s', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});

describe('generic assignments: the entropy gate', () => {
  it('has the documented thresholds', () => {
    expect([MIN_SECRET_LENGTH, MIN_SECRET_ENTROPY, MIN_TOKEN_LENGTH]).toEqual([8, 3.0, 16]);
  });

  it.each([
    // [value, entropy in bits per character (rounded to 0.01)]
    [body(8), 3],
    ['aaaa1111', 1],
    ['password1', 2.95],
    [`${body(7)}${body(1)}`, 2.75],
    [body(32), 5],
  ])('measures the Shannon entropy of %j', (value, bits) => {
    expect(shannonEntropy(value)).toBeCloseTo(bits, 2);
  });

  it('masks a password of 8 distinct characters (3.0 bits each), not 7', () => {
    expect(matchedTexts(findSecrets, `password=${body(8)}`)).toEqual([body(8)]);
    expect(findSecrets(`password=${body(7)}`)).toEqual([]);
  });

  it.each([
    ['one repeated character (2.75 bits)', `${body(7)}${body(1)}`],
    ['low entropy', 'aaaa1111'],
    ['a word and a digit', 'password1'],
    ['digits only', '12345678'],
    ['a version', '1.22.3-45'],
  ])('does not mask a password value of %s', (_name, value) => {
    expect(findSecrets(`password=${value}`)).toEqual([]);
  });

  it('asks 16 characters of a token, a secret or a key: shorter is an id or a badge token', () => {
    expect(findSecrets(`secret=${body(15)}`)).toEqual([]);
    expect(findSecrets(`![badge](https://codecov.io/gh/o/r/graph/badge.svg?token=${body(10)})`)).toEqual([]);
    expect(matchedTexts(findSecrets, `secret=${body(16)}`)).toEqual([body(16)]);
  });

  it('rejects code and word shapes whatever their entropy', () => {
    expect(passesEntropyGate('request.headers.authorization')).toBe(false);
    expect(passesEntropyGate('authorizationHeaderValueFromRequest')).toBe(false);
    expect(passesEntropyGate('a_long_snake_case_variable_name')).toBe(false);
    expect(passesEntropyGate('DATABASE_PASSWORD_PRODUCTION')).toBe(false);
    expect(passesEntropyGate('src/auth/token.ts')).toBe(false);
    expect(passesEntropyGate('SemicolonToken$1')).toBe(false);
    expect(passesEntropyGate('kEnumerableProperty')).toBe(false);
    expect(passesEntropyGate('__vite_ssr_dynamic_import__')).toBe(false);
    expect(passesEntropyGate('this.type===_.num')).toBe(false);
    expect(passesEntropyGate('personal-access-token123')).toBe(false);
    expect(passesEntropyGate(body(24))).toBe(true);
    expect(passesEntropyGate(`${body(20)}==`)).toBe(true);
  });

  it('a timestamp after a password key is not a password (fast-check seed 1866862070)', () => {
    expect(findSecrets('1.2.3 pw: 2024-06-10T12:30:45Z')).toEqual([]);
    expect(findSecrets('password: 2024-06-10 12:30:45.123+02:00')).toEqual([]);
    expect(passesEntropyGate('2024-06-10T12:30:45Z')).toBe(false);
  });
});

describe('generic assignments: which keys name a secret', () => {
  const names = (key: string) => secretKeyMinLength(key, 0, key.length);

  it.each([
    ['password', 8],
    ['DB_PASSWORD', 8],
    ['db.password', 8],
    ['dbPassword', 8],
    ['PGPASSWORD', 8],
    ['passwd', 8],
    ['DB_PASS', 8],
    ['pwd', 8],
    ['passphrase', 8],
    ['secret', 16],
    ['client_secret', 16],
    ['clientSecret', 16],
    ['NEXTAUTH_SECRET', 16],
    ['token', 16],
    ['access_token', 16],
    ['GITHUB_TOKEN', 16],
    ['authToken', 16],
    ['api_key', 16],
    ['apiKey', 16],
    ['APIKey', 16],
    ['APIKEY', 16],
    ['x-api-key', 16],
    ['SECRET_KEY', 16],
    ['secret_access_key', 16],
    ['private_key', 16],
    ['auth', 16],
    ['basic_auth', 16],
    ['Authorization', 16],
    ['credentials', 16],
    ['SECRET_KEY_BASE', 16],
    ['token_value', 16],
  ])('%s names a secret', (key, min) => {
    expect(names(key)).toBe(min);
  });

  it.each([
    'tokens',
    'max_tokens',
    'token_count',
    'tokenizer',
    'password_policy',
    'secret_santa',
    'next_page_token',
    'pageToken',
    'eos_token',
    'bypass',
    'compass',
    'oauth',
    'author',
    'key',
    'public_key',
    'primaryKey_id',
    'sort_key',
    'keyboard',
    'monkey',
    'OLDPWD',
  ])('%s does not', (key) => {
    expect(names(key)).toBe(0);
  });
});
