// Reads one input file (transcript or policy) safely: every way a path can be unusable becomes a
// diagnostic at 1:1 that names the path exactly as the user gave it, never a resolved absolute one.
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, open, realpath, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../core/types.js';
import { diagnostic } from '../core/diagnostics.js';
import { decodeInput } from '../core/text/decode.js';

export const DEFAULT_MAX_FILE_BYTES = 50 * 1024 * 1024;

export interface ReadInputOptions {
  /** Files larger than this are refused before reading. Default 50 MiB. */
  maxFileBytes?: number;
  /** Directory that symlinks must stay inside, and that relative paths resolve against. Default process.cwd(). */
  cwd?: string;
}

/** `path` is the path as given (for diagnostics and source positions); `text` is decoded, BOM stripped. */
export type ReadInputResult = { ok: true; path: string; text: string } | { ok: false; error: Diagnostic };

/**
 * Reads one input file safely: missing file (`not-found`), a directory (`is-directory`), a device,
 * pipe or socket (`not-a-file`), a dangling or looping symlink (`broken-symlink`), a path inside
 * `cwd` that resolves outside it through a symlink, or a symlink given explicitly whose target is
 * outside `cwd` (`symlink-escape`), a file over the size cap (`file-too-large`, checked with fstat
 * before reading), an unreadable file (`unreadable`), an empty or whitespace-only file (`empty`),
 * then decodeInput.
 */
export async function readInput(file: string, opts: ReadInputOptions = {}): Promise<ReadInputResult> {
  const cwd = path.resolve(opts.cwd ?? process.cwd());
  const maxBytes = opts.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const abs = path.resolve(cwd, file);
  const fail = (code: string, message: string, hint: string): ReadInputResult => ({
    ok: false,
    error: diagnostic('error', code, { file, line: 1, column: 1 }, message, hint),
  });

  let isLink: boolean;
  try {
    isLink = (await lstat(abs)).isSymbolicLink();
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ENOENT' || code === 'ENOTDIR') {
      return fail(
        'not-found',
        'No such file.',
        'Check the path; relative paths are resolved from the working directory.',
      );
    }
    return unreadable(fail, code);
  }

  let real: string;
  try {
    real = await realpath(abs);
  } catch (e) {
    const code = errnoOf(e);
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') {
      return fail(
        'broken-symlink',
        code === 'ELOOP'
          ? 'The path is a symbolic link that loops back on itself.'
          : 'The path is a symbolic link whose target does not exist.',
        'Fix or remove the link, or pass the file it should point to.',
      );
    }
    return unreadable(fail, code);
  }

  // A link may point anywhere (a pull request can add one to /etc or a secrets file), and what we
  // read ends up in reports and PR comments. Paths named inside cwd must stay inside it; a path
  // named outside cwd on purpose is read, unless that path itself is a link.
  const realCwd = await realpath(cwd).catch(() => cwd);
  if (!isInside(real, realCwd) && (isLink || isInside(abs, cwd))) {
    return fail(
      'symlink-escape',
      'The path leads through a symbolic link to a file outside the working directory; it is not read, ' +
        'because a link could expose files the repository does not own.',
      'Replace the link with the file itself, or run from a directory that contains the link target.',
    );
  }

  let st: Stats;
  try {
    st = await stat(real);
  } catch (e) {
    return unreadable(fail, errnoOf(e));
  }
  if (st.isDirectory()) {
    return fail(
      'is-directory',
      'The path is a directory, not a file.',
      'Pass a transcript file, or a glob such as dir/**/*.jsonl.',
    );
  }
  if (!st.isFile()) {
    return fail(
      'not-a-file',
      'The path is not a regular file (it is a device, pipe or socket).',
      'Save the input to a regular file and pass that file.',
    );
  }

  let bytes: Uint8Array;
  try {
    // O_NONBLOCK: if the path was swapped for a FIFO since stat, open must not hang.
    const handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const size = (await handle.stat()).size;
      if (size > maxBytes) {
        return fail(
          'file-too-large',
          `The file is ${formatBytes(size)}, larger than the limit of ${formatBytes(maxBytes)}.`,
          'Raise the limit with --max-file-size (the Action input max-file-size), or split the transcript into smaller files.',
        );
      }
      bytes = await readExactly(handle, size);
    } finally {
      await handle.close();
    }
  } catch (e) {
    return unreadable(fail, errnoOf(e));
  }

  if (bytes.length === 0) {
    return fail(
      'empty',
      'The file is empty.',
      'Check that the file was written completely; it must hold a transcript.',
    );
  }
  const decoded = decodeInput(bytes, { file });
  if (!decoded.ok) return decoded;
  if (isBlankText(decoded.text)) {
    return fail(
      'empty',
      'The file holds only whitespace.',
      'Check that the file was written completely; it must hold a transcript.',
    );
  }
  return { ok: true, path: file, text: decoded.text };
}

type Fail = (code: string, message: string, hint: string) => ReadInputResult;

function unreadable(fail: Fail, errno: string | undefined): ReadInputResult {
  if (errno === 'EACCES' || errno === 'EPERM') {
    return fail('unreadable', 'Permission denied.', 'Make the file readable by the user running the check.');
  }
  return fail(
    'unreadable',
    `The file could not be read (${errno ?? 'unknown error'}).`,
    'Check that the file exists and is readable, then run again.',
  );
}

function errnoOf(e: unknown): string | undefined {
  if (typeof e === 'object' && e !== null && 'code' in e && typeof e.code === 'string') return e.code;
  return undefined;
}

function isInside(child: string, parent: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** Reads `size` bytes, or fewer if the file shrank; never more, so the size cap holds if it grew. */
async function readExactly(handle: FileHandle, size: number): Promise<Uint8Array> {
  const buf = new Uint8Array(size);
  let off = 0;
  while (off < size) {
    const { bytesRead } = await handle.read(buf, off, size - off, off);
    if (bytesRead === 0) break;
    off += bytesRead;
  }
  return buf.subarray(0, off);
}

function isBlankText(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) return false;
  }
  return true;
}

/** Rounded for reading, exact bytes too so that 50.0 MiB over a 50.0 MiB limit still makes sense. */
function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`;
  const rounded = n < 1024 * 1024 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / (1024 * 1024)).toFixed(1)} MiB`;
  return `${rounded} (${n} bytes)`;
}
