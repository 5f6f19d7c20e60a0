// Turns the CLI's FILE/DIR/GLOB arguments into a sorted, de-duplicated list of transcript paths.
import { promises as fs } from 'node:fs';
import { isAiderText } from '../core/readers/aider.js';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/types.js';
import { globAllowsDotfiles, globBase, globDepth, globToRegExp, isGlob } from './glob.js';

/** Extensions picked up when a directory is given. */
export const TRANSCRIPT_EXTENSIONS = ['.json', '.jsonl', '.ndjson', '.traj'] as const;

/**
 * Markdown files are picked up from a directory only when they are aider chat histories: a
 * transcripts folder also holds README.md files and notes, which are no transcripts.
 */
export const MARKDOWN_EXTENSION = '.md';

/** What a directory is searched for, as help texts and messages say it. */
export const DIRECTORY_SEARCH = `${TRANSCRIPT_EXTENSIONS.join(', ')} files and ${MARKDOWN_EXTENSION} aider chat histories`;

/**
 * Enough of a Markdown file to tell an aider chat history: aider writes its session heading at
 * the top, and its documentation pages reach the first user line within a few lines.
 */
const SNIFF_BYTES = 1024 * 1024;

export interface ExpandOptions {
  cwd: string;
}

export interface ExpandResult {
  /** `/`-separated; relative to cwd unless the user gave an absolute path. Sorted, unique. */
  files: string[];
  /** `no-match` errors for globs and directories that yield no file. */
  diagnostics: Diagnostic[];
}

function toSlashes(p: string): string {
  return p.split(path.sep).join('/');
}

/** `./a//b/../c.json` → `a/c.json`; absolute paths stay absolute. */
function normalizeArg(arg: string): string {
  const normalized = toSlashes(path.normalize(arg));
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

function join(dir: string, name: string): string {
  if (dir === '' || dir === '.') return name;
  return dir.endsWith('/') ? `${dir}${name}` : `${dir}/${name}`;
}

async function readDirSorted(abs: string): Promise<Dirent[]> {
  try {
    const entries = await fs.readdir(abs, { withFileTypes: true });
    return entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  } catch {
    // Unreadable directories are skipped: the files that are readable still get checked.
    return [];
  }
}

/** A symlink counts as a file when its target is one; symlinked directories are not followed (no cycles). */
async function isFileEntry(entry: Dirent, abs: string): Promise<boolean> {
  if (entry.isFile()) return true;
  if (!entry.isSymbolicLink()) return false;
  try {
    return (await fs.stat(abs)).isFile();
  } catch {
    // A dangling link is still reported, so that reading it gives the user a precise error.
    return true;
  }
}

interface WalkOptions {
  maxDepth: number;
  dotfiles: boolean;
  accept: (rel: string) => boolean;
}

async function walk(
  cwd: string,
  dir: string,
  depth: number,
  opts: WalkOptions,
  out: string[],
): Promise<void> {
  const absDir = path.resolve(cwd, dir === '' ? '.' : dir);
  for (const entry of await readDirSorted(absDir)) {
    if (!opts.dotfiles && entry.name.startsWith('.')) continue;
    const rel = join(dir, entry.name);
    const abs = path.join(absDir, entry.name);
    if (entry.isDirectory()) {
      if (depth + 1 < opts.maxDepth && entry.name !== 'node_modules')
        await walk(cwd, rel, depth + 1, opts, out);
    } else if (await isFileEntry(entry, abs)) {
      if (opts.accept(rel)) out.push(rel);
    }
  }
}

function noMatch(arg: string, what: string): Diagnostic {
  return diagnostic(
    'error',
    'no-match',
    { file: arg, line: 1, column: 1 },
    `No transcript file found: this ${what} matches nothing.`,
    what === 'pattern'
      ? 'Check the pattern, and quote it so that your shell does not expand it first.'
      : `Put ${DIRECTORY_SEARCH} in the directory, or name the files directly.`,
  );
}

async function expandOne(arg: string, cwd: string): Promise<{ files: string[]; diagnostic?: Diagnostic }> {
  const normalized = normalizeArg(arg);
  if (isGlob(normalized)) {
    const { base, rest } = globBase(normalized);
    const re = globToRegExp(normalized);
    const files: string[] = [];
    try {
      if ((await fs.stat(path.resolve(cwd, base === '' ? '.' : base))).isDirectory()) {
        const opts = {
          maxDepth: globDepth(rest),
          dotfiles: globAllowsDotfiles(rest),
          accept: (rel: string) => re.test(rel),
        };
        await walk(cwd, base, 0, opts, files);
      }
    } catch {
      // A missing base directory simply matches nothing.
    }
    return files.length > 0 ? { files } : { files, diagnostic: noMatch(arg, 'pattern') };
  }
  let stat;
  try {
    stat = await fs.stat(path.resolve(cwd, normalized));
  } catch {
    // Missing or dangling: keep it, so that the reader reports exactly what is wrong with it.
    return { files: [normalized] };
  }
  if (!stat.isDirectory()) return { files: [normalized] };
  const found: string[] = [];
  const accept = (rel: string) => {
    const lower = rel.toLowerCase();
    return lower.endsWith(MARKDOWN_EXTENSION) || TRANSCRIPT_EXTENSIONS.some((ext) => lower.endsWith(ext));
  };
  await walk(
    cwd,
    normalized === '.' ? '' : normalized,
    0,
    { maxDepth: Infinity, dotfiles: false, accept },
    found,
  );
  const files: string[] = [];
  for (const rel of found) {
    if (!rel.toLowerCase().endsWith(MARKDOWN_EXTENSION) || (await isAiderFile(path.resolve(cwd, rel))))
      files.push(rel);
  }
  return files.length > 0 ? { files } : { files, diagnostic: noMatch(arg, 'directory') };
}

/** Whether a Markdown file found in a directory is an aider chat history (unreadable: no). */
async function isAiderFile(abs: string): Promise<boolean> {
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(abs, 'r');
    const size = Math.min(SNIFF_BYTES, (await handle.stat()).size);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, 0);
    // A character cut at the end of the sample decodes as U+FFFD: harmless for the markers.
    const text = new TextDecoder().decode(buffer.subarray(0, bytesRead)).replace(/^\uFEFF/, '');
    return isAiderText(text);
  } catch {
    return false;
  } finally {
    await handle?.close();
  }
}

/**
 * Expands files, directories (walked recursively for transcript extensions and aider chat
 * histories, skipping hidden entries and node_modules) and glob patterns. A file named directly,
 * or matched by a glob, is always kept. Deterministic: the output is sorted by code unit.
 */
export async function expandInputs(args: readonly string[], opts: ExpandOptions): Promise<ExpandResult> {
  const seen = new Set<string>();
  const diagnostics: Diagnostic[] = [];
  for (const arg of args) {
    const result = await expandOne(arg, opts.cwd);
    for (const file of result.files) seen.add(file);
    if (result.diagnostic) diagnostics.push(result.diagnostic);
  }
  const files = [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, diagnostics };
}
