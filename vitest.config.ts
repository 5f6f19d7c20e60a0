import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Property tests print their seed on failure; CI pins it via FC_SEED (see test/support/fc.ts).
    reporters: process.env.CI ? ['default'] : ['default'],
  },
});
