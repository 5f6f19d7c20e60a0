// The per-file commands (stabilize, explain, inspect) on aider chat histories, in-process: which
// session they read, how it is named, --session values, and which Markdown a folder yields.
// test/e2e/aider-sessions.test.ts runs check and update through the built CLI.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { expandInputs } from '../../src/io/expand-inputs.js';
import { loadTranscripts } from '../../src/io/load-transcript.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/readers/aider/', import.meta.url));
const TWO = 'transcripts/history.md';
const ONE = 'transcripts/one.md';
let dir: string;

async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = fakeIO(dir);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-aider-cli-'));
  mkdirSync(path.join(dir, 'transcripts/deeper'), { recursive: true });
  writeFileSync(path.join(dir, TWO), readFileSync(path.join(FIXTURES, 'two-sessions.aider.chat.history.md')));
  writeFileSync(path.join(dir, ONE), readFileSync(path.join(FIXTURES, 'one-session.aider.chat.history.md')));
  writeFileSync(
    path.join(dir, 'transcripts/deeper/page.MD'),
    readFileSync(path.join(FIXTURES, 'docs-page.md')),
  );
  writeFileSync(
    path.join(dir, 'transcripts/README.md'),
    '# Transcripts\n\n#### How to add one\n\n> Copy it here.\n',
  );
  writeFileSync(path.join(dir, 'transcripts/.aider.chat.history.md'), readFileSync(path.join(dir, ONE)));
  writeFileSync(path.join(dir, 'transcripts/chat.json'), '[{"role": "user", "content": "hi"}]\n');
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('--session on the per-file commands', () => {
  it('stabilize reads the last session by default, names it FILE#N, and reads the one asked for', async () => {
    expect((await run('stabilize', TWO)).out).toMatch(/^transcripts\/history\.md#2: ok$/m);
    expect((await run('stabilize', '--session', '1', TWO)).out).toMatch(/^transcripts\/history\.md#1: ok$/m);
    expect((await run('stabilize', '--session', 'last', TWO)).out).toMatch(
      /^transcripts\/history\.md#2: ok$/m,
    );
    // A single session keeps the plain name, and --session 1 or last is accepted for it.
    expect((await run('stabilize', '--session', '1', ONE)).out).toMatch(/^transcripts\/one\.md: ok$/m);
    expect((await run('stabilize', '--session', '1', 'transcripts/chat.json')).code).toBe(0);
  });

  it('explain points at the session and the line of the whole file', async () => {
    const explained = await run('explain', '--session', '1', TWO, 'L45');
    expect(explained.code).toBe(0);
    expect(explained.out).toContain(`L45 (user, ${TWO}#1:45:6)`);
    const missing = await run('explain', TWO, 'L45');
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`${TWO}#2 has no artifact with id 'L45'`);
  });

  it('a session the file does not hold is an error at file:1:1 (exit 2), for aider and JSON alike', async () => {
    const two = await run('inspect', '--session', '3', TWO);
    expect(two.code).toBe(2);
    expect(two.err).toContain(
      `${TWO}:1:1: error[session-out-of-range]: The file holds 2 sessions; session 3 was asked for. Hint: Choose a session from 1 to 2, or last.`,
    );
    for (const file of [ONE, 'transcripts/chat.json']) {
      const one = await run('stabilize', '--session', '2', file);
      expect(one.code, file).toBe(2);
      expect(one.err, file).toContain(`${file}:1:1: error[session-out-of-range]: The file holds 1 session;`);
    }
  });

  it('rejects a --session value that is no session number (usage, exit 2)', async () => {
    for (const value of ['0', 'first', '-1', '1.5', '']) {
      const result = await run('stabilize', `--session=${value}`, TWO);
      expect(result.code, value).toBe(2);
      expect(result.err, value).toContain('Option --session accepts a session number (1, 2, …) or last.');
    }
  });

  it('documents --session in the help of every command that has it', async () => {
    for (const command of ['check', 'update', 'stabilize', 'explain', 'inspect']) {
      const help = await run(command, '--help');
      expect(help.out, command).toContain('--session N|last');
    }
  });
});

describe('sessions and folders', () => {
  it('inspect lists each session as a transcript; a folder yields only aider Markdown', async () => {
    const result = await run('inspect', '--json', 'transcripts');
    expect(result.code).toBe(0);
    const files = (JSON.parse(result.out) as { files: { file: string; format: string }[] }).files;
    expect(files.map((f) => `${f.file} ${f.format}`)).toEqual([
      'transcripts/chat.json openai',
      'transcripts/deeper/page.MD aider',
      `${TWO}#1 aider`,
      `${TWO}#2 aider`,
      `${ONE} aider`,
    ]);
  });

  it('walks folders for aider Markdown but keeps every file named or matched by a glob', async () => {
    const walked = await expandInputs(['transcripts'], { cwd: dir });
    expect(walked.files).toEqual(['transcripts/chat.json', 'transcripts/deeper/page.MD', TWO, ONE]);
    const named = await expandInputs(['transcripts/README.md', 'transcripts/*.md'], { cwd: dir });
    expect(named.files).toEqual(['transcripts/README.md', TWO, ONE]);
  });

  it('a folder with no transcript says what it looks for', async () => {
    mkdirSync(path.join(dir, 'notes'), { recursive: true });
    writeFileSync(path.join(dir, 'notes/README.md'), '# Notes\n');
    const notes = await expandInputs(['notes'], { cwd: dir });
    expect(notes.files).toEqual([]);
    expect(notes.diagnostics[0]?.hint).toContain('.md aider chat histories');
  });

  it('loadTranscripts names sessions FILE#N and reads every one, or the one asked for', async () => {
    const all = await loadTranscripts(TWO, { cwd: dir });
    expect(all.map((s) => [s.name, s.result.ok])).toEqual([
      [`${TWO}#1`, true],
      [`${TWO}#2`, true],
    ]);
    const first = all[0]?.result;
    expect(first?.ok && first.transcript.artifacts.every((a) => a.source.file === `${TWO}#1`)).toBe(true);
    expect((await loadTranscripts(TWO, { cwd: dir, session: 'last' })).map((s) => s.name)).toEqual([
      `${TWO}#2`,
    ]);
    expect((await loadTranscripts(ONE, { cwd: dir })).map((s) => s.name)).toEqual([ONE]);
  });
});

describe('a session golden and a file of the same name (issue 34)', () => {
  it('a file named FILE#N next to a multi-session FILE is a golden-path-collision; the session keeps its golden', async () => {
    const repo = mkdtempSync(path.join(tmpdir(), 'cs-aider-collide-'));
    try {
      mkdirSync(path.join(repo, 't'), { recursive: true });
      writeFileSync(path.join(repo, 't/history.md'), readFileSync(path.join(dir, TWO)));
      // The same golden name, `t/history.md#2`, also in another letter case.
      for (const name of ['t/history.md#2', 't/HISTORY.md#1']) {
        writeFileSync(path.join(repo, name), '[{"role": "user", "content": "hi"}]\n');
      }
      const check = async (): Promise<{ code: number; out: string }> => {
        const io = fakeIO(repo);
        const code = await main(['check', 't/history.md', 't/history.md#2', 't/HISTORY.md#1'], io);
        return { code, out: io.out() + io.err() };
      };
      const first = await check();
      expect(first.code).toBe(2);
      for (const [name, session] of [
        ['t/history.md#2', 2],
        ['t/HISTORY.md#1', 1],
      ] as const) {
        expect(first.out).toContain(
          `${name}:1:1: error[golden-path-collision]: The golden path is also that of session ${session} of t/history.md`,
        );
      }
      // The aider session's golden is its own, and a second run finds nothing changed.
      const golden = readFileSync(path.join(repo, 'golden/t/history.md#2.golden.json'), 'utf8');
      expect(golden).toContain('"id": "L73"');
      const second = await check();
      expect(second.out).not.toContain('DRIFT');
      expect(second.out).toContain('0 drifted');
    } finally {
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
