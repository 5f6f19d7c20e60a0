// One meaning per flag (issue 15): `--format` is the output format (check, merge, guardian
// bundle); the transcript format is `--input-format` on the commands that read transcripts, and
// `--format` stays its deprecated alias there for one release, with a warning.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/cli');
const WARNING = 'context-stability: warning: --format is now --input-format';

async function run(...args: string[]) {
  const io = fakeIO(FIXTURES);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const READERS: [string, string[]][] = [
  ['inspect', ['inspect', '--json', 'support-chat.json']],
  ['stabilize', ['stabilize', '--json', 'support-chat.json']],
  ['explain', ['explain', 'support-chat.json', 'm0']],
];

describe('--input-format', () => {
  it.each(READERS)('%s reads with the reader it names, without a warning', async (_, args) => {
    const r = await run(...args, '--input-format', 'openai');
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('--input-format');
  });

  it.each(READERS)('%s: a wrong reader is that reader’s error, exit 2', async (_, args) => {
    const r = await run(...args, '--input-format', 'native');
    expect(r.code).toBe(2);
  });

  it.each(READERS)('%s names the accepted values', async (_, args) => {
    const r = await run(...args, '--input-format', 'xml');
    expect(r.code).toBe(2);
    expect(r.err).toContain('Option --input-format accepts auto, native, openai,');
  });

  it.each(['inspect', 'stabilize', 'explain'])(
    '%s --help lists --input-format and not --format',
    async (cmd) => {
      const r = await run(cmd, '--help');
      expect(r.out).toMatch(
        /^ {2}--input-format FORMAT {3}reader to use \(default auto: detected from the content\): auto,$/m,
      );
      expect(r.out).not.toMatch(/^ {2}--format /m);
    },
  );
});

describe('--format on the commands that read transcripts: the deprecated alias', () => {
  it.each(READERS)('%s still reads with it, and warns once on stderr', async (_, args) => {
    const old = await run(...args, '--format', 'openai');
    const now = await run(...args, '--input-format', 'openai');
    expect(old.code).toBe(0);
    expect(old.out).toBe(now.out);
    expect(old.err.split('\n').filter((l) => l.includes('--format is now'))).toEqual([
      `${WARNING} (the old name goes in the next release).`,
    ]);
  });

  it.each(READERS)('%s: given with --input-format, it is bad usage', async (_, args) => {
    const r = await run(...args, '--format', 'openai', '--input-format', 'openai');
    expect(r.code).toBe(2);
    expect(r.err).toContain('--format is now --input-format: give --input-format only.');
  });

  it.each([
    ['inspect', 'json', 'inspect has no --format (its output format is --json)'],
    ['stabilize', 'markdown', 'stabilize has its output formats in --json and --emit'],
    ['explain', 'text', 'explain has no output format'],
  ])('%s --format %s: an output format is not taken for a reader', async (cmd, value, message) => {
    const args = cmd === 'explain' ? ['support-chat.json', 'm0'] : ['support-chat.json'];
    const r = await run(cmd, '--format', value, ...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(message);
    expect(r.err).toContain('--format is now --input-format, the transcript format');
    expect(r.out).toBe('');
  });
});

describe('--format is the output format wherever it is one', () => {
  it('check, merge and guardian bundle describe --format as an output format', async () => {
    expect((await run('check', '--help')).out).toMatch(/--format FORMAT {9}stdout format: text, json/);
    expect((await run('merge', '--help')).out).toMatch(/--format FORMAT {9}stdout format: text, json/);
    expect((await run('guardian', 'bundle', '--help')).out).toMatch(
      /--format FORMAT {5}json \(default\) or md/,
    );
  });

  it('check does not take a transcript format', async () => {
    const r = await run('check', '--ci', '--format', 'openai', 'notes.jsonl');
    expect(r.code).toBe(2);
    expect(r.err).toContain('Option --format accepts text, json, markdown, github.');
  });
});
