import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Test files that change what other files would see: module mocks (vi.mock), fake timers, the
// process environment or global V8 state, a browser, child processes and the Action's globals.
// They run isolated (a fresh module graph per file); every other file shares its worker's modules,
// which saves importing src/ and loading a tokenizer again for each of about 250 files (the suite
// spent more time importing than testing).
const ISOLATED = [
  'test/e2e/**/*.test.ts',
  'test/action/**/*.test.ts',
  'test/core/readers/sessions-parse-once.test.ts',
  'test/runtime/incremental-responses.test.ts',
  'test/support/generate.test.ts',
  'test/cli/check-base-policy.test.ts',
];

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // vitest's default leaves one core free (one worker on a 2-core runner); the suite is CPU-bound
    // and its end-to-end files wait on child processes, so every core runs a worker.
    maxWorkers: Math.max(2, availableParallelism()),
    // Property tests print their seed on failure; CI pins it via FC_SEED (see test/support/fc.ts).
    reporters: ['default'],
    projects: [
      {
        extends: true,
        test: { name: 'shared', include: ['test/**/*.test.ts'], exclude: ISOLATED, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: ISOLATED } },
    ],
  },
});
