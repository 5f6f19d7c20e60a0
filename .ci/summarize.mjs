// Prints vitest's totals as the plain closing line "Tests: N passed, N failed, N skipped".
import { readFileSync } from 'node:fs';

const file = process.argv[2];
let report;
try {
  report = JSON.parse(readFileSync(file, 'utf8'));
} catch {
  console.log('Tests: 0 passed, 1 failed');
  console.error(`no test report at ${file}: lint, typecheck or build failed before the tests ran`);
  process.exit(0);
}
const passed = report.numPassedTests ?? 0;
// A test file that fails to load runs no test but is still a failure.
const brokenFiles = (report.testResults ?? []).filter(
  (r) => r.status === 'failed' && (r.assertionResults ?? []).length === 0,
).length;
const failed = (report.numFailedTests ?? 0) + brokenFiles;
const skipped = (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0);
console.log(`Tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
