// End-to-end: aider chat histories through the CLI. A file with several sessions is one
// transcript per session (FILE#N, golden FILE#N.golden.json), --session picks one, a session
// that does not exist is a file:line:column error (exit 2), and a directory walk reads Markdown
// files only when they are aider chat histories. test/cli/aider-session.test.ts runs the other
// commands in-process. The scenarios here run in-process too (runInProcess); one run per command
// and output format goes through the built CLI (`bin/context-stability.js` → build/) as a child
// process (`spawned`): check in 'check writes one golden per session…', update in 'update writes
// one golden per session', stabilize in '--session 3 on a two-session file…', inspect and inspect
// --json in 'inspect labels each row…'.
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
import { assertBuilt, runBuilt, runInProcess } from './check-cli.js';
import type { Run } from './check-cli.js';
import { aiderHistory } from '../core/readers/aider-history.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/readers/aider/', import.meta.url));
const OPENHANDS_OUTPUT = fileURLToPath(
  new URL('../fixtures/readers/openhands/output.jsonl', import.meta.url),
);
const TWO = 'transcripts/history.md';
const ONE = 'transcripts/one.md';
const G1 = `golden/${TWO}#1.golden.json`;
const G2 = `golden/${TWO}#2.golden.json`;
const G_ONE = `golden/${ONE}.golden.json`;

let dir: string;

/** One CLI run in this process. */
function cli(args: string[]): Promise<Run> {
  return runInProcess(args, dir);
}

/** One run of the built bin as a child process: the process-level runs of this file. */
function spawned(args: string[]): Promise<Run> {
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
    const run = await spawned(['check', 'transcripts']);
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
    const run = await spawned(['update', TWO]);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`wrote   ${G1} (new)`);
    expect(run.stdout).toContain(`wrote   ${G2} (new)`);
    expect(goldens()).toEqual([G1, G2]);
  });

  it('--session 2 and --session last run that session only; the other golden is not obsolete', async () => {
    expect((await cli(['update', TWO])).code).toBe(0);
    for (const session of ['2', 'last']) {
      const run = await cli(['check', '--ci', '--verbose', '--session', session, TWO]);
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
    const stabilize = await spawned(['stabilize', '--session', '3', TWO]);
    expect(stabilize.code).toBe(2);
    expect(stabilize.stderr).toContain(`${TWO}:1:1: error[session-out-of-range]`);
    expect(goldens()).toEqual([]);
  });

  it('empty sessions are skipped with one note: the run exits as if they were not there', async () => {
    const MANY = 'transcripts/many.md';
    writeFileSync(path.join(dir, MANY), aiderHistory(12, new Set([1, 4, 5, 12])));
    const check = await cli(['check', MANY]);
    expect(check.code, check.stderr).toBe(0);
    expect(`${check.stdout}${check.stderr}`).toContain(
      `${MANY}:1:1: warning[empty-sessions]: 4 of 12 sessions are empty (no message) and were skipped: 1, 4, 5, 12.`,
    );
    expect(check.stdout).toContain('8 transcripts checked');
    expect(check.stdout).not.toMatch(/many\.md#(1|4|5|12) /);
    expect(goldens().filter((g) => g.includes('many.md'))).toEqual(
      [2, 3, 6, 7, 8, 9, 10, 11].map((n) => `golden/${MANY}#${n}.golden.json`).sort(),
    );
    // stabilize reads the last session with a message.
    const stabilize = await cli(['stabilize', MANY]);
    expect(stabilize.code).toBe(0);
    expect(stabilize.stdout).toContain(`${MANY}#11: `);
    const inspect = await cli(['inspect', MANY]);
    expect(inspect.code).toBe(0);
    expect(inspect.stderr).toContain('warning[empty-sessions]');
    // Every session empty: the file is an error, as one empty session is.
    writeFileSync(path.join(dir, MANY), aiderHistory(3, new Set([1, 2, 3])));
    const empty = await cli(['check', MANY]);
    expect(empty.code).toBe(2);
    expect(empty.stdout).toContain(`${MANY}:1:1: error[empty-transcript]`);
  });
});

describe('OpenHands evaluation output (JSONL) through the CLI', () => {
  const OUT = 'runs/output.jsonl';
  beforeEach(() => {
    mkdirSync(path.join(dir, 'runs'), { recursive: true });
    writeFileSync(path.join(dir, OUT), readFileSync(OPENHANDS_OUTPUT));
  });

  it('check: one transcript per row with a run, FILE#N; the empty row is a note', async () => {
    const check = await cli(['check', OUT]);
    expect(check.code, check.stderr).toBe(0);
    expect(check.stdout).toMatch(/^NEW +runs\/output\.jsonl#1 /m);
    expect(check.stdout).toMatch(/^NEW +runs\/output\.jsonl#3 /m);
    expect(check.stdout).not.toContain('output.jsonl#2');
    expect(check.stdout).toContain(
      `${OUT}:1:1: warning[empty-sessions]: 1 of 3 rows is empty (no message) and was skipped: 2.`,
    );
    expect(goldens()).toEqual([`golden/${OUT}#1.golden.json`, `golden/${OUT}#3.golden.json`]);
  });

  it('inspect labels each row with its instance id; --session picks one', async () => {
    const inspect = await spawned(['inspect', OUT]);
    expect(inspect.code, inspect.stderr).toBe(0);
    expect(inspect.stdout).toContain(`${OUT}#1 (acme__widgets-101)\n  format: openhands`);
    expect(inspect.stdout).toContain(`${OUT}#3 (issue 7)\n  format: openhands`);
    const json = await spawned(['inspect', '--json', '--session', '1', OUT]);
    const files = (JSON.parse(json.stdout) as { files: { file: string; session_label?: string }[] }).files;
    expect(files).toEqual([
      expect.objectContaining({ file: `${OUT}#1`, session_label: 'acme__widgets-101' }),
    ]);
    const two = await cli(['check', '--session', '2', OUT]);
    expect(two.code).toBe(2);
    expect(two.stdout).toContain(`${OUT}#2:1:1: error[empty-transcript]`);
    const four = await cli(['stabilize', '--session', '4', OUT]);
    expect(four.code).toBe(2);
    expect(four.stderr).toContain(`${OUT}:1:1: error[session-out-of-range]: The file holds 3 sessions`);
    const forced = await cli(['inspect', '--input-format', 'openhands', OUT]);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`${OUT}#3 (issue 7)`);
  });
});
