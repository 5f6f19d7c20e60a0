// The action's entry (dist/index.js is this file bundled): start.ts does the work. Worker threads
// start from this same bundle (`jobs`); there golden-worker.ts serves instead.
import { startAction } from './start.js';
import { isGoldenWorker } from '../cli/check/golden-worker.js';

if (!isGoldenWorker()) await startAction(process.env, { url: new URL(import.meta.url) });
