// Runs the built CLI (`bin/context-stability.js` → build/) as a child process for the check,
// update and merge end-to-end tests. Run `npm run build` first (`npm test` does).
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { CI_PROVIDER_VARIABLES } from '../../src/cli/check/options.js';
import { fakeIO } from '../cli/fake-io.js';

export const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
export const BIN = path.join(REPO, 'bin/context-stability.js');

export function assertBuilt(): void {
  if (!existsSync(path.join(REPO, 'build/cli/commands/check.js'))) {
    throw new Error('build/cli/commands/check.js is missing: run `npm run build` before the e2e tests.');
  }
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * The child's environment: the test runner's own CI variables (CI and every provider's, such as
 * GITHUB_ACTIONS) never leak in; `env` sets them explicitly.
 */
export function childEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  delete base['CI'];
  for (const name of CI_PROVIDER_VARIABLES) delete base[name];
  return { ...base, ...env };
}

export function runBuilt(args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      { cwd, maxBuffer: 64 * 1024 * 1024, env: childEnv(env) },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
        if (code === null) reject(error ?? new Error('the CLI did not exit normally'));
        else resolve({ code, stdout, stderr });
      },
    );
  });
}

/**
 * Runs one CLI invocation in this process (`main` from src/cli/main.ts with an in-memory IO), for
 * scenarios where the process boundary is not what is tested: spawning node costs about a second of
 * cold start per run. The environment is what a child gets from runBuilt: NO_COLOR, no CI variables
 * of the test runner, then `env`. Each command still keeps one runBuilt test of its own (the bin, the
 * bundle, exit codes as the shell sees them).
 */
export async function runInProcess(
  args: string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<Run> {
  const { main } = await import('../../src/cli/main.js');
  const io = fakeIO(cwd, childEnv(env));
  const code = await main(args, io);
  return { code, stdout: io.out(), stderr: io.err() };
}
