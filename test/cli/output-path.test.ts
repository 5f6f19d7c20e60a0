// Issue 34, item 10, in the CLI: `--report` and `--html` written inside the working directory are
// not written through a folder that a symbolic link (one a pull request can commit) carries
// outside it; a path the user writes outside (absolute, `..`) is theirs to choose.
import { mkdirSync, readdirSync, symlinkSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { TempRepo } from './check-support.js';
import { fakeIO } from './fake-io.js';

let repo: TempRepo;
let outside: string;
beforeEach(() => {
  repo = new TempRepo();
  outside = path.join(repo.root, 'outside');
  mkdirSync(outside);
  symlinkSync(outside, repo.path('out'), 'dir');
});
afterEach(() => repo.remove());

async function check(...argv: string[]): Promise<{ code: number; err: string }> {
  const io = fakeIO(repo.dir, {});
  const code = await main(['check', '--ci', '--policy', 'policy.yml', ...argv, 'transcripts'], io);
  return { code, err: io.err() };
}

describe('check --report / --html through a link to outside', () => {
  for (const [option, value] of [
    ['--report', 'out/r.json'],
    ['--html', 'out/pages'],
  ] as const) {
    it(`${option} ${value}: refused with output-outside-workspace, nothing written`, async () => {
      const run = await check(option, value);
      expect(run.code).toBe(2);
      expect(run.err).toMatch(
        new RegExp(`^out/.*: error\\[output-outside-workspace\\]: The ${option} path`, 'm'),
      );
      expect(readdirSync(outside)).toEqual([]);
    });
  }

  it('merge --report out/m.json: refused the same way', async () => {
    expect((await check('--shard', '1/1', '--report', 'shard.json')).code).not.toBe(2);
    const io = fakeIO(repo.dir, {});
    const code = await main(['merge', 'shard.json', '--report', 'out/m.json'], io);
    expect(io.err()).toContain('error[output-outside-workspace]: The --report path');
    expect(code).toBe(2);
    expect(readdirSync(outside)).toEqual([]);
  });

  it('a path written outside the working directory is the user’s choice', async () => {
    const run = await check('--report', '../outside/r.json');
    expect(run.err).not.toContain('output-outside-workspace');
    expect(readdirSync(outside)).toEqual(['r.json']);
  });
});
