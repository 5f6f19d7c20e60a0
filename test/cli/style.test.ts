// Colour on a terminal (issue 15): decided by src/cli/style.ts from the injected env and TTY
// flags, applied at the CLI edge to text output only — never to JSON, Markdown or annotations.
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import {
  colourEnabled,
  makeStyle,
  styleCheckText,
  styleStderr,
  styleUpdateText,
} from '../../src/cli/style.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/cli');
const ANSI = /\u001b\[/;
const TTY = { stdout: true, stderr: true };

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-style-'));
  for (const file of ['notes.jsonl', 'support-chat.json', 'truncated.json'])
    cpSync(path.join(FIXTURES, file), path.join(dir, file));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

async function run(
  args: string[],
  env: Record<string, string> = {},
  isTTY?: { stdout?: boolean; stderr?: boolean },
) {
  const io = fakeIO(dir, env, isTTY);
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

describe('colourEnabled', () => {
  it.each([
    [{}, false, false],
    [{}, true, true],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ TERM: 'dumb' }, true, false],
    [{ GITHUB_ACTIONS: 'true' }, true, false],
    [{ FORCE_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '' }, false, true],
    [{ FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    [{ FORCE_COLOR: '1', GITHUB_ACTIONS: 'true' }, false, true],
    [{ FORCE_COLOR: '0' }, true, false],
    [{ FORCE_COLOR: 'false' }, true, false],
  ] as const)('%j on a TTY=%s: %s', (env, isTTY, expected) => {
    expect(colourEnabled(env, isTTY)).toBe(expected);
  });
});

describe('line stylers', () => {
  const on = makeStyle(true);
  const off = makeStyle(false);

  it('styles outcome labels, severities and the summary line of the check report', () => {
    const text = [
      'PASS       a.jsonl  10/100 tokens',
      'DRIFT WARN b.jsonl',
      '  b.jsonl:3: error[pii] m1: unmasked',
      '  unified diff (golden → actual):',
      '--- a/golden/b.jsonl.golden.json',
      '-  "old"',
      '+  "new"',
      'ERROR      c.jsonl',
      '2 transcripts checked: 0 with violations, 1 drifted, 0 new, 0 errors, 1 passed; 0 obsolete goldens.',
      '',
    ].join('\n');
    const styled = styleCheckText(text, on, false);
    const lines = styled.split('\n');
    expect(lines[0]).toBe('\u001b[32mPASS\u001b[39m       a.jsonl  10/100 tokens');
    expect(lines[1]).toBe('\u001b[33mDRIFT WARN\u001b[39m b.jsonl');
    expect(lines[2]).toBe('  b.jsonl:3: \u001b[31m\u001b[1merror[pii]\u001b[22m\u001b[39m m1: unmasked');
    expect(lines[5]).toContain('\u001b[31m');
    expect(lines[6]).toContain('\u001b[32m');
    expect(lines[7]?.startsWith('\u001b[31m\u001b[1mERROR')).toBe(true);
    expect(lines[8]?.startsWith('\u001b[31m')).toBe(true);
    expect(styled.endsWith('\n')).toBe(true);
    // Without colour the text is untouched, and styling never changes the visible characters.
    expect(styleCheckText(text, off, false)).toBe(text);
    expect(styled.replace(/\u001b\[\d+m/g, '')).toBe(text);
  });

  it('styles update verbs and the diagnostics on stderr', () => {
    const update = 'refused golden/a.jsonl.golden.json (unmasked PII)\nupdate: 1 transcript: 0 new\n';
    expect(styleUpdateText(update, makeStyle(true), false)).toMatch(/^\u001b\[31m\u001b\[1mrefused\u001b/);
    const diag = 'x.json:1:1: warning[unpaired-call]: a call without a result\nplain line\n';
    expect(styleStderr(diag, makeStyle(true))).toBe(
      'x.json:1:1: \u001b[33mwarning[unpaired-call]\u001b[39m: a call without a result\nplain line\n',
    );
  });
});

describe('colour in the commands', () => {
  it('is off by default (tests are not a terminal)', async () => {
    const r = await run(['check', '--ci', 'notes.jsonl']);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(/^NEW {8}notes\.jsonl/m);
    expect(r.out + r.err).not.toMatch(ANSI);
  });

  it('is on for a terminal, and with FORCE_COLOR=1 without one', async () => {
    for (const [env, tty] of [
      [{}, TTY],
      [{ FORCE_COLOR: '1' }, undefined],
    ] as const) {
      const r = await run(['check', '--ci', 'notes.jsonl'], env, tty);
      expect(r.out).toMatch(/^\u001b\[36mNEW\u001b\[39m {8}notes\.jsonl/m);
      expect(r.out).toMatch(/^\u001b\[31m\u001b\[1m1 transcript checked: /m);
    }
  });

  it('is off with NO_COLOR=1 or under GitHub Actions even on a terminal, and with FORCE_COLOR=0', async () => {
    const envs: Record<string, string>[] = [
      { NO_COLOR: '1' },
      { GITHUB_ACTIONS: 'true' },
      { FORCE_COLOR: '0' },
    ];
    for (const env of envs) {
      const r = await run(['check', '--ci', 'notes.jsonl'], env, TTY);
      expect(r.out + r.err, JSON.stringify(env)).not.toMatch(ANSI);
    }
  });

  it('never colours JSON, Markdown or annotations, even with FORCE_COLOR=1 on a terminal', async () => {
    const env = { FORCE_COLOR: '1' };
    for (const format of ['json', 'markdown', 'github']) {
      const r = await run(['check', '--ci', '--format', format, 'notes.jsonl'], env, TTY);
      expect(r.out, format).not.toMatch(ANSI);
    }
    for (const args of [
      ['inspect', '--json', 'notes.jsonl'],
      ['stabilize', '--json', 'notes.jsonl'],
      ['stabilize', '--emit', 'openai', 'notes.jsonl'],
    ]) {
      const r = await run(args, env, TTY);
      expect(r.out, args.join(' ')).not.toMatch(ANSI);
      expect(() => JSON.parse(r.out) as unknown).not.toThrow();
    }
  });

  it("styles stabilize's summary and the diagnostics on stderr", async () => {
    const env = { FORCE_COLOR: '1' };
    const stabilize = await run(['stabilize', 'notes.jsonl'], env);
    expect(stabilize.out.split('\n')[0]).toBe('notes.jsonl: \u001b[32mok\u001b[39m');
    expect(stabilize.out).toMatch(/^\u001b\[32mchecks: \d+ of \d+ passed/m);
    const inspect = await run(['inspect', 'support-chat.json'], {}, { stderr: true });
    expect(inspect.err).toMatch(
      /^support-chat\.json:\d+:\d+: \u001b\[33mwarning\[unpaired-call\]\u001b\[39m: /m,
    );
    expect(inspect.out).not.toMatch(ANSI);
  });

  it("styles update's list and summary line", async () => {
    const r = await run(['update', 'notes.jsonl'], {}, TTY);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^\u001b\[36mwrote\u001b\[39m {3}golden\/notes\.jsonl\.golden\.json \(new\)$/m);
    expect(r.out).toMatch(/^\u001b\[32mupdate: 1 transcript: 1 new, /m);
  });
});
