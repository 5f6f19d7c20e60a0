import { describe, it, expect } from 'vitest';
import { UsageError, parseByteSize, parseChoice, parseOptions, wantsHelp } from '../../src/cli/args.js';

const OPTIONS = { json: { type: 'boolean' }, policy: { type: 'string' } } as const;

function usageMessage(fn: () => unknown): string {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError');
}

describe('parseOptions', () => {
  it('parses known options and positionals', () => {
    const { values, positionals } = parseOptions(
      ['a.json', '--json', '--policy', 'p.yml', 'b.json'],
      OPTIONS,
    );
    expect(values).toEqual({ json: true, policy: 'p.yml' });
    expect(positionals).toEqual(['a.json', 'b.json']);
  });

  it('rewords parseArgs errors into one line without echoing option values', () => {
    expect(usageMessage(() => parseOptions(['--jsn'], OPTIONS))).toBe(
      'Unknown option --jsn. Did you mean --json?',
    );
    expect(usageMessage(() => parseOptions(['--zzz=secret-value'], OPTIONS))).toBe('Unknown option --zzz.');
    expect(usageMessage(() => parseOptions(['--policy'], OPTIONS))).toBe('Option --policy needs a value.');
    expect(usageMessage(() => parseOptions(['--json=secret-value'], OPTIONS))).toBe(
      'Option --json takes no value.',
    );
    expect(usageMessage(() => parseOptions(['x'], OPTIONS, false))).toBe(
      'Unexpected argument: this command takes no positional arguments.',
    );
  });
});

describe('wantsHelp', () => {
  it('finds --help or -h before the -- terminator only', () => {
    expect(wantsHelp(['a', '--help'])).toBe(true);
    expect(wantsHelp(['-h'])).toBe(true);
    expect(wantsHelp(['--', '--help'])).toBe(false);
    expect(wantsHelp(['--helpful'])).toBe(false);
  });
});

describe('parseByteSize', () => {
  it.each([
    ['1048576', 1048576],
    ['50M', 50 * 1024 ** 2],
    ['64k', 64 * 1024],
    ['2GiB', 2 * 1024 ** 3],
    ['10mb', 10 * 1024 ** 2],
  ])('%s → %d bytes', (input, bytes) => {
    expect(parseByteSize('--max-file-size', input)).toBe(bytes);
  });

  it.each(['', 'abc', '-5', '1.5M', '0', '10T'])('rejects %j', (input) => {
    expect(usageMessage(() => parseByteSize('--max-file-size', input))).toMatch(
      /^Option --max-file-size needs a size/,
    );
  });
});

describe('parseChoice', () => {
  it('accepts listed values and names them otherwise', () => {
    expect(parseChoice('--format', 'openai', ['auto', 'openai'] as const)).toBe('openai');
    expect(usageMessage(() => parseChoice('--format', 'xml', ['auto', 'openai'] as const))).toBe(
      'Option --format accepts auto, openai.',
    );
  });
});
