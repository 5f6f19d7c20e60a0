// The golden folder's lock for the commands that write goldens (`update`, a `check` outside CI):
// a second writer waits briefly, then gives up with one diagnostic and exit 2, having written
// nothing (io/lock.ts).
import { diagnostic, formatDiagnostic } from '../core/diagnostics.js';
import { GOLDEN_LOCK, withGoldenFolderLock } from '../io/golden-store.js';
import type { GoldenStoreOptions } from '../io/golden-store.js';
import { LockBusyError } from '../io/lock.js';
import { EXIT_INPUT } from './command.js';
import type { CliIO } from './command.js';

/** Runs `body` holding the golden folder's lock; exit 2 with a diagnostic when another run holds it. */
export async function withGoldenLock(
  store: GoldenStoreOptions,
  purpose: string,
  io: CliIO,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await withGoldenFolderLock(store, purpose, body, { env: io.env });
  } catch (error) {
    if (!(error instanceof LockBusyError)) throw error;
    io.stderr(`${formatDiagnostic(busyDiagnostic(store, error))}\n`);
    return EXIT_INPUT;
  }
}

export function busyDiagnostic(store: GoldenStoreOptions, error: LockBusyError) {
  return diagnostic(
    'error',
    'lock-busy',
    { file: `${store.goldenDir}/${GOLDEN_LOCK}`, line: 1, column: 1 },
    `${error.message} on the golden folder, and did not let go within ${Math.round(error.waitedMs / 1000)} s; ` +
      'nothing was written.',
    'Run again once the other run has finished. If no such process runs, remove the lock file.',
  );
}
