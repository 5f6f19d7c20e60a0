import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // vitest's default leaves one core free (one worker on a 2-core runner); the suite is CPU-bound
    // and its end-to-end files wait on child processes, so every core runs a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    // Property tests print their seed on failure; CI pins it via FC_SEED (see test/support/fc.ts).
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
