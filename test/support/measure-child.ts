// Memory tests measure a child process (its own heap and RSS, not the test worker's): the child is
// a TypeScript file run through tsx that prints one JSON line of what it measured.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../', import.meta.url));

/** Runs `child` (a path) with `args` from the repo root and returns the JSON it printed. */
export function measureChild<T>(
  child: string,
  args: string[],
  opts: { nodeFlags?: string[]; timeout?: number } = {},
): Promise<T> {
  const argv = [...(opts.nodeFlags ?? []), '--import', 'tsx', child, ...args];
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      argv,
      { cwd: REPO, timeout: opts.timeout ?? 60_000 },
      (error, stdout, stderr) => {
        if (error) reject(new Error(`child failed: ${stderr}`));
        else resolve(JSON.parse(stdout) as T);
      },
    );
  });
}
