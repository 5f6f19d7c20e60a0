// PII strategies at the masking level (issue 29): numbered and hashed aliases, the numbering table
// and its restore map, the templates' token patterns, and idempotence with aliases that hold digits.
import { createHmac } from 'node:crypto';
import { RE2JS } from 're2js';
import { describe, expect, it } from 'vitest';
import {
  PiiAliases,
  PiiKeyMissingError,
  aliasOf,
  hmacSha256,
  keyedHash,
  normalizeValue,
} from '../../../src/core/pii/aliases.js';
import { maskJsonText } from '../../../src/core/pii/mask-json.js';
import { findPii, maskText } from '../../../src/core/pii/mask.js';
import type { MaskOptions } from '../../../src/core/pii/mask.js';
import { createDetectors } from '../../../src/core/pii/registry.js';
import { labelTemplate, readAliases, renderTemplate } from '../../../src/core/pii/template.js';
import type { Detector } from '../../../src/core/pii/types.js';
import { body } from './helpers.js';

const NUMBERED = '[{TYPE}_{N}]';
const HASHED = '[{TYPE}_{HASH}]';
const rule = (name: string, pattern: string) => ({ name, re: RE2JS.compile(pattern) });
const detectors = (digitRun = 0, rules: { name: string; re: RE2JS }[] = []): Detector[] =>
  createDetectors({
    detectors: ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'],
    digit_run: digitRun,
    rules,
  });

function numbered(table = new PiiAliases()): MaskOptions {
  return { replacement: NUMBERED, allow: [], alias: aliasOf(NUMBERED, { aliases: table }) };
}

describe('numbered aliases', () => {
  it('numbers each distinct value per type in order of first occurrence; the same value keeps its number', () => {
    const text = 'bob@example.com wrote to ann@example.org; cc bob@example.com, call +44 20 7946 0958';
    expect(maskText(text, detectors(), numbered()).text).toBe(
      '[EMAIL_1] wrote to [EMAIL_2]; cc [EMAIL_1], call [PHONE_1]',
    );
  });

  it('compares values after normalization: address case, separators of numbers', () => {
    const table = new PiiAliases();
    const opts = numbered(table);
    const text = 'Bob@Example.com bob@example.com card 4111 1111 1111 1111 or 4111-1111-1111-1111';
    expect(maskText(text, detectors(), opts).text).toBe(
      '[EMAIL_1] [EMAIL_1] card [CREDIT_CARD_1] or [CREDIT_CARD_1]',
    );
    // The restore map gives back the first spelling met.
    expect(table.original('EMAIL', '1')).toBe('Bob@Example.com');
    expect(normalizeValue('iban', 'gb82 west 1234 5698 7654 32')).toBe('GB82WEST12345698765432');
    expect(normalizeValue('ip_address', '10.0.0.1')).toBe('10.0.0.1');
  });

  it('a URL-encoded address and a phone in another layout keep the alias of their plain form (issue 30)', () => {
    const opts = numbered(new PiiAliases());
    const text = 'from bob@example.com; GET /u?email=Bob%40Example.com; call (415) 555-0132 or 415-555-0132';
    expect(maskText(text, detectors(), opts).text).toBe(
      'from [EMAIL_1]; GET /u?email=[EMAIL_1]; call [PHONE_1] or [PHONE_1]',
    );
  });

  it('one table across texts: later texts continue the numbering', () => {
    const opts = numbered();
    expect(maskText('a@x.io', detectors(), opts).text).toBe('[EMAIL_1]');
    expect(maskText('b@x.io then a@x.io', detectors(), opts).text).toBe('[EMAIL_2] then [EMAIL_1]');
  });

  it('is idempotent: an alias is never detected again, not by digit_run nor by a rule matching digits', () => {
    const dets = detectors(2, [rule('ticket', '[0-9]+')]);
    const opts = numbered();
    const lines = Array.from({ length: 12 }, (_, i) => `user${String.fromCharCode(97 + i)}@x.io`).join(' ');
    const once = maskText(lines, dets, opts).text;
    expect(once).toContain('[EMAIL_12]');
    const twice = maskText(once, dets, opts);
    expect(twice).toEqual({ text: once, counts: {} });
    expect(findPii(once, dets, [], NUMBERED)).toEqual([]);
    // A fresh table masks nothing either: aliases are inert by their shape.
    expect(maskText(once, dets, numbered()).text).toBe(once);
  });

  it('an alias the transcript already holds (the model echoing it) is not renumbered', () => {
    const opts = numbered();
    expect(maskText('send to [EMAIL_7] and c@x.io', detectors(), opts).text).toBe(
      'send to [EMAIL_7] and [EMAIL_1]',
    );
  });

  it('JSON texts: a value written with an escape is the same value; keys hint types', () => {
    const table = new PiiAliases();
    const opts = numbered(table);
    const json =
      '{"to":"bob\\u0040example.com","cc":["bob@example.com","eve@example.com"],"phone":"4155552671"}';
    const r = maskJsonText(json, detectors(), opts);
    expect(r?.text).toBe('{"to":"[EMAIL_1]","cc":["[EMAIL_1]","[EMAIL_2]"],"phone":"[PHONE_1]"}');
    expect(JSON.parse(r?.text ?? '')).toBeTruthy();
    expect(table.original('EMAIL', '1')).toBe('bob@example.com');
    expect(maskJsonText(r?.text ?? '', detectors(), opts)?.text).toBe(r?.text);
  });

  it('secrets are numbered, never kept: not in the restore map, not even as the numbering key', () => {
    const table = new PiiAliases();
    const token = `ghp_${body(36)}`;
    const text = `token ${token} again ${token}, mail a@x.io`;
    expect(maskText(text, detectors(), numbered(table)).text).toBe(
      'token [SECRET_1] again [SECRET_1], mail [EMAIL_1]',
    );
    expect(table.original('SECRET', '1')).toBeUndefined();
    expect(table.original('EMAIL', '1')).toBe('a@x.io');
    expect(JSON.stringify([...Object.values(table)])).not.toContain(token);
    const held = (table as unknown as { numbers: Map<string, number> }).numbers;
    expect([...held.keys()].join('\n')).not.toContain(token);
  });
});

