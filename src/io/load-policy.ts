// Finds and reads the policy file: the edge half of `parsePolicy`. An explicit path must
// exist; otherwise the conventional `.github/context-policy.{yml,yaml,json}` is used when
// present, else the built-in default (DESIGN §3).
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import { defaultPolicyResult, parsePolicy } from '../core/policy/parse.js';
import type { ParsedPolicy } from '../core/policy/parse.js';
import type { Diagnostic } from '../core/types.js';
import { pathExists } from './path-exists.js';
import { readInput } from './read-input.js';

/** Looked up under the working directory, in this order, when no policy path is given. */
export const POLICY_FILE_CANDIDATES = [
  '.github/context-policy.yml',
  '.github/context-policy.yaml',
  '.github/context-policy.json',
] as const;

/** A policy is a few hundred bytes; anything near this is not a policy. */
export const MAX_POLICY_BYTES = 1024 * 1024;

/** `'default'`: the built-in policy; otherwise the file, named as given or relative to cwd. */
export type PolicySourceName = 'default' | (string & {});

export type LoadPolicyResult =
  | (ParsedPolicy & { source: PolicySourceName })
  | { ok: false; source: PolicySourceName; diagnostics: Diagnostic[] };

export interface LoadPolicyOptions {
  /** Where the conventional policy files are looked up and relative paths resolve. */
  cwd: string;
  maxFileBytes?: number;
  /** Unknown keys are errors, not warnings (`policy validate --strict`); see ParsePolicyOptions. */
  strict?: boolean;
}

// readInput's hints are written for transcripts; these say what to do about a policy file.
const POLICY_HINTS: Readonly<Record<string, string>> = {
  'not-found': 'Check the policy path; without one, .github/context-policy.yml is used when it exists.',
  'is-directory': 'Pass the policy file itself, e.g. .github/context-policy.yml.',
  'file-too-large': 'A policy is a short YAML or JSON file: check that the right file was passed.',
};

async function loadFile(
  file: string,
  opts: LoadPolicyOptions,
  found: Diagnostic[],
): Promise<LoadPolicyResult> {
  const input = await readInput(file, { cwd: opts.cwd, maxFileBytes: opts.maxFileBytes ?? MAX_POLICY_BYTES });
  if (!input.ok) {
    // A whitespace-only file is the same case as a comment-only one: the default applies, with a warning.
    if (input.error.code === 'empty') return withFound({ ...parsePolicy('', { file }), source: file }, found);
    const hint = POLICY_HINTS[input.error.code] ?? input.error.hint;
    return { ok: false, source: file, diagnostics: [...found, { ...input.error, hint }] };
  }
  return withFound({ ...parsePolicy(input.text, { file, strict: opts.strict }), source: file }, found);
}

function withFound(result: LoadPolicyResult, found: Diagnostic[]): LoadPolicyResult {
  return found.length === 0 ? result : { ...result, diagnostics: [...found, ...result.diagnostics] };
}

/**
 * Loads the policy at `file`, or discovers it under `opts.cwd`. Never throws on bad input: an
 * unreadable or invalid policy is `ok: false` with diagnostics naming the file as shown to the user.
 */
export async function loadPolicy(
  file: string | undefined,
  opts: LoadPolicyOptions,
): Promise<LoadPolicyResult> {
  if (file !== undefined) return loadFile(file, opts, []);

  const present: string[] = [];
  for (const candidate of POLICY_FILE_CANDIDATES) {
    if (await pathExists(path.resolve(opts.cwd, candidate))) present.push(candidate);
  }
  const [chosen, ...others] = present;
  if (chosen === undefined) return { ...defaultPolicyResult(), source: 'default' };
  const found =
    others.length === 0
      ? []
      : [
          diagnostic(
            'warning',
            'multiple-policy-files',
            { file: chosen, line: 1, column: 1 },
            `several policy files exist (${present.join(', ')}); this one is used.`,
            'Delete the others so that one file states the policy.',
          ),
        ];
  return loadFile(chosen, opts, found);
}
