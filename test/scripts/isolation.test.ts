// Most test files share their worker's modules (vitest.config.ts, isolate: false). A file that
// mocks a module, fakes timers or writes to the process environment would leak that into the files
// after it, so it must be listed in test/isolated-files.ts: this test finds the ones that are not.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { GLOBAL_STATE, ISOLATED } from '../isolated-files.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');

function matchesIsolated(file: string): boolean {
  return ISOLATED.some((pattern) =>
    pattern.endsWith('/**/*.test.ts')
      ? file.startsWith(pattern.slice(0, -'**/*.test.ts'.length))
      : file === pattern,
  );
}

describe('test isolation', () => {
  it('lists every test file that changes global state among the isolated ones', () => {
    const files = readdirSync(path.join(REPO, 'test'), { recursive: true, encoding: 'utf8' })
      .map((f) => `test/${f.split(path.sep).join('/')}`)
      // This file names the patterns in its own examples.
      .filter((f) => f.endsWith('.test.ts') && f !== 'test/scripts/isolation.test.ts');
    expect(files.length).toBeGreaterThan(200);
    const leaking = files.filter(
      (f) => !matchesIsolated(f) && GLOBAL_STATE.test(readFileSync(path.join(REPO, f), 'utf8')),
    );
    expect(leaking, 'add these to ISOLATED in test/isolated-files.ts').toEqual([]);
  });

  it('recognises what needs isolation', () => {
    for (const code of [
      "vi.mock('x')",
      'vi.useFakeTimers()',
      "process.env['CI'] = '1'",
      'process.env.CI = x',
    ])
      expect(GLOBAL_STATE.test(code), code).toBe(true);
    for (const code of ["process.env['CI'] === '1'", 'const env = { ...process.env }'])
      expect(GLOBAL_STATE.test(code), code).toBe(false);
    expect(matchesIsolated('test/action/a/b.test.ts')).toBe(true);
    expect(matchesIsolated('test/core/a.test.ts')).toBe(false);
  });
});