describe('hashed aliases', () => {
  it('HMAC-SHA256 matches node:crypto', () => {
    for (const [key, msg] of [
      ['k', 'email\u0000a@x.io'],
      ['a much longer key '.repeat(8), 'phone\u0000+442079460958'],
      ['', ''],
    ] as const) {
      const ours = Buffer.from(hmacSha256(key, msg)).toString('hex');
      expect(ours).toBe(createHmac('sha256', key).update(msg).digest('hex'));
    }
  });

  it('renders 8 base32 characters, the same for the same key, type and value, another under another key', () => {
    const h = keyedHash('k1', 'email', 'a@x.io');
    expect(h).toMatch(/^[a-z2-7]{8}$/);
    expect(keyedHash('k1', 'email', 'A@X.IO')).toBe(h);
    expect(keyedHash('k2', 'email', 'a@x.io')).not.toBe(h);
    expect(keyedHash('k1', 'phone', 'a@x.io')).not.toBe(h);
    const table = new PiiAliases();
    const opts = { replacement: HASHED, allow: [], alias: aliasOf(HASHED, { aliases: table, key: 'k1' }) };
    const out = maskText('a@x.io and a@x.io', detectors(), opts).text;
    expect(out).toBe(`[EMAIL_${h}] and [EMAIL_${h}]`);
    expect(table.original('EMAIL', h)).toBe('a@x.io');
    expect(maskText(out, detectors(2), opts).text).toBe(out);
  });

  it('without a key, masking a value throws PiiKeyMissingError, which names what to set', () => {
    const opts = { replacement: HASHED, allow: [], alias: aliasOf(HASHED, {}) };
    expect(() => maskText('a@x.io', detectors(), opts)).toThrow(PiiKeyMissingError);
    expect(() => maskText('a@x.io', detectors(), opts)).toThrow(/CONTEXT_STABILITY_PII_KEY|piiKey/);
    // Nothing found, nothing to hash.
    expect(maskText('no pii here', detectors(), opts).text).toBe('no pii here');
  });
});

describe('templates', () => {
  it('render {TYPE}, {N} and {HASH}; labels use the fixed form under a per-value template', () => {
    expect(renderTemplate(NUMBERED, 'credit_card', '3')).toBe('[CREDIT_CARD_3]');
    expect(renderTemplate('<{TYPE}:{HASH}>', 'email', 'abcdefgh')).toBe('<EMAIL:abcdefgh>');
    expect(labelTemplate(NUMBERED)).toBe('[REDACTED_{TYPE}]');
    expect(labelTemplate('***')).toBe('***');
    expect(aliasOf('[REDACTED_{TYPE}]')).toBeUndefined();
  });

  it('read aliases back with their type and part, whatever the template puts first', () => {
    expect(readAliases('x [CREDIT_CARD_12] y [EMAIL_3]', NUMBERED)).toEqual([
      { start: 2, end: 18, type: 'CREDIT_CARD', part: '12' },
      { start: 21, end: 30, type: 'EMAIL', part: '3' },
    ]);
    expect(readAliases('#3:EMAIL#', '#{N}:{TYPE}#')).toEqual([
      { start: 0, end: 9, type: 'EMAIL', part: '3' },
    ]);
    expect(readAliases('[REDACTED_EMAIL]', '[REDACTED_{TYPE}]')).toEqual([]);
  });

  it('a label form in the text is inert under a numbered template too', () => {
    expect(findPii('[REDACTED_EMAIL] [EMAIL_4]', detectors(2), [], NUMBERED)).toEqual([]);
  });
});

describe('reading aliases back stays linear (issue 34)', () => {
  it('a template that starts with {TYPE} on a long run of capitals', () => {
    const long = 'A'.repeat(160_000);
    const start = performance.now();
    expect(readAliases(long, '{TYPE}_{N}')).toEqual([]);
    // Unbounded, each start scanned the rest of the run: about 20 s here. Now milliseconds.
    expect(performance.now() - start).toBeLessThan(500);
    const rule = `R${'X'.repeat(62)}Z`;
    expect(readAliases(`x EMAIL_3 ${rule}_12`, '{TYPE}_{N}').map((a) => [a.type, a.part])).toEqual([
      ['EMAIL', '3'],
      [rule, '12'],
    ]);
  });
});
