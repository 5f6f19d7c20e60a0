// Workflow command injection through the CLI's own output (issue 12, item 4): file names,
// artifact ids and tool names holding CR/LF, U+2028, `::set-output`, `::stop-commands::`,
// `::add-mask::` or `##[error]` must not become commands of the runner. Every printed name is
// shown escaped (one line); under GitHub Actions the output that holds names is also wrapped in
// stop-commands blocks with a random token, and only our own annotations stay outside.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { shownName } from '../../src/core/text/shown-name.js';
import { fakeIO } from './fake-io.js';

const EVIL_FILES = [
  'a\n::set-output name=x::y.jsonl',
  'b\r\n##[error]boom.jsonl',
  '::stop-commands::abc.jsonl',
  'c\u2028::add-mask::m.jsonl',
];

const EVIL_TRANSCRIPT = [
  { id: '::set-output name=x::y', kind: 'system', content: 'System prompt.' },
  { id: '##[error]forged-task', kind: 'task', content: 'Answer the question.' },
  { id: 'u1\n::error file=forged.ts,line=1::forged', kind: 'user', content: 'first' },
  {
    id: 'a1\r\n::add-mask::a1',
    kind: 'assistant',
    content: 'calling',
    tool_calls: [{ id: 'c1\n::stop-commands::abc', name: 't\n::set-output name=t::1', arguments: '{}' }],
  },
  {
    id: 'r1\u2028##[warning]w',
    kind: 'tool',
    tool: 't\n::set-output name=t::1',
    call_id: 'c1\n::stop-commands::abc',
    content: 'result',
  },
  { id: 'u2', kind: 'user', content: 'ok' },
]
  .map((record) => JSON.stringify(record))
  .join('\n');

let root: string;

interface Run {
  code: number;
  out: string;
  err: string;
}

async function cli(env: Record<string, string>, ...argv: string[]): Promise<Run> {
  const io = fakeIO(root, env);
  const code = await main(argv, io);
  return { code, out: io.out(), err: io.err() };
}

/** Physical lines as the runner splits them (\r\n, \r or \n). */
function lines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/**
 * The lines the runner would process as commands: outside stop-commands blocks, a line starting
 * (after leading whitespace) with `::`, or holding `##[`. Returns their command names or the line.
 */
function commandsRun(text: string): string[] {
  const found: string[] = [];
  let token: string | null = null;
  for (const line of lines(text)) {
    const trimmed = line.trimStart();
    if (token !== null) {
      if (trimmed === `::${token}::`) token = null;
      continue;
    }
    const stop = /^::stop-commands::(.*)$/.exec(trimmed);
    if (stop) {
      token = stop[1] ?? '';
      continue;
    }
    if (trimmed.startsWith('::')) found.push(trimmed.slice(2).split(/[ :]/)[0] ?? '');
    else if (line.includes('##[')) found.push(line);
  }
  return found;
}

function blockTokens(text: string): string[] {
  return lines(text).flatMap((line) => /^::stop-commands::(.*)$/.exec(line)?.[1] ?? []);
}

const PLAIN = {};
const ACTIONS = { GITHUB_ACTIONS: 'true' };

