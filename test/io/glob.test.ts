import { describe, it, expect } from 'vitest';
import {
  compileExclusion,
  compileGlob,
  globAllowsDotfiles,
  globBase,
  globDepth,
  globNamesNodeModules,
  isExclusion,
  isGlob,
  unescapeGlob,
} from '../../src/io/glob.js';

describe('compileGlob', () => {
  it.each([
    // wildcards
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
    ['*.JSON', 'a.json', false],
    // brackets, negated brackets, POSIX classes
    ['run-[0-4].json', 'run-3.json', true],
    ['run-[0-4].json', 'run-7.json', false],
    ['run-[!0-4].json', 'run-7.json', true],
    ['run-[!0-4].json', 'run-3.json', false],
    ['run-[^0-4].json', 'run-7.json', true],
    ['run-[[:digit:]].json', 'run-5.json', true],
    ['run-[[:digit:]].json', 'run-x.json', false],
    ['[[:alpha:]]*.json', 'abc1.json', true],
    ['[[:alpha:]]*.json', '1abc.json', false],
    ['[[:upper:]]*.json', 'Run.json', true],
    ['[[:upper:]]*.json', 'run.json', false],
    // braces and ranges
    ['*.{json,jsonl}', 'a.jsonl', true],
    ['*.{json,jsonl}', 'a.json', true],
    ['*.{json,jsonl}', 'a.traj', false],
    ['{a,b*}/x.json', 'bcd/x.json', true],
    ['t/{a,b/c}/*.json', 't/b/c/x.json', true],
    ['run-{1..3}.json', 'run-2.json', true],
    ['run-{1..3}.json', 'run-4.json', false],
    ['shard-{a..c}.json', 'shard-b.json', true],
    ['shard-{a..c}.json', 'shard-d.json', false],
    // extglobs
    ['@(swe|aider)/*.json', 'swe/a.json', true],
    ['@(swe|aider)/*.json', 'other/a.json', false],
    ['!(swe)/*.json', 'other/a.json', true],
    ['!(swe)/*.json', 'swe/a.json', false],
    ['run+(-x).json', 'run-x-x.json', true],
    ['run?(-x).json', 'run.json', true],
    ['run*(-x).json', 'run-x-x-x.json', true],
    // escapes: a backslash makes the next character literal
    ['a\\*b.json', 'a*b.json', true],
    ['a\\*b.json', 'axb.json', false],
    ['run\\[1\\].json', 'run[1].json', true],
    ['run\\[1\\].json', 'run1.json', false],
    ['\\{a,b\\}.json', '{a,b}.json', true],
    ['\\{a,b\\}.json', 'a.json', false],
    ['a.b\\(c\\)+.json', 'a.b(c)+.json', true],
    ['\\!x.json', '!x.json', true],
    // a leading ! is no negation here: exclusions are stripped of it before compiling
    ['!x*.json', '!xy.json', true],
    ['!x*.json', 'xy.json', false],
    // dotfiles: only when the pattern spells the dot
    ['*.json', '.hidden.json', false],
    ['**/*.json', 'runs/.hidden/f.json', false],
    ['runs/**', 'runs/.hidden/f.json', false],
    ['runs/.hidden/*.json', 'runs/.hidden/f.json', true],
    ['runs/.*/*.json', 'runs/.hidden/f.json', true],
    ['.*.json', '.hidden.json', true],
    // paths outside cwd and absolute paths
    ['../corpus/*.json', '../corpus/t.json', true],
    ['/abs/*.json', '/abs/t.json', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(compileGlob(pattern)(path)).toBe(expected);
  });

  it('treats a backslash as an escape, never as a separator', () => {
    expect(compileGlob('runs\\*.json')('runs/a.json')).toBe(false);
    expect(compileGlob('runs\\*.json')('runs*.json')).toBe(true);
  });
});

describe('compileExclusion', () => {
  it.each([
    ['transcripts/swe/**', 'transcripts/swe/a.json', true],
    ['transcripts/swe/**', 'transcripts/swe/deep/.hidden/a.json', true],
    ['transcripts/swe/**', 'transcripts/other/a.json', false],
    // a literal folder drops everything below it, as in .gitignore
    ['transcripts/swe', 'transcripts/swe/a.json', true],
    ['transcripts/swe', 'transcripts/swe', true],
    ['transcripts/swe', 'transcripts/swe-bench/a.json', false],
    ['transcripts/sw*', 'transcripts/swe-bench/a.json', true],
    ['**/draft-*', 'a/b/draft-1.json', true],
    ['**/draft-*', 'a/draft/x.json', false],
    ['*.json', '.hidden.json', true],
  ])('!%s drops %s: %s', (pattern, path, expected) => {
    expect(compileExclusion(pattern)(path)).toBe(expected);
  });
});

describe('isExclusion', () => {
  it('is a leading !, except an extglob !(…)', () => {
    expect(isExclusion('!transcripts/swe/**')).toBe(true);
    expect(isExclusion('!name.json')).toBe(true);
    expect(isExclusion('!(swe)/*.json')).toBe(false);
    expect(isExclusion('./!name.json')).toBe(false);
    expect(isExclusion('transcripts/!x')).toBe(false);
  });
});

describe('globBase', () => {
  it('splits the literal directory from the wildcard segments', () => {
    expect(globBase('a/b/*.json')).toEqual({ base: 'a/b', rest: ['*.json'] });
    expect(globBase('*.json')).toEqual({ base: '', rest: ['*.json'] });
    expect(globBase('a/**/x/*.json')).toEqual({ base: 'a', rest: ['**', 'x', '*.json'] });
    expect(globBase('/abs/*.json')).toEqual({ base: '/abs', rest: ['*.json'] });
    expect(globBase('a/{b,c}/x.json')).toEqual({ base: 'a', rest: ['{b,c}', 'x.json'] });
    expect(globBase('a/@(b|c)/x.json')).toEqual({ base: 'a', rest: ['@(b|c)', 'x.json'] });
  });

  it('unescapes the base: it is a real directory', () => {
    expect(globBase('a/b\\*c/*.json')).toEqual({ base: 'a/b*c', rest: ['*.json'] });
  });

  it('bounds the walk depth unless ** appears or a group spans a /', () => {
    expect(globDepth(['*', '*.json'])).toBe(2);
    expect(globDepth(globBase('t/{a,b/c}/*.json').rest)).toBe(3);
    expect(globDepth(['**', '*.json'])).toBe(Infinity);
    expect(globDepth(globBase('t/+(a/b)/*.json').rest)).toBe(Infinity);
  });

  it('enters hidden entries and node_modules only when the pattern names them', () => {
    expect(globAllowsDotfiles(['**', '*.json'])).toBe(false);
    expect(globAllowsDotfiles(['..', '*.json'])).toBe(false);
    expect(globAllowsDotfiles(['.hidden', '*.json'])).toBe(true);
    expect(globAllowsDotfiles(['{.cache,out}', '*.json'])).toBe(true);
    expect(globAllowsDotfiles(['**', '.*.json'])).toBe(true);
    expect(globNamesNodeModules(['**', '*.json'])).toBe(false);
    expect(globNamesNodeModules(['**', 'node_modules', '*.json'])).toBe(true);
  });
});

describe('isGlob and unescapeGlob', () => {
  it('recognizes unescaped glob syntax', () => {
    expect(isGlob('a/b.json')).toBe(false);
    expect(isGlob('a/*.json')).toBe(true);
    expect(isGlob('a/{b,c}.json')).toBe(true);
    expect(isGlob('a/{1..3}.json')).toBe(true);
    expect(isGlob('a/@(b|c).json')).toBe(true);
    expect(isGlob('a/[[:alpha:]].json')).toBe(true);
    expect(isGlob('a\\*b.json')).toBe(false);
    expect(isGlob('run\\[1\\].json')).toBe(false);
    expect(isGlob('!name.json')).toBe(false);
  });

  it('turns an escaped literal into the file name it stands for', () => {
    expect(unescapeGlob('a\\*b.json')).toBe('a*b.json');
    expect(unescapeGlob('run\\[1\\].json')).toBe('run[1].json');
    expect(unescapeGlob('\\!name.json')).toBe('!name.json');
    expect(unescapeGlob('a\\b.json')).toBe('a\\b.json');
  });
});
