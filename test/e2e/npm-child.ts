// Child npm and node processes for the package tests: the environment without the npm_* variables
// of an enclosing `npm test`, a bounded run, and a check that names what failed with its output.
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';

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

/** What a child left: its output and how it ended (a spawnSync result, or runAsync's). */
export type Ran = Pick<SpawnSyncReturns<string>, 'stdout' | 'stderr' | 'status' | 'error'>;

/** `run` without blocking the worker: installs and compilers a test runs side by side. */
export function runAsync(command: string, args: string[], cwd: string): Promise<Ran> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd, env: childEnv(), timeout: TIMEOUT });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', (error) => resolve({ stdout, stderr, status: null, error }));
    child.on('close', (status) => resolve({ stdout, stderr, status }));
  });
}

const NETWORK = /\b(ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENETUNREACH|EHOSTUNREACH)\b/;

/**
 * Why the npm registry cannot be reached, undefined when it can: one `npm ping` without retries
 * (an unreachable registry makes `npm install` retry for over a minute before it fails). Any other
 * failure (a mirror without the ping endpoint) counts as reachable, so the install says what is wrong.
 */
export function registryUnreachable(cwd: string): string | undefined {
  const r = spawnSync('npm', ['ping', '--fetch-retries=0', '--fetch-timeout=15000'], {
    cwd,
    env: childEnv(),
    encoding: 'utf8',
    timeout: 30_000,
  });
  if (r.status === 0) return undefined;
  const code = NETWORK.exec(`${r.error?.message ?? ''}\n${r.stdout}\n${r.stderr}`)?.[1];
  return code === undefined ? undefined : `the npm registry is unreachable (npm ping: ${code})`;
}

export function ok(r: Ran, what: string): string {
  if (r.error || r.status !== 0)
    throw new Error(`${what} failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

/**
 * `npm pack` of the repo into `dest`: the tarball's path and the files it holds. --ignore-scripts:
 * no prepack rebuild of build/ while other test files use it (`npm test` built it).
 */
export function packTarball(repo: string, dest: string): { tarball: string; files: string[] } {
  const out = ok(
    run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dest], repo),
    'npm pack',
  );
  const [info] = JSON.parse(out) as { filename: string; files: { path: string }[] }[];
  if (!info) throw new Error(`npm pack printed no package:\n${out}`);
  return { tarball: path.join(dest, path.basename(info.filename)), files: info.files.map((f) => f.path) };
}
