// Test files that change what other files would see: module mocks (vi.mock), fake timers, the
// process environment or global V8 state, a browser, child processes and the Action's globals.
// They run isolated (a fresh module graph per file); every other file shares its worker's modules,
// which saves importing src/ and loading a tokenizer again for each of about 250 files (the suite
// spent more time importing than testing).
export const ISOLATED = [
  'test/e2e/**/*.test.ts',
  'test/action/**/*.test.ts',
  'test/core/readers/sessions-parse-once.test.ts',
  'test/runtime/incremental-responses.test.ts',
  'test/support/generate.test.ts',
  'test/cli/check-base-policy.test.ts',
];

/** What makes a file need isolation; test/scripts/isolation.test.ts looks for it in every other file. */
export const GLOBAL_STATE =
  /vi\.(mock|doMock|stubEnv|stubGlobal|useFakeTimers|spyOn\(process)|process\.env(\.\w+|\[[^\]]+\]) *=(?!=)|delete process\.env|process\.chdir|setFlagsFromString/;
