// Issue 12 item 7: the halt is latched in the durable state until `guardian resume`.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createGuardianCommands } from '../../src/cli/commands/guardian.js';
import { runCli } from '../../src/cli/main.js';
import { fakeIO } from './fake-io.js';

let dir: string;
let root: string;
let clock: number;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'guardian-halt-'));
  root = path.join(dir, 'task');
  clock = Date.UTC(2025, 2, 1, 9, 0, 0);
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function guardian(args: string[]) {
  const commands = createGuardianCommands({
    now: () => new Date((clock += 60_000)).toISOString(),
    readStdin: async () => '',
  });
  const io = fakeIO(dir, { CONTEXT_GUARDIAN_ROOT: root });
  const code = await runCli(['guardian', ...args], io, commands);
  const out = io.out();
  return { code, out, err: io.err(), last: out.trimEnd().split('\n').at(-1) };
}

const readStateText = () => readFile(path.join(root, 'task-state.json'), 'utf8');
const readState = async () => JSON.parse(await readStateText()) as Record<string, unknown>;
const readSummary = () => readFile(path.join(root, 'summaries/latest-summary.md'), 'utf8');

describe('the latched halt', () => {
  it('keeps answering STATUS:HALT_CONTEXT_LIMIT after a halt, whatever the pressure', async () => {
    await guardian(['ensure', '--goal', 'Fix the invoice bug']);
    expect((await guardian(['status', '--pressure', '0.9'])).code).toBe(4);
    const after = await guardian(['status', '--pressure', '0.1']);
    expect([after.code, after.last]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
    expect(after.out).toContain('guardian resume');
    const ensure = await guardian(['ensure']);
    expect([ensure.code, ensure.last]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
    const bundle = await guardian(['bundle']);
    expect([bundle.code, bundle.last]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
  });

  it('writes the checkpoint and the summary when status first signals the halt', async () => {
    await guardian(['ensure', '--goal', 'Fix the invoice bug']);
    const summaryBefore = await readSummary();
    await guardian(['status', '--pressure', '0.9']);
    const state = await readState();
    expect(state).toMatchObject({
      turn: 1,
      updated_at: '2025-03-01T09:02:00.000Z',
      halt: {
        at: '2025-03-01T09:02:00.000Z',
        pressure: 0.9,
        threshold: 0.85,
        reason: 'pressure 0.9 is at or above critical (0.85)',
      },
    });
    expect(await readSummary()).not.toEqual(summaryBefore);
    expect(await readSummary()).toContain('- Turn: 1');
    // A later status does not write again: the halt is already recorded.
    const text = await readStateText();
    await guardian(['status', '--pressure', '0.95']);
    expect(await readStateText()).toBe(text);
  });

  it('latches a halt from a missing pressure after the first turn, and from checkpoint --pressure', async () => {
    await guardian(['ensure']);
    await guardian(['checkpoint', '--next-action', 'step two']);
    expect((await guardian(['status'])).code).toBe(4);
    expect(await readState()).toMatchObject({ halt: { pressure: null, threshold: 0.85 } });

    await rm(root, { recursive: true, force: true });
    await guardian(['ensure']);
    expect((await guardian(['checkpoint', '--next-action', 'go on', '--pressure', '0.9'])).code).toBe(4);
    expect(await readState()).toMatchObject({ turn: 1, halt: { pressure: 0.9 } });
    const r = await guardian(['checkpoint', '--completed', 'saved my work', '--pressure', '0.1']);
    expect([r.code, r.last]).toEqual([4, 'STATUS:HALT_CONTEXT_LIMIT']);
    expect(await readState()).toMatchObject({
      turn: 2,
      completed_steps: ['saved my work'],
      halt: { pressure: 0.9 },
    });
  });

  it('is cleared by guardian resume, which records who and why', async () => {
    await guardian(['ensure']);
    await guardian(['status', '--pressure', '0.9']);
    const r = await guardian(['resume', '--by', 'ops on-call', '--why', 'context compacted by the host']);
    expect([r.code, r.last]).toEqual([0, 'STATUS:OK']);
    expect(r.out).not.toContain('ops on-call');
    expect(r.out).not.toContain('context compacted');
    const state = await readState();
    expect(state.halt).toBeUndefined();
    expect(state.resumes).toEqual([
      {
        at: '2025-03-01T09:03:00.000Z',
        by: 'ops on-call',
        why: 'context compacted by the host',
        halted_at: '2025-03-01T09:02:00.000Z',
      },
    ]);
    expect((await guardian(['status', '--pressure', '0.1'])).code).toBe(0);
    expect((await guardian(['status', '--pressure', '0.9'])).code).toBe(4);
  });

  it('resume without a halt says so, writes nothing and exits 0; --by and --why are required', async () => {
    await guardian(['ensure']);
    const text = await readStateText();
    const r = await guardian(['resume', '--by', 'ops', '--why', 'check']);
    expect([r.code, r.last]).toEqual([0, 'STATUS:OK']);
    expect(r.out).toContain('not halted');
    expect(await readStateText()).toBe(text);
    expect((await guardian(['resume', '--by', 'ops'])).code).toBe(2);
    expect((await guardian(['resume', '--why', 'x'])).code).toBe(2);
    expect((await guardian(['resume', '--by', ' ', '--why', 'x'])).code).toBe(2);
  });

  it('loads a state file written before the latch existed (no halt field = not halted)', async () => {
    await guardian(['ensure']);
    const state = await readState();
    expect('halt' in state).toBe(false);
    await writeFile(path.join(root, 'task-state.json'), `${JSON.stringify(state, null, 2)}\n`);
    expect((await guardian(['status', '--pressure', '0.1'])).code).toBe(0);
  });
});
