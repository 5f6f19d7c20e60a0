import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { ISOLATED } from './test/isolated-files.js';
import { SlowFirstSequencer } from './test/sequencer.js';

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // vitest's default leaves one core free (one worker on a 2-core runner); the suite is CPU-bound
    // and its end-to-end files wait on child processes, so every core runs a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    // Property tests print their seed; FC_SEED=<seed> replays one (test/support/fc.ts).
    reporters: ['default'],
    sequence: { sequencer: SlowFirstSequencer },
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
