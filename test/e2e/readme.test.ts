// The README's first command must work on a fresh clone: `check` on the bundled examples against the
// committed goldens, in CI mode (nothing written, a missing golden fails). A stabilizer change that
// moves any example shows up here as drift, until `npm run goldens` rewrites them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO, assertBuilt, runBuilt } from './check-cli.js';

describe('README', () => {
  beforeAll(assertBuilt);

  it('starts with the two commands a fresh clone runs', () => {
    const readme = readFileSync(path.join(REPO, 'README.md'), 'utf8');
    const block = /```sh\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';
    const commands = block
      .split('\n')
      .map((l) => l.replace(/#.*$/, '').trim())
      .filter(Boolean);
    expect(commands).toEqual(['npm ci && npx context-stability check examples/transcripts', 'npm test']);
  });

  it('checks the bundled examples against the committed goldens, with the repo policy, and passes', async () => {
    const r = await runBuilt(['check', 'examples/transcripts'], REPO, { CI: 'true' });
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /6 transcripts checked: 0 with violations, 0 drifted, 0 new, 0 errors, 6 passed; 0 obsolete goldens\./,
    );
    expect(r.code).toBe(0);
  });
});
