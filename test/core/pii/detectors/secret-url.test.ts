// Credentials in URLs: only the password of `scheme://user:password@host` is masked. Passwords
// are assembled at run time from helpers.body.
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../../src/core/pii/detectors/secret.js';
import { body, matchedTexts } from '../helpers.js';

const PW = body(12);

/** The text with every match replaced, as the stabilizer's mask does. */
function masked(text: string): string {
  let out = '';
  let at = 0;
  for (const m of findSecrets(text)) {
    out += `${text.slice(at, m.start)}[REDACTED_SECRET]`;
    at = m.end;
  }
  return out + text.slice(at);
}

describe('secret detector: passwords in URLs', () => {
  it('keeps the user, host, port and database readable', () => {
    expect(masked(`DATABASE_URL=postgres://app:${PW}@db.internal:5432/orders`)).toBe(
      'DATABASE_URL=postgres://app:[REDACTED_SECRET]@db.internal:5432/orders',
    );
  });

  it.each([
    'postgres',
    'postgresql',
    'mysql',
    'mariadb',
    'mongodb',
    'mongodb+srv',
    'redis',
    'rediss',
    'amqp',
    'amqps',
    'mssql',
    'sqlserver',
    'jdbc:postgresql',
    'jdbc:mysql',
    'clickhouse',
    'http',
    'https',
    'ftp',
    'sftp',
    'git+https',
  ])('masks the password of a %s URL', (scheme) => {
    expect(matchedTexts(findSecrets, `connect to ${scheme}://app:${PW}@host.example:1234/db?x=1`)).toEqual([
      PW,
    ]);
  });

  it.each([
    ['no user name', `rediss://:${PW}@cache:6380/0`, PW],
    ['a short password (the URL frame says what it is)', `mysql://root:${body(4)}@localhost/app`, body(4)],
    ['a percent-encoded password', `postgres://app:p%40ss%3A${body(6)}@db/x`, `p%40ss%3A${body(6)}`],
    ['a raw @ in the password', `postgres://app:${body(5)}@${body(5)}@db/x`, `${body(5)}@${body(5)}`],
    [
      'a token as password of a git remote',
      `https://x-access-token:${body(40)}@github.com/o/r.git`,
      body(40),
    ],
    ['a MongoDB replica set', `mongodb://app:${PW}@h1:27017,h2:27017/db?replicaSet=rs0`, PW],
    ['a URL in a JSON string', `{"url":"amqp://guest:${PW}@rabbit:5672/vhost"}`, PW],
    ['a URL in Markdown', `[db](postgres://app:${PW}@db/x)`, PW],
  ])('masks %s', (_name, text, password) => {
    expect(matchedTexts(findSecrets, text)).toEqual([password]);
  });

  it.each([
    ['password', 'postgres://app:password@db/x'],
    ['pass', 'postgres://app:pass@db/x'],
    ['stars', 'postgres://app:****@db/x'],
    ['xxx', 'postgres://app:xxx@db/x'],
    ['<password>', 'postgres://app:<password>@db/x'],
    ['${DB_PASS}', 'postgres://app:${DB_PASS}@db/x'],
    ['$PASSWORD', 'postgres://app:$PASSWORD@db/x'],
    ['%s', 'postgres://app:%s@db/x'],
    ['{password}', 'postgres://app:{password}@db/x'],
    ['{password} percent-encoded', 'postgres://app:%7Bpassword%7D@db/x'],
    ['an empty password', 'postgres://app:@db/x'],
    ['an already masked password', 'postgres://app:[REDACTED_SECRET]@db/x'],
  ])('ignores the placeholder %s', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it.each([
    ['a user without a password', 'ssh://git@github.com/o/r.git'],
    ['a port', 'https://example.com:8443/path'],
    ['an @ in the path', 'https://example.com/users/@alice:1'],
    ['an @ in the query', `https://example.com/?next=a:${PW}@b`],
    ['an e-mail address', `mailto:alice@example.com and alice:${PW}@example.com`],
    ['a git SSH remote', 'git@github.com:o/r.git'],
    ['no scheme before ://', `://app:${PW}@db/x`],
  ])('ignores %s', (_name, text) => {
    expect(findSecrets(text)).toEqual([]);
  });
});
