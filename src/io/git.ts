// Reads a file as it was at a git revision (`--base-policy git-ref:REF:path`). git runs with an
// argument array, never through a shell, and its own messages are not passed on: they can quote
// paths and refs, and our diagnostics say what went wrong and what to do in our own words.
import { execFile } from 'node:child_process';
import { diagnostic } from '../core/diagnostics.js';
import { decodeInput } from '../core/text/decode.js';
import type { Diagnostic } from '../core/types.js';

export const GIT_REF_PREFIX = 'git-ref:';

/** A policy is a few hundred bytes; git output past this is not a policy. */
const MAX_SHOW_BYTES = 1024 * 1024;

export type GitRefSpec = { ok: true; ref: string; path: string } | { ok: false; reason: string };

/**
 * `git-ref:REF:path` → REF and path (split at the first ':' after the prefix, as refs may not
 * contain ':'). Null when `spec` does not start with the prefix: it is a plain file path.
 */
export function parseGitRefSpec(spec: string): GitRefSpec | null {
  if (!spec.startsWith(GIT_REF_PREFIX)) return null;
  const rest = spec.slice(GIT_REF_PREFIX.length);
  const colon = rest.indexOf(':');
  const usage = 'Write it as git-ref:REF:path, e.g. git-ref:origin/main:.github/context-policy.yml.';
  if (colon <= 0 || colon === rest.length - 1)
    return { ok: false, reason: `The git reference is incomplete. ${usage}` };
  const ref = rest.slice(0, colon);
  const file = rest.slice(colon + 1);
  // A leading '-' would reach git as an option.
  if (ref.startsWith('-') || /[\s\0]/.test(ref))
    return { ok: false, reason: `The REF part is not a valid git revision. ${usage}` };
  if (file.startsWith('/') || file.includes('\0')) {
    return { ok: false, reason: `The path part must be relative to the working directory. ${usage}` };
  }
  return { ok: true, ref, path: file };
}

interface GitRun {
  /** null: git could not be started (not installed). */
  code: number | null;
  stdout: Buffer;
  tooLarge: boolean;
}

function git(args: string[], cwd: string): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(
      'git',
      args,
      {
        cwd,
        encoding: 'buffer',
        maxBuffer: MAX_SHOW_BYTES,
        windowsHide: true,
        env: { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_PAGER: 'cat' },
      },
      (error, stdout) => {
        if (error === null) return resolve({ code: 0, stdout, tooLarge: false });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return resolve({ code: null, stdout, tooLarge: false });
        if (code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') return resolve({ code: 1, stdout, tooLarge: true });
        resolve({ code: typeof error.code === 'number' ? error.code : 1, stdout, tooLarge: false });
      },
    );
  });
}

export type GitShowResult = { ok: true; text: string } | { ok: false; diagnostic: Diagnostic };

/**
 * The text of `file` (relative to `cwd`) at revision `ref`. `label` names the source in
 * diagnostics (e.g. the `git-ref:` spec as the user wrote it). Distinguishes: git missing, not a
 * repository, unknown revision, path not in that revision, and output too large or not UTF-8.
 */
export async function gitShowFile(
  ref: string,
  file: string,
  opts: { cwd: string; label: string },
): Promise<GitShowResult> {
  const fail = (code: string, message: string, hint: string): GitShowResult => ({
    ok: false,
    diagnostic: diagnostic('error', code, { file: opts.label, line: 1, column: 1 }, message, hint),
  });
  const repo = await git(['rev-parse', '--git-dir'], opts.cwd);
  if (repo.code === null) {
    return fail(
      'git-missing',
      'git is not installed or not on the PATH.',
      'Install git, or pass the base policy as a file.',
    );
  }
  if (repo.code !== 0) {
    return fail(
      'git-not-a-repository',
      'The working directory is not inside a git repository.',
      'Run from the repository, or pass the base policy as a file.',
    );
  }
  const rev = await git(['rev-parse', '--verify', '--quiet', `${ref}^{commit}`], opts.cwd);
  if (rev.code !== 0) {
    return fail(
      'git-unknown-ref',
      'The git revision does not exist in this repository.',
      'Check the name (a shallow CI checkout may need `fetch-depth: 0` or a `git fetch` of that branch).',
    );
  }
  const relative = file.startsWith('./') || file.startsWith('../') ? file : `./${file}`;
  const show = await git(['show', '--no-textconv', `${ref}:${relative}`], opts.cwd);
  if (show.tooLarge) {
    return fail(
      'file-too-large',
      'The file at that revision is larger than 1 MiB.',
      'Check that the path names the policy file.',
    );
  }
  if (show.code !== 0) {
    return fail(
      'git-path-not-found',
      'The file does not exist at that git revision.',
      'Check the path (relative to the working directory) and that the file was committed at that revision.',
    );
  }
  const decoded = decodeInput(new Uint8Array(show.stdout), { file: opts.label });
  if (!decoded.ok) return { ok: false, diagnostic: decoded.error };
  return { ok: true, text: decoded.text };
}
