import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createGuardianCommands } from '../../src/cli/commands/guardian.js';
import { main, runCli } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

const FIXTURES = path.resolve(fileURLToPath(import.meta.url), '../../fixtures/guardian');
const SECRET = 'dana.fixture@example.org';

let dir: string;
let root: string;
let clock: number;
let stdin: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'guardian-cli-'));
  root = path.join(dir, 'task');
  clock = Date.UTC(2025, 2, 1, 9, 0, 0);
  stdin = '';
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Each call builds fresh commands: nothing survives between calls but the files (like a restart). */
async function guardian(args: string[], env: Record<string, string> = { CONTEXT_GUARDIAN_ROOT: root }) {
  const commands = createGuardianCommands({
    now: () => new Date((clock += 60_000)).toISOString(),
    readStdin: async () => stdin,
  });
  const io = fakeIO(dir, env);
  const code = await runCli(['guardian', ...args], io, commands);
  const out = io.out();
  return { code, out, err: io.err(), last: out.trimEnd().split('\n').at(-1) };
}

const readState = async () =>
  JSON.parse(await readFile(path.join(root, 'task-state.json'), 'utf8')) as Record<string, unknown>;
const readAlias = () => readFile(path.join(root, 'summaries/latest-summary.md'), 'utf8');

describe('guardian root', () => {
  it('is bad usage (exit 2) with a hint when neither --root nor CONTEXT_GUARDIAN_ROOT is set', async () => {
    const r = await guardian(['status'], {});
    expect(r.code).toBe(2);
    expect(r.err).toContain('--root DIR or set CONTEXT_GUARDIAN_ROOT');
  });

  it('takes --root over the environment, relative to the working directory', async () => {
    const r = await guardian(['ensure', '--root', 'other'], { CONTEXT_GUARDIAN_ROOT: root });
    expect(r.code).toBe(0);
    expect(await readdir(path.join(dir, 'other'))).toContain('task-state.json');
  });

  it('is reachable through the main router and documents its exit codes', async () => {
    const io = fakeIO(dir);
    expect(await main(['guardian', 'status', '--help'], io)).toBe(0);
    expect(io.out()).toContain('3 STATUS:MISSING_STATE, 4 STATUS:HALT_CONTEXT_LIMIT');
    expect(io.out()).toContain('5 STATUS:COMPLETE');
  });
});

describe('guardian ensure', () => {
  it('initializes state (next_action START) and summary when nothing exists', async () => {
    const r = await guardian(['ensure', '--goal', 'Fix the invoice bug', '--constraint', 'no force push']);
    expect(r.code).toBe(0);
    expect(r.last).toBe('STATUS:OK');
    expect(r.out).toContain('guardian ensure: initialized');
    const s = await readState();
    expect(s).toMatchObject({
      next_action: 'START',
      goal: 'Fix the invoice bug',
      constraints: ['no force push'],
      turn: 0,
    });
    expect(await readAlias()).toContain('## Goal\n\nFix the invoice bug');
  });

  it('is idempotent on a healthy state and leaves it alone', async () => {
    await guardian(['ensure', '--goal', 'G']);
    const before = await readFile(path.join(root, 'task-state.json'), 'utf8');
    const r = await guardian(['ensure', '--goal', 'Other']);
    expect(r.out).toContain('guardian ensure: ready');
    expect(r.out).toContain('--goal ignored');
    expect(await readFile(path.join(root, 'task-state.json'), 'utf8')).toBe(before);
  });
});

