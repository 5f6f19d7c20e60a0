// Turns the FILE/DIR/GLOB inputs of the CLI and the Action (with `!` exclusions) into a sorted,
// de-duplicated list of transcript paths. The semantics are documented in docs/globs.md.
import { promises as fs } from 'node:fs';
import { isAiderText } from '../core/readers/aider.js';
import type { Dirent } from 'node:fs';
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/types.js';
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
} from './glob.js';

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
  /**
   * `no-match` errors for globs and directories that yield no file; `nothing-to-include` when
   * every input is an exclusion, `all-excluded` when the exclusions drop every file found,
   * `bad-pattern` for an empty exclusion (`!`) or a pattern picomatch refuses.
   */
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
  nodeModules: boolean;
  accept: (rel: string) => boolean;
  /** Drops a file, or a directory with everything below it (exclusions, checked before `accept`). */
  exclude: Excluder;
}

interface WalkResult {
  files: string[];
  /** Files and directories the exclusions dropped. */
  dropped: number;
}

async function walk(
  cwd: string,
  dir: string,
  depth: number,
  opts: WalkOptions,
  out: WalkResult,
): Promise<void> {
  const absDir = path.resolve(cwd, dir === '' ? '.' : dir);
  for (const entry of await readDirSorted(absDir)) {
    if (!opts.dotfiles && entry.name.startsWith('.')) continue;
    const rel = join(dir, entry.name);
    const abs = path.join(absDir, entry.name);
    if (entry.isDirectory()) {
      if (depth + 1 >= opts.maxDepth || (entry.name === 'node_modules' && !opts.nodeModules)) continue;
      if (opts.exclude(rel)) out.dropped++;
      else await walk(cwd, rel, depth + 1, opts, out);
    } else if (await isFileEntry(entry, abs)) {
      if (!opts.accept(rel)) continue;
      if (opts.exclude(rel)) out.dropped++;
      else out.files.push(rel);
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

function badPattern(arg: string, reason: string): Diagnostic {
  return diagnostic(
    'error',
    'bad-pattern',
    { file: arg, line: 1, column: 1 },
    `This input cannot be used: ${reason}`,
    'See docs/globs.md for the pattern syntax; a file whose name starts with ! is written ./!name.',
  );
}

/** Whether a path (as listed: cwd-relative or absolute) is dropped by an exclusion. */
type Excluder = (file: string) => boolean;

const NO_EXCLUSIONS: Excluder = () => false;

/** A leading `/` or a drive (`C:/`): the pattern is matched against absolute paths. */
function isAbsolutePattern(pattern: string): boolean {
  return pattern.startsWith('/') || /^[A-Za-z]:\//.test(pattern);
}

/**
 * Relative exclusions are matched against the cwd-relative path (`../x` outside cwd), absolute
 * ones against the absolute path, whichever way the file was found: `runs/skip/**` drops
 * `./runs/skip/a.json` and `/repo/runs/skip/a.json` alike.
 */
function excluder(patterns: readonly string[], cwd: string): Excluder {
  if (patterns.length === 0) return NO_EXCLUSIONS;
  const absolute = patterns.filter(isAbsolutePattern);
  const relative = patterns.filter((p) => !isAbsolutePattern(p));
  const matchAbsolute = absolute.length > 0 ? compileExclusions(absolute) : NO_EXCLUSIONS;
  const matchRelative = relative.length > 0 ? compileExclusions(relative) : NO_EXCLUSIONS;
  return (file) => {
    const abs = path.resolve(cwd, file);
    return matchAbsolute(toSlashes(abs)) || matchRelative(toSlashes(path.relative(cwd, abs)) || '.');
  };
}

function compileExclusions(patterns: readonly string[]): Excluder {
  const matchers = patterns.map(compileExclusion);
  return (file) => matchers.some((match) => match(file));
}

/** `./a//b/*.json/` → `a/b/*.json`, '/'-separated on every platform (a backslash is an escape). */
function normalizePattern(pattern: string): string {
  const normalized = path.posix.normalize(pattern);
  return normalized.length > 1 && normalized.endsWith('/') ? normalized.slice(0, -1) : normalized;
}

async function expandPattern(arg: string, cwd: string, exclude: Excluder): Promise<WalkResult> {
  const pattern = normalizePattern(arg);
  const { base, rest } = globBase(pattern);
  const out: WalkResult = { files: [], dropped: 0 };
  if (base !== '' && exclude(base)) return { files: [], dropped: 1 };
  let isDir = false;
  try {
    isDir = (await fs.stat(path.resolve(cwd, base === '' ? '.' : base))).isDirectory();
  } catch {
    // A missing base directory simply matches nothing.
  }
  if (!isDir) return out;
  const opts: WalkOptions = {
    maxDepth: globDepth(rest),
    dotfiles: globAllowsDotfiles(rest),
    nodeModules: globNamesNodeModules(rest),
    accept: compileGlob(pattern),
    exclude,
  };
  await walk(cwd, base, 0, opts, out);
  return out;
}

async function expandDirectory(dir: string, cwd: string, exclude: Excluder): Promise<WalkResult> {
  const out: WalkResult = { files: [], dropped: 0 };
  if (exclude(dir)) return { files: [], dropped: 1 };
  const accept = (rel: string) => {
    const lower = rel.toLowerCase();
    return lower.endsWith(MARKDOWN_EXTENSION) || TRANSCRIPT_EXTENSIONS.some((ext) => lower.endsWith(ext));
  };
  const opts = { maxDepth: Infinity, dotfiles: false, nodeModules: false, accept, exclude };
  await walk(cwd, dir === '.' ? '' : dir, 0, opts, out);
  const files: string[] = [];
  for (const rel of out.files) {
    if (!rel.toLowerCase().endsWith(MARKDOWN_EXTENSION) || (await isAiderFile(path.resolve(cwd, rel))))
      files.push(rel);
  }
  return { files, dropped: out.dropped };
}

async function expandOne(
  arg: string,
  cwd: string,
  exclude: Excluder,
): Promise<{ files: string[]; dropped: number; diagnostic?: Diagnostic }> {
  if (isGlob(arg)) {
    let result: WalkResult;
    try {
      result = await expandPattern(arg, cwd, exclude);
    } catch (error) {
      // picomatch refuses a pattern only when it is absurdly long.
      return { files: [], dropped: 0, diagnostic: badPattern(arg, (error as Error).message) };
    }
    const empty = result.files.length === 0 && result.dropped === 0;
    return empty ? { ...result, diagnostic: noMatch(arg, 'pattern') } : result;
  }
  // No glob syntax left: a path, in which `\*`, `\[`… stand for the character itself.
  const normalized = normalizeArg(unescapeGlob(arg));
  if (exclude(normalized)) return { files: [], dropped: 1 };
  let stat;
  try {
    stat = await fs.stat(path.resolve(cwd, normalized));
  } catch {
    // Missing or dangling: keep it, so that the reader reports exactly what is wrong with it.
    return { files: [normalized], dropped: 0 };
  }
  if (!stat.isDirectory()) return { files: [normalized], dropped: 0 };
  const result = await expandDirectory(normalized, cwd, exclude);
  const empty = result.files.length === 0 && result.dropped === 0;
  return empty ? { ...result, diagnostic: noMatch(arg, 'directory') } : result;
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
 * histories, skipping hidden entries and node_modules) and glob patterns, then drops what the
 * exclusions (inputs starting with `!`) match, whatever the order of the inputs. A file named
 * directly, or matched by a glob, is kept unless excluded. Deterministic: the output is sorted by
 * code unit. The CLI and the Action both expand their inputs here (docs/globs.md).
 */
export async function expandInputs(args: readonly string[], opts: ExpandOptions): Promise<ExpandResult> {
  const diagnostics: Diagnostic[] = [];
  const includes: string[] = [];
  const exclusions: string[] = [];
  let firstExclusion: string | undefined;
  for (const arg of args) {
    if (!isExclusion(arg)) {
      includes.push(arg);
      continue;
    }
    firstExclusion ??= arg;
    const body = arg.slice(1);
    if (body.trim() === '') {
      diagnostics.push(badPattern(arg, 'an exclusion needs a pattern or a path after the !.'));
      continue;
    }
    const pattern = normalizePattern(body);
    exclusions.push(pattern === '.' ? '**' : pattern);
  }
  if (includes.length === 0 && firstExclusion !== undefined) {
    diagnostics.push(onlyExclusions(firstExclusion));
    return { files: [], diagnostics };
  }
  let exclude: Excluder;
  try {
    exclude = excluder(exclusions, opts.cwd);
  } catch (error) {
    diagnostics.push(badPattern(firstExclusion ?? '!', (error as Error).message));
    return { files: [], diagnostics };
  }

  const seen = new Set<string>();
  let dropped = 0;
  for (const arg of includes) {
    const result = await expandOne(arg, opts.cwd, exclude);
    for (const file of result.files) seen.add(file);
    dropped += result.dropped;
    if (result.diagnostic) diagnostics.push(result.diagnostic);
  }
  if (seen.size === 0 && dropped > 0 && firstExclusion !== undefined)
    diagnostics.push(allExcluded(firstExclusion));
  const files = [...seen].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return { files, diagnostics };
}

function onlyExclusions(arg: string): Diagnostic {
  return diagnostic(
    'error',
    'nothing-to-include',
    { file: arg, line: 1, column: 1 },
    'Nothing to include: every input is an exclusion (starts with !).',
    "Name the files, folders or globs to include as well, e.g. transcripts '!transcripts/skip/**'; a file whose name starts with ! is written ./!name.",
  );
}

function allExcluded(arg: string): Diagnostic {
  return diagnostic(
    'error',
    'all-excluded',
    { file: arg, line: 1, column: 1 },
    'No transcript file left: the exclusions (inputs starting with !) drop every file the other inputs match.',
    'Check the exclusions: an exclusion drops what it matches and everything below it.',
  );
}
