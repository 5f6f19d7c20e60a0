import { describe, expect, it } from 'vitest';
import { parseJson } from '../../../src/core/json/parse.js';

const CANARY = 'SECRET-CANARY-123';

function value(text: string): unknown {
  const r = parseJson(text, { file: 't.json' });
  if (!r.ok) throw new Error(`unexpected failure: ${r.error.code} ${r.error.message}`);
  return r.value;
}

/** code, line:column and message of the failure; the hint is checked separately. */
function failure(text: string, opts: { firstLine?: number; maxDepth?: number } = {}) {
  const r = parseJson(text, { file: 'dir/t.json', ...opts });
  if (r.ok) throw new Error('expected a failure');
  expect(r.error.severity).toBe('error');
  expect(r.error.file).toBe('dir/t.json');
  expect(r.error.hint).not.toBe('');
  return `${r.error.code} ${r.error.line}:${r.error.column} ${r.error.message}`;
}

describe('parseJson: values', () => {
  it('parses every JSON type like JSON.parse', () => {
    const text =
      '{"s":"a\\"b\\\\c\\/d\\b\\f\\n\\r\\t\\u00e9","n":[0,-0,1.5,-2e3,1E+2,3e-1],"t":true,"f":false,"z":null,"o":{},"a":[]}';
    expect(value(text)).toEqual(JSON.parse(text));
    expect(Object.is(value('-0'), -0)).toBe(true);
    expect(value('1e400')).toBe(Infinity);
    expect(value(' \t\r\n "x" \r\n')).toBe('x');
  });

  it('keeps lone surrogates from \\u escapes, as JS strings do', () => {
    expect(value('"\\ud800"')).toBe('\ud800');
    expect(value('"\\udc00x\\uD83D\\uDE00"')).toBe('\udc00x😀');
  });

  it('makes __proto__ an own property instead of changing the prototype', () => {
    const v = value('{"__proto__":{"polluted":true},"a":1}') as Record<string, unknown>;
    expect(Object.getPrototypeOf(v)).toBe(Object.prototype);
    expect(Object.keys(v)).toEqual(['__proto__', 'a']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('treats inherited names such as constructor as ordinary keys', () => {
    expect(value('{"constructor":1,"toString":2}')).toEqual({ constructor: 1, toString: 2 });
  });

  it('records the start position of every object and array', () => {
    const text = '{\n  "messages": [\n    {"role": "user"},\r\n\t[ {} ]\n  ]\n}';
    const r = parseJson(text, { file: 't.json' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const root = r.value as { messages: [object, [object]] };
    expect(r.positions.get(root)).toEqual({ line: 1, column: 1 });
    expect(r.positions.get(root.messages)).toEqual({ line: 2, column: 15 });
    expect(r.positions.get(root.messages[0])).toEqual({ line: 3, column: 5 });
    expect(r.positions.get(root.messages[1])).toEqual({ line: 4, column: 2 });
    expect(r.positions.get(root.messages[1][0])).toEqual({ line: 4, column: 4 });
  });

  it('offsets lines by firstLine (JSONL records)', () => {
    const r = parseJson('{"a": [1]}', { file: 't.jsonl', firstLine: 42 });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const v = r.value as { a: object };
    expect(r.positions.get(v)).toEqual({ line: 42, column: 1 });
    expect(r.positions.get(v.a)).toEqual({ line: 42, column: 7 });
  });

  it('counts columns in UTF-16 code units', () => {
    const r = parseJson('["😀é", {}]', { file: 't.json' });
    expect(r.ok && r.positions.get((r.value as object[])[1] as object)).toEqual({ line: 1, column: 9 });
  });
});

describe('parseJson: depth', () => {
  it('accepts 128 levels and rejects 129 at the opening bracket', () => {
    expect(parseJson('['.repeat(128) + ']'.repeat(128), { file: 'f' }).ok).toBe(true);
    expect(failure('['.repeat(129) + ']'.repeat(129))).toBe(
      'too-deep 1:129 The JSON nests deeper than 128 levels.',
    );
  });

  it('honours maxDepth and counts objects and arrays alike', () => {
    expect(failure('{"a":[{"b":1}]}', { maxDepth: 2 })).toBe(
      'too-deep 1:7 The JSON nests deeper than 2 levels.',
    );
    expect(parseJson('{"a":[{"b":1}]}', { file: 'f', maxDepth: 3 }).ok).toBe(true);
  });

  it('stays safe on very deep input (no stack overflow)', () => {
    expect(failure('['.repeat(200_000))).toMatch(/^too-deep 1:129 /);
  });
});

describe('parseJson: errors', () => {
  it('reports duplicate keys at the second key with the object path', () => {
    expect(failure('{"role": "user", "role": "assistant"}')).toBe(
      'duplicate-key 1:18 Duplicate key at $.role: the object already has a member with this key.',
    );
    expect(failure('{"messages": [{}, {}, {}, {"content": {"type": 1,\n "type": 2}}]}')).toBe(
      'duplicate-key 2:2 Duplicate key at $.messages[3].content.type: the object already has a member with this key.',
    );
  });

  it('never spells out keys that may be data in the duplicate-key path', () => {
    const long = 'k'.repeat(40);
    expect(failure(`{"${long}": {"a": 1, "a": 2}}`)).toContain('at $[…].a:');
    expect(failure(`{"x": {"${CANARY}": 1, "${CANARY}": 2}}`)).toContain('at $.x[…]:');
    expect(failure('{"jane@example.com": 1, "jane@example.com": 2}')).toContain('at $[…]:');
    expect(failure('{"ok_key$9": {"": 1, "": 2}}')).toContain('at $.ok_key$9[…]:');
  });

  it('reports truncation at the end of the content, naming what is left open', () => {
    expect(failure('{"a": [1, 2')).toBe(
      'truncated 1:12 The file ends inside an array that starts at line 1, column 7: it may have been cut off.',
    );
    expect(failure('{"a": 1,\n  \n')).toBe(
      'truncated 1:9 The file ends inside an object that starts at line 1, column 1: it may have been cut off.',
    );
    expect(failure('{"a"')).toMatch(/^truncated 1:5 The file ends inside an object /);
    expect(failure('{"a":')).toMatch(/^truncated 1:6 The file ends inside an object /);
    expect(failure('"abc\\')).toMatch(/^truncated 1:6 The file ends inside a string /);
    expect(failure('"\\u00')).toMatch(/^truncated 1:6 The file ends inside a string /);
    expect(failure('[-')).toMatch(
      /^truncated 1:3 The file ends inside a number that starts at line 1, column 2/,
    );
    expect(failure('[1.')).toMatch(/^truncated 1:4 The file ends inside a number /);
    expect(failure('[1e+')).toMatch(/^truncated 1:5 The file ends inside a number /);
    expect(failure('[tr')).toMatch(/^truncated 1:4 The file ends inside a literal /);
    expect(failure('[nul')).toMatch(/^truncated 1:5 The file ends inside a literal /);
  });

  it('speaks of the record and its file line when firstLine is given', () => {
    expect(failure('{"a": "b', { firstLine: 7 })).toBe(
      'truncated 7:9 The record ends inside a string that starts at line 7, column 7: it may have been cut off.',
    );
    expect(failure('{"a": 1} 2', { firstLine: 3 })).toBe(
      'json-syntax 3:10 Unexpected content after the end of the JSON value.',
    );
  });

  it('names each syntax error without quoting the input', () => {
    const cases: [string, string][] = [
      ['[1,]', 'json-syntax 1:3 Trailing comma before the end of an array.'],
      ['{"a":1,}', 'json-syntax 1:7 Trailing comma before the end of an object.'],
      ["{'a': 1}", 'json-syntax 1:2 Single-quoted key: JSON keys are double-quoted strings.'],
      ["['a']", 'json-syntax 1:2 Single-quoted string: JSON strings are double-quoted.'],
      ['{a: 1}', 'json-syntax 1:2 Expected an object key: keys must be double-quoted strings.'],
      ['{,}', 'json-syntax 1:2 Expected an object key (a double-quoted string).'],
      ['{"a" 1}', "json-syntax 1:6 Expected ':' after an object key."],
      [
        '{"a": 1 "b": 2}',
        "json-syntax 1:9 Expected ',' or '}' after an object member: a comma is missing between two members.",
      ],
      ['{"a": 1]', "json-syntax 1:8 Expected ',' or '}' after an object member."],
      ['[1 2]', "json-syntax 1:4 Expected ',' or ']' after an array element."],
      ['[,1]', 'json-syntax 1:2 Expected a value.'],
      ['{"a":}', 'json-syntax 1:6 Expected a value.'],
      ['[NaN]', 'json-syntax 1:2 NaN and Infinity are not JSON numbers.'],
      ['[Infinity]', 'json-syntax 1:2 NaN and Infinity are not JSON numbers.'],
      ['[-Infinity]', 'json-syntax 1:2 NaN and Infinity are not JSON numbers.'],
      ['[+1]', "json-syntax 1:2 Invalid number: JSON numbers may not start with '+'."],
      ['[.5]', 'json-syntax 1:2 Invalid number: a digit must come before the decimal point.'],
      ['[01]', 'json-syntax 1:2 Invalid number: leading zeros are not allowed.'],
      ['[-x]', "json-syntax 1:3 Invalid number: a digit must follow '-'."],
      ['[1.e5]', 'json-syntax 1:4 Invalid number: a digit must follow the decimal point.'],
      ['[1e]', 'json-syntax 1:4 Invalid number: the exponent needs at least one digit.'],
      ['[True]', 'json-syntax 1:2 Unexpected character where a value was expected.'],
      ['[nul]', 'json-syntax 1:2 Invalid literal: expected true, false or null.'],
      ['[truex]', "json-syntax 1:6 Expected ',' or ']' after an array element."],
      ['// c\n{}', 'json-syntax 1:1 Comments are not allowed in JSON.'],
      ['"a\tb"', 'json-syntax 1:3 A string contains an unescaped control character (U+0009).'],
      ['"a\\n\u0000"', 'json-syntax 1:5 A string contains an unescaped control character (U+0000).'],
      ['"a\nb"', 'json-syntax 1:3 A string contains an unescaped line break.'],
      ['"\\x41"', 'json-syntax 1:2 Invalid escape sequence in a string.'],
      [
        '"\\u12G4"',
        'json-syntax 1:2 Invalid \\u escape in a string: four hexadecimal digits must follow \\u.',
      ],
      ['{} []', 'json-syntax 1:4 Unexpected content after the end of the JSON value.'],
      ['\u00a0{}', 'json-syntax 1:1 Unexpected character where a value was expected.'],
    ];
    for (const [text, expected] of cases) expect(failure(text), text).toBe(expected);
  });

  it('reports empty and whitespace-only input as empty', () => {
    expect(failure('')).toBe('empty 1:1 The file holds no JSON value: it is empty or only whitespace.');
    expect(failure(' \r\n\t ', { firstLine: 5 })).toBe(
      'empty 5:1 The record holds no JSON value: it is empty or only whitespace.',
    );
  });

  it('gives positions on later lines after CRLF line ends', () => {
    expect(failure('{\r\n  "a": 1,\r\n  "a": 2\r\n}')).toMatch(/^duplicate-key 3:3 /);
  });

  it('never repeats planted secrets in message or hint', () => {
    const email = 'jane.doe@example.com';
    const bad = [
      `{"${CANARY}": '${email}'}`,
      `{"a": "${CANARY}" "${email}"}`,
      `["${CANARY}\t${email}"]`,
      `{"${CANARY}": 1, "${CANARY}": 2}`,
      `{"note": "${CANARY}", ${email}}`,
      `[${CANARY}]`,
      `{"${email}": "${CANARY}`,
      `["${CANARY}"] ${email}`,
      `["\\${CANARY}"]`,
    ];
    for (const text of bad) {
      const r = parseJson(text, { file: 'f.json' });
      expect(r.ok, text).toBe(false);
      if (r.ok) continue;
      for (const secret of [CANARY, email, 'CANARY', 'jane']) {
        expect(r.error.message, text).not.toContain(secret);
        expect(r.error.hint, text).not.toContain(secret);
      }
    }
  });
});
