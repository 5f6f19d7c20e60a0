// End-to-end: aider chat histories through the built CLI. A file with several sessions is one
// transcript per session (FILE#N, golden FILE#N.golden.json), --session picks one, a session
// that does not exist is a file:line:column error (exit 2), and a directory walk reads Markdown
// files only when they are aider chat histories. test/cli/aider-session.test.ts runs the other
// commands in-process.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { assertBuilt, runBuilt } from './check-cli.js';
import type { Run } from './check-cli.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/readers/aider/', import.meta.url));
const TWO = 'transcripts/history.md';
const ONE = 'transcripts/one.md';
const G1 = `golden/${TWO}#1.golden.json`;
const G2 = `golden/${TWO}#2.golden.json`;
const G_ONE = `golden/${ONE}.golden.json`;

let dir: string;

function cli(args: string[]): Promise<Run> {
  return runBuilt(args, dir);
}

function goldens(): string[] {
  const root = path.join(dir, 'golden');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .map((f) => `golden/${f.split(path.sep).join('/')}`)
    .filter((f) => f.endsWith('.golden.json'))
    .sort();
}

beforeAll(() => {
  assertBuilt();
});
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-aider-'));
  mkdirSync(path.join(dir, 'transcripts/notes'), { recursive: true });
  writeFileSync(path.join(dir, TWO), readFileSync(path.join(FIXTURES, 'two-sessions.aider.chat.history.md')));
  writeFileSync(path.join(dir, ONE), readFileSync(path.join(FIXTURES, 'one-session.aider.chat.history.md')));
  // Markdown that is no chat history: a directory walk must not read it.
  writeFileSync(
    path.join(dir, 'transcripts/README.md'),
    '# Transcripts\n\n#### How to add one\n\n> Copy it here.\n',
  );
  writeFileSync(path.join(dir, 'transcripts/notes/todo.md'), '- review the goldens\n');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('aider chat histories through the CLI', () => {
  it('check writes one golden per session, then passes; README.md files are not read', async () => {
    const run = await cli(['check', 'transcripts']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^NEW +transcripts\/history\.md#1 /m);
    expect(run.stdout).toMatch(/^NEW +transcripts\/history\.md#2 /m);
    expect(run.stdout).toMatch(/^NEW +transcripts\/one\.md /m);
    expect(run.stdout).toContain('3 transcripts checked');
    expect(`${run.stdout}${run.stderr}`).not.toContain('README');
    expect(`${run.stdout}${run.stderr}`).not.toContain('todo.md');
    expect(goldens()).toEqual([G_ONE, G1, G2].sort());
    const golden = JSON.parse(readFileSync(path.join(dir, G2), 'utf8')) as { transcript: string };
    expect(golden.transcript).toBe(`${TWO}#2`);

    const again = await cli(['check', '--ci', 'transcripts']);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(
      '3 transcripts checked: 0 with violations, 0 drifted, 0 new, 0 errors, 3 passed',
    );
    expect(again.stdout).toContain('0 obsolete goldens');
  });

  it('update writes one golden per session', async () => {
    const run = await cli(['update', TWO]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote   ${G1} (new)`);
    expect(run.stdout).toContain(`wrote   ${G2} (new)`);
    expect(goldens()).toEqual([G1, G2]);
  });

  it('--session 2 and --session last run that session only; the other golden is not obsolete', async () => {
    expect((await cli(['update', TWO])).code).toBe(0);
    for (const session of ['2', 'last']) {
      const run = await cli(['check', '--ci', '--session', session, TWO]);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^PASS +transcripts\/history\.md#2 /m);
      expect(run.stdout).not.toContain('history.md#1');
      expect(run.stdout).toContain(
        '1 transcript checked: 0 with violations, 0 drifted, 0 new, 0 errors, 1 passed',
      );
      expect(run.stdout).toContain('0 obsolete goldens');
    }
    const pruned = await cli(['update', '--session', '1', '--prune-obsolete', TWO]);
    expect(pruned.code).toBe(0);
    expect(goldens()).toEqual([G1, G2]);
  });

  it('--session 3 on a two-session file is a file:line:column error, exit 2', async () => {
    const check = await cli(['check', '--ci', '--session', '3', TWO]);
    expect(check.code).toBe(2);
    expect(check.stdout).toContain(
      `${TWO}:1:1: error[session-out-of-range]: The file holds 2 sessions; session 3 was asked for.`,
    );
    const stabilize = await cli(['stabilize', '--session', '3', TWO]);
    expect(stabilize.code).toBe(2);
    expect(stabilize.stderr).toContain(`${TWO}:1:1: error[session-out-of-range]`);
    expect(goldens()).toEqual([]);
  });
});
