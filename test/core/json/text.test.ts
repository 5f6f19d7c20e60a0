import { describe, expect, it } from 'vitest';
import { DEFAULT_MAX_DEPTH } from '../../../src/core/json/parse.js';
import { nestedDeeperThan, parseJsonText } from '../../../src/core/json/text.js';

const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('nestedDeeperThan', () => {
  it('counts the arrays and objects open at once, not the total', () => {
    expect(nestedDeeperThan(nested(3), 3)).toBe(false);
    expect(nestedDeeperThan(nested(4), 3)).toBe(true);
    expect(nestedDeeperThan('[[1],[2],[3],{"a":[4]}]', 3)).toBe(false);
    expect(nestedDeeperThan('{"a":{"b":{"c":{}}}}', 3)).toBe(true);
  });

  it('does not count brackets inside strings, escaped quotes included', () => {
    expect(nestedDeeperThan('["[[[[", "{{{{"]', 1)).toBe(false);
    expect(nestedDeeperThan('["\\"[[[[\\\\", [1]]', 1)).toBe(true);
    expect(nestedDeeperThan('["\\"[[[["]', 1)).toBe(false);
  });

  it('sees an unterminated run of brackets', () => {
    expect(nestedDeeperThan('['.repeat(DEFAULT_MAX_DEPTH + 1), DEFAULT_MAX_DEPTH)).toBe(true);
  });
});

describe('parseJsonText', () => {
  it('parses what JSON.parse parses, up to the readers’ depth', () => {
    for (const text of ['{"a":[1,{"b":"[["}]}', '"x"', '3', nested(DEFAULT_MAX_DEPTH)]) {
      expect(parseJsonText(text)).toEqual(JSON.parse(text));
    }
  });

  it('throws a SyntaxError past the depth, as JSON.parse does on a text that is not JSON', () => {
    expect(() => parseJsonText(nested(DEFAULT_MAX_DEPTH + 1))).toThrow(SyntaxError);
    expect(() => parseJsonText(`{"a":${'['.repeat(1 << 20)}}`)).toThrow(SyntaxError);
    expect(() => parseJsonText('{"a":')).toThrow(SyntaxError);
  });
});
