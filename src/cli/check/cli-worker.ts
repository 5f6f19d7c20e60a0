// Where the CLI's worker threads start (golden-jobs.ts). Apart from golden-jobs.ts so that the
// Action's bundle, which starts workers from its own entry, does not carry this file reference.
import { existsSync } from 'node:fs';
import type { WorkerScript } from './golden-jobs.js';

let entryScript: WorkerScript | undefined;

/** The bundled CLI (bin.ts) starts its workers from itself: the bundle holds golden-worker.ts. */
export function useWorkerScript(script: WorkerScript): void {
  entryScript = script;
}

/**
 * The CLI's worker: golden-worker.js beside this module once built. Run from the TypeScript
 * sources (tests, tsx), the built module of the same name (`npm run build`): Node 20 applies no
 * TypeScript loader to worker threads. Without a build, undefined (everything on this thread).
 */
export function cliWorkerScript(): WorkerScript | undefined {
  if (entryScript) return entryScript;
  const here = import.meta.url;
  // A loader may add a query (tsx does): the path tells source from build.
  if (!new URL(here).pathname.endsWith('.ts')) return { url: new URL('./golden-worker.js', here) };
  const built = new URL('../../../build/cli/check/golden-worker.js', here);
  return existsSync(built) ? { url: built } : undefined;
}
