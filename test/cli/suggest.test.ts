import { describe, it, expect } from 'vitest';
import { closest } from '../../src/cli/suggest.js';

const COMMANDS = ['inspect', 'check', 'update', 'stabilize', 'explain', 'merge', 'guardian', 'policy'];

describe('closest', () => {
  it.each([
    ['inspetc', 'inspect'],
    ['inspec', 'inspect'],
    ['chek', 'check'],
    ['stabilise', 'stabilize'],
    ['polcy', 'policy'],
    ['--jsno', '--json'],
  ])('%s → %s', (word, expected) => {
    expect(closest(word, [...COMMANDS, '--json', '--policy'])).toBe(expected);
  });

  it.each(['frobnicate', 'x', 'deploy'])('suggests nothing for %s', (word) => {
    expect(closest(word, COMMANDS)).toBeUndefined();
  });
});
