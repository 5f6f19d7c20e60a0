// --max-records and --max-file-size on every command that reads transcripts (issue 12): a file
// over a cap is an error at file:line:column with exit 2, and the other files still run.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'cs-limits-'));
  const lines = ['{"id":"sys","kind":"system","content":"You are terse."}'];
  for (let i = 1; i <= 5; i++) lines.push(`{"kind":"${i % 2 ? 'user' : 'assistant'}","content":"step ${i}"}`);
  await writeFile(path.join(dir, 'long.jsonl'), `${lines.join('\n')}\n`);
  await writeFile(path.join(dir, 'short.jsonl'), `${lines.slice(0, 3).join('\n')}\n`);
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function run(...args: string[]) {
  const io = fakeIO(dir, {});
  const code = await main(args, io);
  return { code, out: io.out(), err: io.err() };
}

const OVER = 'long.jsonl:5:1: error[too-many-records]';

describe('--max-records', () => {
  it.each([
    ['stabilize', ['stabilize', '--max-records', '4', 'long.jsonl']],
    ['explain', ['explain', '--max-records', '4', 'long.jsonl', 'sys']],
    ['inspect', ['inspect', '--max-records', '4', 'long.jsonl']],
  ])('%s refuses a transcript over the cap at its first record over it, exit 2', async (_, args) => {
    const r = await run(...args);
    expect(r.code).toBe(2);
    expect(r.err).toContain(OVER);
    expect(r.err).toContain('--max-records');
  });

  it('check reports the file over the cap as an error and still checks the others', async () => {
    const r = await run('check', '--ci', '--max-records', '4', 'long.jsonl', 'short.jsonl');
    expect(r.code).toBe(2);
    expect(`${r.out}${r.err}`).toContain(OVER);
    expect(r.out).toMatch(/NEW\s+short\.jsonl/);
  });

  it('update writes the goldens of the files within the cap only', async () => {
    const r = await run('update', '--max-records', '4', 'long.jsonl', 'short.jsonl');
    expect(r.code).toBe(2);
    expect(`${r.out}${r.err}`).toContain(OVER);
    expect(r.out).toContain('golden/short.jsonl.golden.json');
    expect(r.out).not.toContain('golden/long.jsonl.golden.json');
  });

  it('reads a transcript with exactly the cap of records', async () => {
    expect((await run('stabilize', '--max-records', '6', 'long.jsonl')).code).toBe(0);
  });

  it.each(['0', '-3', 'many', '1.5'])('rejects --max-records %s as bad usage', async (value) => {
    const r = await run('stabilize', `--max-records=${value}`, 'long.jsonl');
    expect(r.code).toBe(2);
    expect(r.err).toContain('Option --max-records needs a whole number of at least 1');
  });
});

describe('--max-file-size on check and update', () => {
  it('refuses a file over the size at 1:1 and names the option the command accepts', async () => {
    for (const args of [['check', '--ci'], ['update']]) {
      const r = await run(...args, '--max-file-size', '100', 'long.jsonl');
      expect(r.code).toBe(2);
      expect(`${r.out}${r.err}`).toContain('long.jsonl:1:1: error[file-too-large]');
    }
  });
});

describe('the hints of the caps name options the command accepts (issue 15)', () => {
  const COMMANDS: [string, string[]][] = [
    ['inspect', ['inspect']],
    ['stabilize', ['stabilize']],
    ['explain', ['explain']],
    ['check', ['check', '--ci']],
    ['update', ['update']],
    ['view', ['view', '--out', 'page.html']],
  ];

  it.each(COMMANDS)('%s: file-too-large and too-many-records', async (name, args) => {
    const help = (await run(name, '--help')).out;
    const cases: [string[], string][] = [
      [['--max-file-size', '100'], 'file-too-large'],
      [['--max-records', '4'], 'too-many-records'],
    ];
    for (const [limit, code] of cases) {
      const r = await run(...args, ...limit, 'long.jsonl', ...(name === 'explain' ? ['sys'] : []));
      const text = `${r.out}${r.err}`;
      const line = text.split('\n').find((l) => l.includes(`error[${code}]`)) ?? '';
      expect(line, `${name} ${code}`).toContain('Hint: Raise the limit with');
      const options = [...line.matchAll(/--[a-z][a-z-]+/g)].map((m) => m[0]);
      expect(options.length).toBeGreaterThan(0);
      for (const option of options)
        expect(help, `${name} ${option}`).toMatch(new RegExp(`^ {2}${option} `, 'm'));
      // The Action's input of the same name is named too.
      expect(line).toContain(`the Action input ${limit[0]?.slice(2)}`);
    }
  });
});
