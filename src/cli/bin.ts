// The CLI as the package's bin runs it: scripts/bundle-cli.mjs bundles this entry into one file,
// build/cli.bundle.js, because loading ~480 small ES modules took most of a short run's time. The
// same file serves as the worker of `--jobs` (golden-worker.ts serves there instead of main).
import { useWorkerScript } from './check/cli-worker.js';
import { isGoldenWorker } from './check/golden-worker.js';
import { main } from './main.js';

if (!isGoldenWorker()) {
  useWorkerScript({ url: new URL(import.meta.url) });
  process.exitCode = await main(process.argv.slice(2));
}
