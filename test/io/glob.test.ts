import { describe, it, expect } from 'vitest';
import { globBase, globDepth, globToRegExp, isGlob } from '../../src/io/glob.js';

describe('globToRegExp', () => {
  it.each([
    ['*.json', 'a.json', true],
    ['*.json', 'dir/a.json', false],
    ['*.json', 'a.jsonl', false],
    ['**/*.json', 'a.json', true],
    ['**/*.json', 'x/y/z/a.json', true],
    ['dir/**/*.jsonl', 'dir/a.jsonl', true],
    ['dir/**/*.jsonl', 'dir/sub/deeper/a.jsonl', true],
    ['dir/**/*.jsonl', 'other/a.jsonl', false],
    ['dir/**', 'dir/sub/a.txt', true],
    ['run-?.json', 'run-1.json', true],
    ['run-?.json', 'run-10.json', false],
    ['run-[0-4].json', 'run-3.json', true],
    ['run-[0-4].json', 'run-7.json', false],
    ['run-[!0-4].json', 'run-7.json', true],
    ['run-[!0-4].json', 'run-3.json', false],
    ['*.{json,jsonl}', 'a.jsonl', true],
    ['*.{json,jsonl}', 'a.json', true],
    ['*.{json,jsonl}', 'a.traj', false],
    ['{a,b*}/x.json', 'bcd/x.json', true],
    ['a.b(c)+.json', 'a.b(c)+.json', true],
    ['a.b(c)+.json', 'aXb(c)+.json', false],
    ['../corpus/*.json', '../corpus/t.json', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(globToRegExp(pattern).test(path)).toBe(expected);
  });
});

describe('globBase', () => {
  it('splits the literal directory from the wildcard segments', () => {
    expect(globBase('a/b/*.json')).toEqual({ base: 'a/b', rest: ['*.json'] });
    expect(globBase('*.json')).toEqual({ base: '', rest: ['*.json'] });
    expect(globBase('a/**/x/*.json')).toEqual({ base: 'a', rest: ['**', 'x', '*.json'] });
    expect(globBase('/abs/*.json')).toEqual({ base: '/abs', rest: ['*.json'] });
  });

  it('bounds the walk depth unless ** appears', () => {
    expect(globDepth(['*', '*.json'])).toBe(2);
    expect(globDepth(['**', '*.json'])).toBe(Infinity);
  });

  it('recognizes glob syntax', () => {
    expect(isGlob('a/b.json')).toBe(false);
    expect(isGlob('a/*.json')).toBe(true);
    expect(isGlob('a/{b,c}.json')).toBe(true);
  });
});