beforeAll(async () => {
  root = mkdtempSync(path.join(tmpdir(), 'cs-inject-'));
  mkdirSync(path.join(root, 't'));
  for (const name of EVIL_FILES) writeFileSync(path.join(root, 't', name), `${EVIL_TRANSCRIPT}\n`);
  // An unreadable record: a diagnostic at an evil file name.
  writeFileSync(path.join(root, 't', 'd\n::add-mask::diag.jsonl'), `${EVIL_TRANSCRIPT}\n{not json\n`);
  writeFileSync(path.join(root, 'policy.yml'), 'version: 1\nbudget: 4000\nkeep_recent: 2\n');
  writeFileSync(path.join(root, 'tiny.yml'), 'version: 1\nbudget: 30\nkeep_recent: 1\n');
  const update = await cli(PLAIN, 'update', '--policy', 'policy.yml', 't');
  expect(update.err).toContain('diag');
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('shownName', () => {
  it('escapes control characters and line separators, one line whatever the name holds', () => {
    expect(shownName('a\nb\rc\td\u001be\u007ff\u0085g\u2028h\u2029i')).toBe(
      'a\\nb\\rc\\td\\u001be\\u007ff\\u0085g\\u2028h\\u2029i',
    );
    expect(shownName('plain/name-1.jsonl')).toBe('plain/name-1.jsonl');
  });

  it('neutralises a leading colon and every ##[', () => {
    expect(shownName('::set-output name=x::y')).toBe('\\u003a:set-output name=x::y');
    expect(shownName('  :x')).toBe('  \\u003ax');
    expect(shownName('x ##[error]boom ##[warning]')).toBe('x ##\\u005berror]boom ##\\u005bwarning]');
    expect(shownName('a::b')).toBe('a::b');
  });
});

describe('cli output: no workflow command from a name', () => {
  const cases: [string, string[]][] = [
    ['check --format text', ['check', '--policy', 'tiny.yml', 't']],
    ['check --format markdown', ['check', '--policy', 'tiny.yml', '--format', 'markdown', 't']],
    ['check --format json', ['check', '--policy', 'tiny.yml', '--format', 'json', 't']],
    ['check --format github', ['check', '--policy', 'tiny.yml', '--format', 'github', 't']],
    ['update', ['update', '--policy', 'tiny.yml', '--golden-dir', 'g2', 't']],
    ['inspect', ['inspect', 't']],
    ['inspect --json', ['inspect', '--json', 't']],
    ['stabilize', ['stabilize', '--policy', 'tiny.yml', `t/${EVIL_FILES[0]}`]],
    ['explain', ['explain', `t/${EVIL_FILES[1]}`, '##[error]forged-task']],
    ['explain (unknown id)', ['explain', `t/${EVIL_FILES[1]}`, 'nope\n::add-mask::x']],
  ];

  for (const [name, argv] of cases) {
    for (const [envName, env] of [
      ['plain', PLAIN],
      ['GITHUB_ACTIONS', ACTIONS],
    ] as const) {
      it(`${name} (${envName}): only our own annotations run`, async () => {
        const run = await cli(env, ...argv);
        expect(run.code).not.toBe(3);
        const own = name.includes('github') ? ['error', 'warning', 'notice'] : [];
        expect(commandsRun(run.out).filter((c) => !own.includes(c))).toEqual([]);
        expect(commandsRun(run.err)).toEqual([]);
        // Every diagnostic is one line: no stderr line is the tail of a broken one.
        for (const line of lines(run.err)) {
          if (line.includes('error[') || line.includes('warning[')) {
            expect(line).toMatch(/^[^\n]*:\d+:\d+: (error|warning)\[[a-z0-9-]+\]: /);
          }
        }
        expect(run.err).not.toMatch(/^(set-output|::|##\[)/m);
      });
    }
  }

  it('shows the names escaped in the text outputs', async () => {
    const check = await cli(PLAIN, 'check', '--policy', 'tiny.yml', 't');
    expect(check.out).toContain('t/a\\n::set-output name=x::y.jsonl');
    expect(check.out).toContain('t/b\\r\\n##\\u005berror]boom.jsonl');
    const inspect = await cli(PLAIN, 'inspect', 't');
    expect(inspect.out).toContain('t/c\\u2028::add-mask::m.jsonl');
    expect(inspect.out).toContain('u1\\n::error file=forged.ts,line=1::forged'.slice(0, 39));
  });

  it('explains an artifact whose id holds a newline: escaped, at its place in the context', async () => {
    const run = await cli(
      PLAIN,
      'explain',
      `t/${EVIL_FILES[2]}`,
      'u1\n::error file=forged.ts,line=1::forged',
    );
    expect(run.code).toBe(0);
    expect(run.out.split('\n')[0]).toBe(
      'u1\\n::error file=forged.ts,line=1::forged (user, t/::stop-commands::abc.jsonl:3:1)',
    );
    expect(run.out).toMatch(/Position in the stabilized context: \d+ of \d+\./);
  });

  it('keeps JSON output parseable with the names intact', async () => {
    const check = await cli(ACTIONS, 'check', '--policy', 'tiny.yml', '--format', 'json', 't');
    const report = JSON.parse(check.out) as { transcripts: { transcript: string }[] };
    expect(report.transcripts.map((t) => t.transcript)).toContain(`t/${EVIL_FILES[1]}`);
    const inspect = await cli(ACTIONS, 'inspect', '--json', 't');
    const files = (JSON.parse(inspect.out) as { files: { artifacts: { id: string }[] }[] }).files;
    expect(files[0]?.artifacts.map((a) => a.id)).toContain('##[error]forged-task');
  });
});

describe('cli output under GitHub Actions: stop-commands with a random token', () => {
  it('check --format markdown is not wrapped (it goes to a job summary or a comment), and runs no command', async () => {
    const run = await cli(ACTIONS, 'check', '--policy', 'tiny.yml', '--format', 'markdown', 't');
    expect(blockTokens(run.out)).toEqual([]);
    expect(run.out).toContain('context-stability');
  });

  for (const argv of [
    ['check', '--policy', 'tiny.yml', 't'],
    ['update', '--policy', 'tiny.yml', '--golden-dir', 'g3', 't'],
    ['inspect', 't'],
  ]) {
    it(`${argv.join(' ')}: wrapped, a fresh token per run`, async () => {
      const first = await cli(ACTIONS, ...argv);
      const second = await cli(ACTIONS, ...argv);
      for (const run of [first, second]) {
        const all = lines(run.out.replace(/\n$/, ''));
        expect(all[0]).toMatch(/^::stop-commands::context-stability-[0-9a-f]{32}$/);
        expect(all.at(-1)).toBe(`::${blockTokens(run.out).at(-1)}::`);
      }
      expect(blockTokens(first.out)[0]).not.toBe(blockTokens(second.out)[0]);
      // Outside GitHub Actions nothing is wrapped.
      expect(blockTokens((await cli(PLAIN, ...argv)).out)).toEqual([]);
    });
  }

  it('check --format github: our annotations stay outside the blocks and still run', async () => {
    const run = await cli(ACTIONS, 'check', '--policy', 'tiny.yml', '--format', 'github', 't');
    const commands = commandsRun(run.out);
    expect(commands).toContain('error');
    expect(commands.every((c) => ['error', 'warning', 'notice'].includes(c))).toBe(true);
    // Each annotation is one physical line.
    for (const line of lines(run.out).filter((l) => l.startsWith('::error'))) {
      expect(line).toMatch(/^::error file=[^,\n]*(,line=\d+)?(,col=\d+)?,title=[^\n]*::/);
    }
  });
});

// The runner trims every Unicode whitespace before it looks for `::` (issue 34, item 2): a name
// that starts with U+00A0, U+1680, U+2000–U+200A, U+202F, U+205F or U+3000 and then `::` is a
// command wherever our output puts the name first on a line (a diagnostic's file, a policy file).
const UNICODE_SPACES = [
  '\u00a0',
  '\u1680',
  ...Array.from({ length: 11 }, (_, i) => String.fromCharCode(0x2000 + i)),
  '\u202f',
  '\u205f',
  '\u3000',
  '\ufeff',
];

describe('names starting with a Unicode space', () => {
  it('shownName escapes the colon after any leading whitespace', () => {
    for (const space of UNICODE_SPACES) {
      expect(shownName(`${space}::error::x`)).toBe(`${space}\\u003a:error::x`);
      expect(shownName(`${space} ${space}:x`).trimStart().startsWith(':')).toBe(false);
    }
  });

  const evil = UNICODE_SPACES.map((space, i) => `${space}::error file=forged${i}.ts::forged.jsonl`);
  const policyName = '\u3000::error::forged ##[error]policy.yml';

  beforeAll(() => {
    for (const name of evil) writeFileSync(path.join(root, name), `${EVIL_TRANSCRIPT}\n{not json\n`);
    writeFileSync(path.join(root, policyName), 'version: 1\nbudget: 4000\nbudget: 5\n');
    writeFileSync(path.join(root, '\u00a0::warning::ok ##[warning].yml'), 'version: 1\nbudget: 4000\n');
  });

  const runs: [string, string[]][] = [
    ['check', ['check', '--policy', 'tiny.yml', ...evil]],
    ['check --format json', ['check', '--policy', 'tiny.yml', '--format', 'json', ...evil]],
    ['update', ['update', '--policy', 'tiny.yml', '--golden-dir', 'g4', ...evil]],
    ['inspect', ['inspect', ...evil]],
    ['inspect --json', ['inspect', '--json', ...evil]],
    ['stabilize', ['stabilize', '--policy', 'tiny.yml', evil[0] ?? '']],
    ['policy validate (invalid)', ['policy', 'validate', policyName]],
    ['policy validate --json (invalid)', ['policy', 'validate', '--json', policyName]],
    ['policy validate (valid)', ['policy', 'validate', '\u00a0::warning::ok ##[warning].yml']],
    ['check --policy (invalid)', ['check', '--policy', policyName, evil[1] ?? '']],
  ];
  for (const [name, argv] of runs) {
    it(`${name} under GitHub Actions: no command runs`, async () => {
      const run = await cli(ACTIONS, ...argv);
      expect(run.code).toBe(name.includes('(valid)') ? 0 : 2);
      expect(commandsRun(run.out)).toEqual([]);
      expect(commandsRun(run.err)).toEqual([]);
      expect(run.out + run.err).not.toContain('##[');
    });
  }
});

describe('usage errors quote the argument escaped', () => {
  for (const argv of [['##[error]forged'], ['check', '--##[error]x'], ['\u3000::error::forged']]) {
    it(`${JSON.stringify(argv)}: no command runs`, async () => {
      const run = await cli(ACTIONS, ...argv);
      expect(run.code).toBe(2);
      expect(commandsRun(run.err)).toEqual([]);
      if (argv.join(' ').includes('##[')) expect(run.err).toContain('##\\u005b');
    });
  }
});
