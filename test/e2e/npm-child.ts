// Child npm and node processes for the package tests: the environment without the npm_* variables
// of an enclosing `npm test`, a bounded run, and a check that names what failed with its output.
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

export const TIMEOUT = 120_000;

/** The environment of a child npm: without the npm_* variables of an enclosing `npm test`. */
export function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (key.startsWith('npm_') && !key.startsWith('npm_config_')) continue;
    if (key === 'npm_config_prefix' || key === 'INIT_CWD') continue;
    env[key] = value;
  }
  return { ...env, NO_COLOR: '1', npm_config_update_notifier: 'false', npm_config_fund: 'false' };
}

export function run(command: string, args: string[], cwd: string): SpawnSyncReturns<string> {
  return spawnSync(command, args, { cwd, env: childEnv(), encoding: 'utf8', timeout: TIMEOUT });
}

export function ok(r: SpawnSyncReturns<string>, what: string): string {
  if (r.error || r.status !== 0)
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}