describe('guardian checkpoint', () => {
  it('writes the state update, a numbered summary and the alias (checkpoint creation)', async () => {
    await guardian(['ensure', '--goal', 'Fix the invoice bug']);
    const r = await guardian([
      'checkpoint',
      '--phase',
      'implement',
      '--next-action',
      'run test/invoice.test.ts',
      '--last-action-summary',
      'edited src/invoice.ts',
      '--outcome',
      'success',
      '--completed',
      'reproduced the bug',
      '--decision',
      "banker's rounding",
      '--artifact',
      'src/invoice.ts',
      '--tool-output',
      'npm test: 2 failed',
      '--blocker',
      'waiting for finance',
    ]);
    expect(r.code).toBe(0);
    expect(r.last).toBe('STATUS:OK');
    const s = await readState();
    expect(s).toMatchObject({
      current_phase: 'implement',
      next_action: 'run test/invoice.test.ts',
      last_action: { summary: 'edited src/invoice.ts', outcome: 'success' },
      completed_steps: ['reproduced the bug'],
      decisions: ["banker's rounding"],
      artifacts: [{ path: 'src/invoice.ts' }],
      tool_outputs: ['npm test: 2 failed'],
      blockers: ['waiting for finance'],
      turn: 1,
    });
    expect((await readdir(path.join(root, 'summaries'))).sort()).toEqual([
      'latest-summary.md',
      'summary-000001.md',
      'summary-000002.md',
    ]);
    expect(await readAlias()).toBe(await readFile(path.join(root, 'summaries/summary-000002.md'), 'utf8'));
  });

  it('generates a summary with every section and the checkpoint values', async () => {
    await guardian(['ensure', '--goal', 'Fix the invoice bug']);
    await guardian([
      'checkpoint',
      '--next-action',
      'open the PR',
      '--failed',
      'Math.round on cents',
      '--invariant',
      'totals add up',
    ]);
    const summary = await readAlias();
    for (const heading of [
      'Goal',
      'Current phase',
      'Completed steps',
      'Failed attempts',
      'Decisions',
      'Files touched',
      'Important tool outputs',
      'Blockers',
      'Next action',
      'Invariants',
      'Constraints',
    ]) {
      expect(summary).toContain(`## ${heading}\n`);
    }
    expect(summary).toContain('- Math.round on cents');
    expect(summary).toContain('## Next action\n\nopen the PR');
  });

  it('reads a JSON patch from stdin (--file -), then applies flags on top', async () => {
    await guardian(['ensure']);
    stdin = JSON.stringify({
      next_action: 'from stdin',
      append: { decisions: ['d1'], artifacts: [{ path: 'a.ts', note: 'n' }] },
    });
    const r = await guardian(['checkpoint', '--file', '-', '--decision', 'd2']);
    expect(r.code).toBe(0);
    expect(await readState()).toMatchObject({
      next_action: 'from stdin',
      decisions: ['d1', 'd2'],
      artifacts: [{ path: 'a.ts', note: 'n' }],
    });
  });

  it('rejects a bad patch file with file:line:column and writes nothing', async () => {
    await guardian(['ensure']);
    const before = await readFile(path.join(root, 'task-state.json'), 'utf8');
    await writeFile(path.join(dir, 'patch.json'), `{\n  "goal": "${SECRET}",\n  "colour": 1\n}`);
    const r = await guardian(['checkpoint', '--file', 'patch.json']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('patch.json:1:1: error[guardian-patch]: $ has unknown field colour.');
    expect(r.err + r.out).not.toContain(SECRET);
    expect(await readFile(path.join(root, 'task-state.json'), 'utf8')).toBe(before);
  });

  it('needs --last-action-summary and --outcome together', async () => {
    await guardian(['ensure']);
    const r = await guardian(['checkpoint', '--last-action-summary', 'x']);
    expect(r.code).toBe(2);
    expect(r.err).toContain('go together');
  });

  it('refuses to run before ensure', async () => {
    const r = await guardian(['checkpoint', '--next-action', 'x']);
    expect(r.code).toBe(3);
    expect(r.last).toBe('STATUS:MISSING_STATE');
    expect(r.out).toContain('guardian ensure');
  });

  it('halts after writing when --pressure is critical', async () => {
    await guardian(['ensure']);
    const r = await guardian(['checkpoint', '--next-action', 'continue the refactor', '--pressure', '0.9']);
    expect(r.code).toBe(4);
    expect(r.last).toBe('STATUS:HALT_CONTEXT_LIMIT');
    expect(await readState()).toMatchObject({ next_action: 'continue the refactor', turn: 1 });
  });
});

describe('restart recovery', () => {
  it('resumes from disk: a fresh command instance sees the last checkpoint', async () => {
    await guardian(['ensure', '--goal', 'Migrate billing']);
    await guardian([
      'checkpoint',
      '--next-action',
      'dry-run the migration in db/migrate.sql',
      '--artifact',
      'db/schema.sql',
    ]);
    const status = await guardian(['status', '--pressure', '0.1']);
    expect(status.out).toContain('next_action: dry-run the migration in db/migrate.sql');
    expect(status.out).toContain('turn 1');
    const bundle = await guardian(['bundle']);
    expect(bundle.code).toBe(0);
    const json = JSON.parse(bundle.out.slice(0, bundle.out.lastIndexOf('STATUS:OK'))) as Record<
      string,
      unknown
    >;
    expect(json).toEqual({
      schema_version: 1,
      goal: 'Migrate billing',
      phase: '',
      next_action: 'dry-run the migration in db/migrate.sql',
      last_successful_action: null,
      constraints: [],
      relevant_artifacts: ['db/schema.sql', 'db/migrate.sql'],
    });
  });
});

describe('guardian status: the pressure gate', () => {
  beforeEach(async () => {
    await guardian(['ensure']);
  });

  it('continues below warning', async () => {
    const r = await guardian(['status', '--pressure', '0.2']);
    expect([r.code, r.last]).toEqual([0, 'STATUS:OK']);
    expect(r.out).toContain('gate: continue');
  });

  it('asks for a fresh summary at compress', async () => {
    const r = await guardian(['status', '--pressure', '0.75']);
    expect([r.code, r.last]).toEqual([0, 'STATUS:OK']);
    expect(r.out).toContain('gate: fresh_summary');
  });

  it('asks for a checkpoint after a state change', async () => {
    const r = await guardian(['status', '--pressure', '0.1', '--changed-state']);
    expect(r.out).toContain('gate: checkpoint');
  });

  it('stops at critical pressure with STATUS:HALT_CONTEXT_LIMIT and exit 4 (the critical stop)', async () => {
    const r = await guardian(['status', '--pressure', '0.85']);
    expect(r.code).toBe(4);
    expect(r.last).toBe('STATUS:HALT_CONTEXT_LIMIT');
    expect(r.out).toContain('do: stop autonomous work now');
  });

  it('assumes 0.0 without pressure on the first turn, and halts without it afterwards', async () => {
    expect((await guardian(['status'])).code).toBe(0);
    await guardian(['checkpoint', '--next-action', 'next step']);
    const r = await guardian(['status']);
    expect(r.code).toBe(4);
    expect(r.out).toContain('pressure: missing');
  });

  it('reads thresholds from the policy, overridden by flags', async () => {
    const policy = path.join(FIXTURES, 'thresholds-policy.yml');
    expect(
      (await guardian(['status', '--pressure', '0.62', '--policy', policy, '--critical', '0.9'])).code,
    ).toBe(0);
    expect((await guardian(['status', '--pressure', '0.62'])).code).toBe(0);
    // Last: the halt latches (see guardian-halt.test.ts).
    expect((await guardian(['status', '--pressure', '0.62', '--policy', policy])).code).toBe(4);
  });

  it('rejects a pressure that is not a number from 0 to 1, and disordered thresholds', async () => {
    expect((await guardian(['status', '--pressure', '85%'])).code).toBe(2);
    expect((await guardian(['status', '--pressure', '0.5', '--warning', '0.9'])).code).toBe(2);
  });

  it('is read-only below critical (a halt is latched by a write, see guardian-halt.test.ts)', async () => {
    const before = await readdir(root, { recursive: true });
    const state = await readState();
    await guardian(['status', '--pressure', '0.8', '--changed-state']);
    expect(await readdir(root, { recursive: true })).toEqual(before);
    expect(await readState()).toEqual(state);
  });
});

describe('STATUS:MISSING_STATE in each startup case', () => {
  async function expectMissing(args: string[], text: string) {
    const r = await guardian(args);
    expect(r.code).toBe(3);
    expect(r.last).toBe('STATUS:MISSING_STATE');
    expect(r.out).toContain(text);
    return r;
  }

  it('status before anything exists', async () => {
    await expectMissing(['status'], 'no durable task state yet');
  });

  it('summary exists but state is missing', async () => {
    await mkdir(path.join(root, 'summaries'), { recursive: true });
    await writeFile(path.join(root, 'summaries/latest-summary.md'), '# Task summary\n');
    await expectMissing(['ensure'], 'the summary exists but the durable task state is missing');
  });

  it('state is not JSON', async () => {
    await mkdir(root, { recursive: true });
    await writeFile(path.join(root, 'task-state.json'), `{"goal": "${SECRET}",`);
    const r = await expectMissing(['ensure'], 'not a JSON object');
    expect(r.err).toMatch(/task-state\.json:1:\d+: error\[/);
    expect(r.err + r.out).not.toContain(SECRET);
  });

  it('required fields are missing', async () => {
    await guardian(['ensure']);
    const s = await readState();
    delete s.goal;
    await writeFile(path.join(root, 'task-state.json'), JSON.stringify(s));
    const r = await expectMissing(['status'], 'lacks required fields');
    expect(r.err).toContain('$.goal is missing.');
  });

  it('next_action is empty', async () => {
    await guardian(['ensure']);
    await guardian(['checkpoint', '--next-action', '']);
    await expectMissing(['ensure'], 'next_action is empty');
  });

  it('summary is missing', async () => {
    await guardian(['ensure']);
    await rm(path.join(root, 'summaries/latest-summary.md'));
    await expectMissing(['ensure'], 'the structured summary is missing');
    await expectMissing(['bundle'], 'the structured summary is missing');
  });
});

describe('completion', () => {
  it('emits STATUS:COMPLETE (exit 5) when next_action becomes DONE, and on every later startup', async () => {
    await guardian(['ensure']);
    const done = await guardian(['checkpoint', '--completed', 'shipped', '--next-action', 'DONE']);
    expect([done.code, done.last]).toEqual([5, 'STATUS:COMPLETE']);
    expect(await readAlias()).toContain('## Next action\n\nDONE');
    for (const cmd of [['ensure'], ['status', '--pressure', '0.1'], ['bundle']]) {
      const r = await guardian(cmd);
      expect([r.code, r.last]).toEqual([5, 'STATUS:COMPLETE']);
    }
  });

  it('writes the final summary when it is missing at completion', async () => {
    await guardian(['ensure']);
    await guardian(['checkpoint', '--next-action', 'FINISH']);
    await rm(path.join(root, 'summaries/latest-summary.md'));
    const r = await guardian(['ensure']);
    expect(r.code).toBe(5);
    expect(await readAlias()).toContain('FINISH');
  });
});

describe('summary conflicts', () => {
  it('status reports the conflict; ensure rewrites the summary from durable state', async () => {
    await guardian(['ensure', '--goal', 'The real goal']);
    await writeFile(
      path.join(root, 'summaries/latest-summary.md'),
      (await readAlias()).replace('The real goal', 'A stale goal'),
    );
    const status = await guardian(['status', '--pressure', '0.1']);
    expect(status.out).toContain('summary: conflicts with the durable state (Goal (differs))');
    expect(status.out).toContain('gate: fresh_summary');
    const r = await guardian(['ensure']);
    expect(r.code).toBe(0);
    expect(r.out).toContain('summary: rewritten from the durable state (conflicts: Goal (differs)');
    expect(await readAlias()).toContain('The real goal');
    expect(await readAlias()).not.toContain('A stale goal');
    expect((await readState()).goal).toBe('The real goal');
  });
});

describe('legacy state', () => {
  async function plantLegacy() {
    await mkdir(root, { recursive: true });
    const legacy = await readFile(path.join(FIXTURES, 'legacy-state.json'), 'utf8');
    await writeFile(path.join(root, 'task-state.json'), legacy);
    return legacy;
  }

  it('is never overwritten by checkpoint or ensure', async () => {
    const legacy = await plantLegacy();
    const cp = await guardian(['checkpoint', '--next-action', 'overwrite me']);
    expect([cp.code, cp.last]).toEqual([3, 'STATUS:MISSING_STATE']);
    expect(cp.out).toContain('legacy or foreign format');
    expect(cp.out).toContain('ensure --archive');
    const en = await guardian(['ensure', '--goal', 'new']);
    expect(en.code).toBe(3);
    expect(await readFile(path.join(root, 'task-state.json'), 'utf8')).toBe(legacy);
    expect(cp.out + cp.err + en.out + en.err).not.toContain(SECRET);
  });

  it('is moved to archive/ by an explicit ensure --archive, which then starts fresh', async () => {
    const legacy = await plantLegacy();
    const r = await guardian(['ensure', '--archive', '--goal', 'Start over']);
    expect([r.code, r.last]).toEqual([0, 'STATUS:OK']);
    const archived = r.out.match(/archived: task-state\.json -> (archive\/\S+)/)?.[1];
    expect(archived).toBeDefined();
    expect(await readFile(path.join(root, archived ?? ''), 'utf8')).toBe(legacy);
    expect(await readState()).toMatchObject({ goal: 'Start over', next_action: 'START' });
  });

  it('--archive does nothing to a usable state', async () => {
    await guardian(['ensure']);
    const r = await guardian(['ensure', '--archive']);
    expect(r.out).toContain('nothing to archive');
    expect(await readdir(root)).not.toContain('archive');
  });
});

describe('guardian bundle', () => {
  it('prints markdown with --format md', async () => {
    await guardian(['ensure', '--goal', 'G', '--constraint', 'C1']);
    const r = await guardian(['bundle', '--format', 'md']);
    expect(r.out).toContain('# Working bundle');
    expect(r.out).toContain('- C1');
    expect(r.last).toBe('STATUS:OK');
  });
});
