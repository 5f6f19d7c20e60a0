// End-to-end: `update` killed with SIGKILL in the middle of rewriting 40 goldens leaves every
// golden either its old or its new content (never a partial file), and the next update removes
// the temp files the killed run left behind. The killed update is the built CLI as a process; the
// updates and the check around it run in this process (runInProcess: src/cli/main.ts).
import { spawn } from 'node:child_process';
import { cpSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TempRepo } from '../cli/check-support.js';
import { BIN, assertBuilt, childEnv, runInProcess } from './check-cli.js';

/**
 * Goldens are written as each transcript finishes (some 25 ms apart on a 2-core machine): after the
 * sixth, the kill lands with over 30 still to go.
 */
const COUNT = 40;
let repo: TempRepo;

function name(i: number): string {
  return `t${String(i).padStart(3, '0')}.jsonl`;
}

/** A session of some 30 artifacts, different in every file. */
function session(i: number): string {
  const lines: object[] = [{ kind: 'system', content: 'You are a build assistant.' }];
  for (let turn = 0; turn < 10; turn++) {
    const call = `c${turn}`;
    lines.push({ kind: 'user', content: `Session ${i}, step ${turn}: check module ${(i * 7 + turn) % 23}.` });
    lines.push({
      kind: 'assistant',
      content: `Checking module ${(i * 7 + turn) % 23} for session ${i}.`,
      tool_calls: [
        { id: call, name: 'bash', arguments: JSON.stringify({ command: `make check M=${turn}` }) },
      ],
    });
    lines.push({
      kind: 'tool',
      tool: 'bash',
      call_id: call,
      exit_code: turn % 3 === 0 ? 1 : 0,
      content: `ok ${i}.${turn}\n`,
    });
  }
  return `${lines.map((l) => JSON.stringify(l)).join('\n')}\n`;
}

/** Golden file name → content, below golden/bulk. */
function goldens(dir: string): Map<string, string> {
  const folder = path.join(dir, 'golden/bulk');
  return new Map(readdirSync(folder).map((f) => [f, readFileSync(path.join(folder, f), 'utf8')]));
}

beforeAll(() => {
  assertBuilt();
  repo = new TempRepo();
  for (let i = 0; i < COUNT; i++) repo.write(`bulk/${name(i)}`, session(i));
  repo.write('old.yml', 'version: 1\nbudget: 4000\n');
  // Another budget limit: every golden records it, so every golden changes.
  repo.write('new.yml', 'version: 1\nbudget: 3999\n');
});
afterAll(() => {
  repo?.remove();
});

describe('update killed mid-way', () => {
  it('leaves each golden old or new, never partial; the next update cleans the temp files', async () => {
    expect((await runInProcess(['update', '--policy', 'old.yml', 'bulk'], repo.dir)).code).toBe(0);
    const before = goldens(repo.dir);
    expect(before.size).toBe(COUNT);

    // What a complete update writes, computed in a copy of the repository.
    const copy = path.join(repo.root, 'copy');
    cpSync(repo.dir, copy, { recursive: true });
    expect((await runInProcess(['update', '--policy', 'new.yml', 'bulk'], copy)).code).toBe(0);
    const after = goldens(copy);
    for (const [file, text] of after) expect(text, file).not.toBe(before.get(file));

    const child = spawn(process.execPath, [BIN, 'update', '--policy', 'new.yml', 'bulk'], {
      cwd: repo.dir,
      env: childEnv(),
      stdio: 'ignore',
    });
    const exited = new Promise<NodeJS.Signals | null>((resolve) =>
      child.on('exit', (_code, signal) => resolve(signal)),
    );
    // Kill as soon as a few goldens are rewritten: the run is then certainly under way.
    const watched = path.join(repo.dir, 'golden/bulk', `${name(5)}.golden.json`);
    const deadline = Date.now() + 60_000;
    while (readFileSync(watched, 'utf8') === before.get(`${name(5)}.golden.json`) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');

    const files = readdirSync(path.join(repo.dir, 'golden/bulk'));
    const temps = files.filter((f) => f.endsWith('.tmp'));
    const state = goldens(repo.dir);
    let old = 0;
    let updated = 0;
    for (let i = 0; i < COUNT; i++) {
      const file = `${name(i)}.golden.json`;
      const text = state.get(file);
      expect(text, file).toBeDefined();
      expect(() => JSON.parse(text ?? ''), file).not.toThrow();
      if (text === before.get(file)) old++;
      else if (text === after.get(file)) updated++;
      else expect.fail(`${file} is neither its old nor its new content`);
    }
    expect(updated).toBeGreaterThanOrEqual(6);
    expect(old).toBeGreaterThan(0);

    // A temp file as a write interrupted by the kill leaves it (written, not yet renamed).
    const planted = `.${name(0)}.golden.json.${child.pid}.0123456789ab.tmp`;
    writeFileSync(path.join(repo.dir, 'golden/bulk', planted), '{"budget": {"li');
    const rerun = await runInProcess(['update', '--policy', 'new.yml', 'bulk'], repo.dir);
    expect(rerun.code).toBe(0);
    const stale = temps.length + 1;
    expect(rerun.stdout).toContain(
      `removed ${stale} stale temp file${stale === 1 ? '' : 's'} left by an interrupted update`,
    );
    expect(readdirSync(path.join(repo.dir, 'golden/bulk')).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    expect(goldens(repo.dir)).toEqual(after);
    expect((await runInProcess(['check', '--ci', '--policy', 'new.yml', 'bulk'], repo.dir)).code).toBe(0);
  });
});
