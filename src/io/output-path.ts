// Where the report and the viewer page are written. The Action writes them (`report-path`,
// `html-path`) inside the workspace or the runner's temp folder (RUNNER_TEMP), as the golden folder
// is kept inside the workspace. A workflow's inputs are trusted but a pull request's files are
// not: a folder that a pull request commits as a symbolic link (`out -> /home/runner/.ssh`) must
// not carry a write out of the workspace, so the path is checked twice: as written (no `..` out,
// no absolute path elsewhere) when the inputs are read, and with every link followed before
// anything is written. The CLI (`--report`, `--html`) takes any path its user writes, but one
// written inside the working directory must stay inside it once links are followed.
import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic } from '../core/diagnostics.js';
import type { Diagnostic } from '../core/types.js';
import { isWithin, realPathOf } from './real-path.js';

/** The input or option that names the file: `report-path`, `html-path`, `--report`, `--html`. */
export type OutputInput = 'report-path' | 'html-path' | '--report' | '--html';

/** The folders an output file may lie in: the workspace, and RUNNER_TEMP when the runner sets it. */
export interface OutputRoots {
  workspace: string;
  runnerTemp?: string | undefined;
}

function rootsOf(roots: OutputRoots): string[] {
  return roots.runnerTemp ? [roots.workspace, roots.runnerTemp] : [roots.workspace];
}

/** Strictly below `root` (the root itself is a folder, never the file). */
function below(file: string, root: string): boolean {
  return file !== root && isWithin(file, root);
}

/** Why `value` (an input, relative to the workspace) may not be written to, or null when it may. */
export function outputPathProblem(input: OutputInput, value: string, roots: OutputRoots): string | null {
  const file = path.resolve(roots.workspace, value);
  if (rootsOf(roots).some((root) => below(file, path.resolve(root)))) return null;
  return (
    `Input ${input}: the file must lie inside the workspace (a relative path without \`..\` out of it) ` +
    'or inside the runner temp folder (RUNNER_TEMP).'
  );
}

function refused(input: OutputInput, shown: string, roots: OutputRoots): Diagnostic {
  const where = roots.runnerTemp ? 'the workspace and the runner temp folder' : 'the working directory';
  return diagnostic(
    'error',
    'output-outside-workspace',
    { file: shown, line: 1, column: 1 },
    `The ${input} path resolves, through a symbolic link, to a place outside ${where}, or the link points nowhere; nothing is written there.`,
    `Replace the link with a regular folder, or set ${input} to a path in a regular folder.`,
  );
}

/**
 * The diagnostic when `file` (absolute) would be written outside the roots once every link on
 * the way is followed; null when it stays inside. `shown` is how the diagnostic names it.
 */
export async function refusedOutput(
  input: OutputInput,
  file: string,
  shown: string,
  roots: OutputRoots,
): Promise<Diagnostic | null> {
  const real = await realPathOf(file);
  if (real === null) return refused(input, shown, roots);
  const realRoots = await Promise.all(rootsOf(roots).map((root) => realpath(root).catch(() => null)));
  const inside = realRoots.some((root) => root !== null && below(real, root));
  return inside ? null : refused(input, shown, roots);
}

/**
 * For the CLI's `--report` and `--html`: a path written inside the working directory that a
 * symbolic link carries outside it. A path written outside (absolute, or `..`) is the user's choice.
 */
export async function refusedCliOutput(
  option: '--report' | '--html',
  value: string,
  cwd: string,
): Promise<Diagnostic | null> {
  const roots = { workspace: cwd };
  if (outputPathProblem(option, value, roots) !== null) return null;
  return refusedOutput(option, path.resolve(cwd, value), value, roots);
}
