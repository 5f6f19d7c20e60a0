import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAX_FILE_BYTES, readInput } from '../../src/io/read-input.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/bad-input/', import.meta.url));
const CANARY = 'SECRET-CANARY-123';

// Layout: <tmp>/outside/… is outside the working directory <tmp>/repo.
let root: string;
let repo: string;

beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'read-input-'));
  repo = path.join(root, 'repo');
  mkdirSync(path.join(repo, 'sub', 'dir'), { recursive: true });
  mkdirSync(path.join(root, 'outside'));
  writeFileSync(path.join(root, 'outside', 'secret.json'), `{"token": "${CANARY}"}`);
  symlinkSync('secret.json', path.join(root, 'outside', 'link.json'));
  writeFileSync(path.join(repo, 'ok.json'), `\ufeff{"content": "${CANARY}"}\r\n`);
  writeFileSync(path.join(repo, 'sub', 'nested.json'), '[]');
  symlinkSync('ok.json', path.join(repo, 'inside-link.json'));
  symlinkSync('sub', path.join(repo, 'inside-dir-link'));
  symlinkSync('does-not-exist.json', path.join(repo, 'dangling.json'));
  symlinkSync('loop-b.json', path.join(repo, 'loop-a.json'));
  symlinkSync('loop-a.json', path.join(repo, 'loop-b.json'));
  symlinkSync('../outside/secret.json', path.join(repo, 'escape.json'));
  symlinkSync(path.join(root, 'outside'), path.join(repo, 'outside-dir'));
  writeFileSync(path.join(repo, 'big.json'), `["${'x'.repeat(98)}"]`);
  // Sparse: 60 MiB on paper, nothing on disk. Reading it whole would be slow; fstat refuses it first.
  writeFileSync(path.join(repo, 'huge.json'), '');
  truncateSync(path.join(repo, 'huge.json'), 60 * 1024 * 1024);
  writeFileSync(path.join(repo, 'empty.json'), '');
  writeFileSync(path.join(repo, 'bad.json'), Buffer.from([0x7b, 0x0a, 0x22, 0xff, 0x22, 0x7d]));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

async function failure(file: string, opts: { maxFileBytes?: number; cwd?: string } = {}) {
  const r = await readInput(file, { cwd: repo, ...opts });
  if (r.ok) throw new Error(`expected ${file} to fail`);
  expect(r.error.severity).toBe('error');
  expect(r.error.file).toBe(file);
  for (const text of [r.error.message, r.error.hint]) {
    expect(text).not.toContain(CANARY);
    expect(text).not.toContain(root);
  }
  return r.error;
}

describe('readInput: success', () => {
  it('returns the decoded text (BOM stripped, CRLF kept) and the path as given', async () => {
    expect(await readInput('ok.json', { cwd: repo })).toEqual({
      ok: true,
      path: 'ok.json',
      text: `{"content": "${CANARY}"}\r\n`,
    });
  });

  it('follows symlinks that stay inside the working directory', async () => {
    expect(await readInput('inside-link.json', { cwd: repo })).toMatchObject({
      ok: true,
      path: 'inside-link.json',
    });
    expect(await readInput('inside-dir-link/nested.json', { cwd: repo })).toMatchObject({
      ok: true,
      text: '[]',
    });
  });

  it('reads a plain file the user named outside the working directory on purpose', async () => {
    expect(await readInput('../outside/secret.json', { cwd: repo })).toMatchObject({ ok: true });
  });

  it('resolves relative paths against process.cwd() by default', async () => {
    const rel = path.relative(process.cwd(), path.join(FIXTURES, 'bom.json'));
    expect(await readInput(rel)).toMatchObject({ ok: true, path: rel });
  });
});

