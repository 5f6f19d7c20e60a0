import { describe, expect, it } from 'vitest';
import { emailDetector, findEmails } from '../../../../src/core/pii/detectors/email.js';
import { maskText } from '../../../../src/core/pii/mask.js';
import { matchedTexts } from '../helpers.js';

describe('email detector', () => {
  it.each([
    ['write to jane.doe@example.com today', ['jane.doe@example.com']],
    ['plus addressing: jane+billing@mail.example.org', ['jane+billing@mail.example.org']],
    ['subdomains: a_b-c%d@eu.west.mx.example.co.uk', ['a_b-c%d@eu.west.mx.example.co.uk']],
    ['sentence end: ask bob@corp.io.', ['bob@corp.io']],
    ['JSON: {"email":"mia.li38@example.com","dob":"1990"}', ['mia.li38@example.com']],
    ['mailto:ops@example.net', ['ops@example.net']],
    ['two: a@x.io, b@y.io', ['a@x.io', 'b@y.io']],
    ['escaped newline in JSON text: "hi\\nbob@x.io"', ['bob@x.io']],
    ['leading dots are not part of it: ...bob@x.io', ['bob@x.io']],
    ['URL with a user but no password: https://user@host.example.com/x', ['user@host.example.com']],
    ['a colon without a scheme before it: note:bob@x.com', ['bob@x.com']],
    ['a URL earlier in another token: see https://x.io then a:bob@x.com', ['bob@x.com']],
    ['a URL earlier in another JSON string: "https://u:p@h.example.com","e":"a:bob@y.com"', ['bob@y.com']],
    // A suffix glued on (a file named after the address, a counter) does not hide the address.
    ['file name: invoice-jane.doe@example.com.pdf', ['invoice-jane.doe@example.com']],
    ['two suffixes: jane@example.co.uk.tar.gz', ['jane@example.co.uk']],
    ['counter: jane.doe@example.com-0', ['jane.doe@example.com']],
    // Issue 34: the Claude Code reader appends `.0`, `.1`… to ids; a numeric label is no TLD, so
    // the address before it is the address (as with `-0`), and the counter stays.
    ['reader id: user@example.com.0', ['user@example.com']],
    ['"id":"msg-user@example.com.12"', ['msg-user@example.com']],
    ['two counters: jane@example.co.uk.0.1', ['jane@example.co.uk']],
    ['ends a sentence: user@example.com.0.', ['user@example.com']],
    // URL-encoded (issue 30): `%40` is the `@` of a query string's address.
    ['GET /lookup?email=Jane.Doe%40example.com&include=teams', ['Jane.Doe%40example.com']],
    ['mailto:ops%2Balerts%40example.org', ['ops%2Balerts%40example.org']],
    ['a%40b then bob@x.com', ['bob@x.com']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findEmails, text)).toEqual(expected);
  });

  it.each([
    ['user@localhost', 'no dot-TLD'],
    ['a@b', 'no dot-TLD'],
    ['react@18.2.0 and lodash@4.17.21', 'npm package@version: numeric TLD'],
    ['react@18.2.0.1 and pkg@1.2.3-rc.0', 'a numeric suffix does not make a version an address'],
    ['x@self.weight.T.0', 'a counter after a one-letter TLD'],
    ['import x from "@types/node"', 'npm scope: nothing before the @'],
    ['icon@2x.png and logo@3x.webp', 'retina asset names: file extension, not a TLD'],
    ['git@github.com:org/repo.git', 'SCP-style git remote, not a mailbox'],
    ['https://user:pw@host.example.com/x', "URL userinfo: the password, not a mailbox's local part"],
    ['postgres://app:s3cret@db.example.com/x', 'database URL credentials'],
    ['redis://:s3cret@cache.example.com:6379/0', 'password without a user'],
    ['@decorator\ndef f(): pass', 'Python decorator'],
    ['bob@-bad.example.com', 'label starting with a hyphen'],
    ['x@self.weight.T', 'matrix product in Python: one-letter TLD'],
    ['[REDACTED_EMAIL] and [REDACTED_EMAIL]', 'already masked'],
    ['mail me @ noon', 'a lone @'],
  ])('ignores %j (%s)', (text) => {
    expect(findEmails(text)).toEqual([]);
  });

  it('reports UTF-16 offsets after astral characters', () => {
    const text = '😀 é bob@x.io';
    const [m] = findEmails(text);
    expect(m && text.slice(m.start, m.end)).toBe('bob@x.io');
    expect(m?.start).toBe(5);
  });

  it('masks the address of `user@example.com.0` and keeps the `.0`, like `-0` (issue 34)', () => {
    const text = '{"uuid":"user@example.com.0","parent":"user@example.com-0"}';
    const masked = maskText(text, [emailDetector()], { replacement: '[{TYPE}]', allow: [] }).text;
    expect(masked).toBe('{"uuid":"[EMAIL].0","parent":"[EMAIL]-0"}');
  });
});
