import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { findPii, maskText, renderReplacement } from '../../../src/core/pii/mask.js';
import { builtinDetectors, createDetectors } from '../../../src/core/pii/registry.js';
import type { Detector } from '../../../src/core/pii/types.js';
import { body, luhnComplete } from './helpers.js';

const STD = '[REDACTED_{TYPE}]';
const rule = (name: string, pattern: string) => ({ name, re: RE2JS.compile(pattern) });
const all = (digitRun = 0, rules: { name: string; re: RE2JS }[] = []): Detector[] =>
  createDetectors({
    detectors: ['email', 'phone', 'ssn', 'credit_card', 'iban', 'ip_address', 'secret'],
    digit_run: digitRun,
    rules,
  });
const mask = (text: string, detectors: readonly Detector[], replacement = STD, allow: string[] = []) =>
  maskText(text, detectors, { replacement, allow });

describe('replacement', () => {
  it('renders {TYPE} as the upper-cased type, for built-ins and user rules', () => {
    const detectors = all(0, [rule('employee_id', 'EMP-\\d{6}')]);
    const text = 'jane@x.io paid with 4111 1111 1111 1111, badge EMP-123456';
    expect(mask(text, detectors).text).toBe(
      '[REDACTED_EMAIL] paid with [REDACTED_CREDIT_CARD], badge [REDACTED_EMPLOYEE_ID]',
    );
  });

  it('supports other shapes: several {TYPE}, none, or empty', () => {
    expect(renderReplacement('<{TYPE}:{TYPE}>', 'ip_address')).toBe('<IP_ADDRESS:IP_ADDRESS>');
    expect(mask('a@b.io', all(), '***').text).toBe('***');
    expect(mask('x a@b.io y', all(), '').text).toBe('x  y');
  });

  it('counts replaced regions per type and never returns the values', () => {
    const result = mask('a@b.io c@d.io 10.0.0.1 ghp_' + body(36), all());
    expect(result.counts).toEqual({ email: 2, ip_address: 1, secret: 1 });
    expect(JSON.stringify(result)).not.toMatch(/a@b\.io|10\.0\.0\.1|ghp_/);
  });

  it('leaves text without PII untouched, with no counts', () => {
    const text = 'Refactor parser.ts (v1.2.3), commit 3f786850e387550fdab836ed7e6dc881de23001b at 12:30:45.';
    expect(mask(text, all())).toEqual({ text, counts: {} });
  });
});

describe('overlaps', () => {
  it('masks the union once with the strongest type: credit_card over digit_run', () => {
    const card = luhnComplete('411111111111111');
    expect(mask(`card ${card}`, all(3))).toEqual({
      text: 'card [REDACTED_CREDIT_CARD]',
      counts: { credit_card: 1 },
    });
  });

  it('secret over email (a token used as URL user name)', () => {
    const text = `https://ghp_${body(36)}@github.com/org/repo`;
    expect(mask(text, all()).text).toBe('https://[REDACTED_SECRET]/org/repo');
  });

  it('iban over digit_run, user rules over digit_run, built-ins over user rules', () => {
    expect(mask('DE89370400440532013000', all(3)).text).toBe('[REDACTED_IBAN]');
    expect(mask('ORD-123456', all(3, [rule('order', 'ORD-\\d+')])).text).toBe('[REDACTED_ORDER]');
    expect(mask('jane@x.io', all(0, [rule('handle', '[a-z]+@')])).text).toBe('[REDACTED_EMAIL]');
  });

  it('between user rules, the first listed wins', () => {
    const rules = [rule('first', 'AB\\d'), rule('second', 'B\\dC')];
    expect(mask('xAB1Cx', all(0, rules)).text).toBe('x[REDACTED_FIRST]x');
    expect(mask('xAB1Cx', all(0, [...rules].reverse())).text).toBe('x[REDACTED_SECOND]x');
  });

  it('extends over partially overlapping matches; touching ones stay separate', () => {
    const d = all(3, [rule('code', 'abc\\d\\d')]);
    expect(mask('abc12345', d)).toEqual({ text: '[REDACTED_CODE]', counts: { code: 1 } });
    expect(mask('xyz123', all(3, [rule('word', 'xyz')])).text).toBe('[REDACTED_WORD][REDACTED_DIGIT_RUN]');
  });
});

describe('allow', () => {
  it('does not mask a match whose exact text is allowed', () => {
    const text = 'write support@example.com or jane@x.io';
    expect(mask(text, all(), STD, ['support@example.com']).text).toBe(
      'write support@example.com or [REDACTED_EMAIL]',
    );
  });

  it('protects the allowed literal from every detector, digit_run included', () => {
    expect(mask('bind 127.0.0.1 port 8080', all(3), STD, ['127.0.0.1']).text).toBe(
      'bind 127.0.0.1 port [REDACTED_DIGIT_RUN]',
    );
  });

  it('still masks a match that only contains an allowed literal', () => {
    expect(mask('host 10.0.0.10', all(), STD, ['10.0.0.1']).text).toBe('host [REDACTED_IP_ADDRESS]');
  });
});

describe('idempotence', () => {
  it('never re-masks a replacement, even one a detector would match', () => {
    const d = all(3, [rule('caps', '[A-Z_]+')]);
    const once = mask('id 12345 and JANE', d, '#{TYPE}-000#');
    expect(once.text).toBe('id #DIGIT_RUN-000# and #CAPS-000#');
    expect(mask(once.text, d, '#{TYPE}-000#')).toEqual({ text: once.text, counts: {} });
  });

  it('leaves replacements already in the input alone', () => {
    const text = 'was [REDACTED_EMAIL], now [REDACTED_PHONE]';
    expect(mask(text, all(2, [rule('r', 'REDACTED')]))).toEqual({ text, counts: {} });
  });

  it('masks what a deletion joins in the same call (empty replacement)', () => {
    const d = all(3, [rule('sep', 'XX')]);
    const once = mask('12XX3', d, '');
    expect(once.text).toBe('');
    expect(mask(once.text, d, '').text).toBe('');
  });

  it('masks a national number whose context word is a replacement, in the same call', () => {
    const text = '+44 20 7946 0958 or 415 555 2671';
    const once = mask(text, all());
    expect(once.text).toBe('[REDACTED_PHONE] or [REDACTED_PHONE]');
    expect(mask(once.text, all()).text).toBe(once.text);
  });
});

describe('findPii', () => {
  it('returns sorted, disjoint spans of type/start/end only', () => {
    const text = 'b@c.io 4111111111111111 a@b.io 10.0.0.1';
    const spans = findPii(text, builtinDetectors(), []);
    expect(spans.map((s) => text.slice(s.start, s.end))).toEqual([
      'b@c.io',
      '4111111111111111',
      'a@b.io',
      '10.0.0.1',
    ]);
    for (const s of spans) expect(Object.keys(s).sort()).toEqual(['end', 'start', 'type']);
  });

  it('treats rendered replacements as inert only when told the replacement', () => {
    const d = all(3);
    expect(findPii('#DIGIT_RUN-000#', d, [])).toHaveLength(1);
    expect(findPii('#DIGIT_RUN-000#', d, [], '#{TYPE}-000#')).toEqual([]);
  });

  it('ignores out-of-range and empty matches of a misbehaving detector', () => {
    const bad: Detector = {
      type: 'bad',
      find: () => [
        { type: 'bad', start: 2, end: 2 },
        { type: 'bad', start: -1, end: 3 },
        { type: 'bad', start: 1, end: 99 },
      ],
    };
    expect(findPii('hello', [bad], [])).toEqual([]);
  });
});