describe('readInput: file-level errors at 1:1', () => {
  it('missing file', async () => {
    const e = await failure('nope/missing.json');
    expect(e).toMatchObject({ code: 'not-found', line: 1, column: 1, message: 'No such file.' });
    expect(e.hint).toBe('Check the path; relative paths are resolved from the working directory.');
    expect((await failure('ok.json/child')).code).toBe('not-found');
  });

  it('directory', async () => {
    expect(await failure('sub/dir')).toMatchObject({
      code: 'is-directory',
      line: 1,
      column: 1,
      message: 'The path is a directory, not a file.',
      hint: 'Pass a transcript file, or a glob such as dir/**/*.jsonl.',
    });
  });

  it('dangling and looping symlinks', async () => {
    expect(await failure('dangling.json')).toMatchObject({
      code: 'broken-symlink',
      message: 'The path is a symbolic link whose target does not exist.',
      hint: 'Fix or remove the link, or pass the file it should point to.',
    });
    expect(await failure('loop-a.json')).toMatchObject({
      code: 'broken-symlink',
      message: 'The path is a symbolic link that loops back on itself.',
    });
  });

  it('refuses a symlink whose target is outside the working directory, and says why', async () => {
    const e = await failure('escape.json');
    expect(e).toMatchObject({ code: 'symlink-escape', line: 1, column: 1 });
    expect(e.message).toBe(
      'The path leads through a symbolic link to a file outside the working directory; it is not read, ' +
        'because a link could expose files the repository does not own.',
    );
    expect(e.hint).toBe(
      'Replace the link with the file itself, or run from a directory that contains the link target.',
    );
  });

  it('refuses a path that escapes through a symlinked directory, and an outside symlink named explicitly', async () => {
    expect((await failure('outside-dir/secret.json')).code).toBe('symlink-escape');
    expect((await failure('../outside/link.json')).code).toBe('symlink-escape');
  });

  it('keeps an absolute path as given', async () => {
    const abs = path.join(repo, 'escape.json');
    expect((await failure(abs)).file).toBe(abs);
  });

  it('refuses a file over the size cap before reading it', async () => {
    expect(await failure('big.json', { maxFileBytes: 64 })).toMatchObject({
      code: 'file-too-large',
      line: 1,
      column: 1,
      message: 'The file is 102 bytes, larger than the limit of 64 bytes.',
      hint: 'Raise the limit with --max-file-size (the Action input max-file-size), or split the transcript into smaller files.',
    });
    expect(await readInput('big.json', { cwd: repo, maxFileBytes: 102 })).toMatchObject({ ok: true });
  });

  it('has a 50 MiB default cap', async () => {
    expect(DEFAULT_MAX_FILE_BYTES).toBe(52_428_800);
    expect((await failure('huge.json')).message).toBe(
      'The file is 60.0 MiB (62914560 bytes), larger than the limit of 50.0 MiB (52428800 bytes).',
    );
  });

  it('empty and whitespace-only files', async () => {
    expect(await failure('empty.json')).toMatchObject({ code: 'empty', message: 'The file is empty.' });
    const fixtures = { cwd: FIXTURES };
    expect(await failure('empty.json', fixtures)).toMatchObject({ code: 'empty', line: 1, column: 1 });
    expect(await failure('whitespace-only.json', fixtures)).toMatchObject({
      code: 'empty',
      line: 1,
      column: 1,
      message: 'The file holds only whitespace.',
    });
  });

  it('passes decoding errors through with their position and the path as given', async () => {
    expect(await failure('bad.json')).toMatchObject({ code: 'invalid-utf8', line: 2, column: 2 });
    expect(await failure('lone-cr.json', { cwd: FIXTURES })).toMatchObject({
      code: 'lone-cr',
      file: 'lone-cr.json',
      line: 1,
      column: 17,
    });
    expect((await failure('utf16le-bom.json', { cwd: FIXTURES })).code).toBe('utf16');
  });

  it.skipIf(process.platform === 'win32')('refuses a named pipe without blocking on it', async () => {
    execFileSync('mkfifo', [path.join(repo, 'pipe.json')]);
    expect(await failure('pipe.json')).toMatchObject({
      code: 'not-a-file',
      message: 'The path is not a regular file (it is a device, pipe or socket).',
    });
  });
});
