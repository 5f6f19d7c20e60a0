// Test files that change what other files would see: module mocks (vi.mock), fake timers, the
// process environment, and the Action's tests (the in-process runner swaps process.env, stdout and
// the exit code for each run). They run isolated (a fresh module graph per file); every other file,
// end-to-end ones included, shares its worker's modules, which saves importing src/ and loading a
// tokenizer again for each of about 270 files (the suite spent more time importing than testing).
export const ISOLATED = [
  'test/action/**/*.test.ts',
  'test/core/readers/sessions-parse-once.test.ts',
  'test/runtime/incremental-responses.test.ts',
  'test/support/generate.test.ts',
  'test/cli/check-base-policy.test.ts',
  'test/cli/watchdog.test.ts',
];

/** What makes a file need isolation; test/scripts/isolation.test.ts looks for it in every other file. */
export const GLOBAL_STATE =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn\(process)|process\.env(\.\w+|\[[^\]]+\]) *=(?!=)|delete process\.env|process\.chdir|setFlagsFromString/;
