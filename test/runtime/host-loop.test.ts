// The host loop of docs/host-loop.md, run end to end as a user runs it (tsx, one process per run,
// offline with its scripted model): the STATUS lines it prints, the state file it leaves, pressure
// growing to a latched STATUS:HALT_CONTEXT_LIMIT, the stop on escalation, and a resume that goes
// on to STATUS:COMPLETE. The doc's code block is the example file; docs-snippets type-checks it.
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { fakeIO } from '../cli/fake-io.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../..');
const EXAMPLE = path.join(REPO, 'examples/host-loop/host-loop.ts');
const TSCONFIG = path.join(REPO, 'examples/host-loop/tsconfig.json');
const TSX = path.join(REPO, 'node_modules/tsx/dist/cli.mjs');
const EMAIL = 'jane.doe@example.com';
/** Each run is a tsx process (about 5 s), and tsc takes longer: more than the default under load. */
const SLOW = 240_000;

let dir: string;
let root: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cs-host-loop-'));
  root = path.join(dir, 'task');
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function runNode(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, args, { cwd: dir, timeout: 120_000 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : null;
      if (code === null) reject(error ?? new Error('the example did not exit normally'));
      else resolve({ code, stdout, stderr });
    });
  });
}

async function hostLoop(...args: string[]) {
  const r = await runNode([TSX, '--tsconfig', TSCONFIG, EXAMPLE, '--root', root, ...args]);
  return { ...r, lines: r.stdout.trimEnd().split('\n') };
}

interface State {
  next_action: string;
  turn: number;
  completed_steps: string[];
  tool_outputs: string[];
  artifacts: { path: string }[];
  halt?: { pressure: number | null; threshold: number; reason: string };
  resumes?: { by: string; why: string }[];
}

function state(): State {
  return JSON.parse(readFileSync(path.join(root, 'task-state.json'), 'utf8')) as State;
}

/** The pressure of each model call, in the order the loop printed them. */
function pressures(lines: readonly string[]): number[] {
  return lines.flatMap((l) => {
    const m = /^call: pressure ([\d.]+) /.exec(l);
    return m ? [Number(m[1])] : [];
  });
}

describe('examples/host-loop (docs/host-loop.md)', () => {
  it(
    'halts as pressure grows, stays halted, and after a resume goes on to STATUS:COMPLETE',
    async () => {
      const first = await hostLoop();
      expect(first.code).toBe(4);
      expect(first.lines[0]).toBe('startup: initialized (next_action START)');
      expect(first.lines[1]).toBe('plan: checkpoint, next_action: read day1.log');
      expect(first.lines.at(-1)).toBe('STATUS:HALT_CONTEXT_LIMIT');
      // Exactly one STATUS line, the last one (as the guardian CLI prints it).
      expect(first.lines.filter((l) => l.startsWith('STATUS:'))).toEqual(['STATUS:HALT_CONTEXT_LIMIT']);
      expect(first.lines.at(-2)).toMatch(
        /^context-stability: STATUS:HALT_CONTEXT_LIMIT for session host-loop: context pressure 0\.\d+ is at or above critical \(0\.85\): must-keep \d+ of 1000 tokens\.$/,
      );
      // The calls that read a log result: pressure grows through warning and compress to critical.
      const findings = first.lines.filter((l) => l.includes('-> finding'));
      expect(findings).toHaveLength(4);
      const readings = pressures(findings);
      expect(readings).toEqual([...readings].sort((a, b) => a - b));
      expect(findings.map((l) => /\((\w+),/.exec(l)?.[1])).toEqual([
        'normal',
        'normal',
        'warning',
        'compress',
      ]);
      expect(first.lines).toContain('warning: fresh_summary');
      // The calls that ask for the next log carry no tool result: their pressure stays low.
      const asks = pressures(first.lines.filter((l) => l.includes('-> read_log')));
      expect(asks).toHaveLength(5);
      for (const p of asks) expect(p).toBeLessThan(0.3);
      expect(first.stdout).not.toContain(EMAIL);

      const halted = state();
      expect(halted.next_action).toBe('read day5.log');
      expect(halted.completed_steps).toEqual(
        ['day1.log', 'day2.log', 'day3.log', 'day4.log'].map((f) => `audited ${f}`),
      );
      expect(halted.artifacts.map((a) => a.path)).toEqual(['day1.log', 'day2.log', 'day3.log', 'day4.log']);
      // What the model read was masked: the findings in durable state hold no address.
      expect(halted.tool_outputs[0]).toBe('day1.log: 1 server errors; support ticket opened by [EMAIL_1]');
      expect(JSON.stringify(halted)).not.toContain(EMAIL);
      expect(halted.halt).toMatchObject({ threshold: 0.85 });
      expect(halted.halt?.pressure).toBeGreaterThanOrEqual(0.85);
      expect(halted.halt?.reason).toMatch(/^pressure 0\.\d+ is at or above critical \(0\.85\)$/);
      const summary = readFileSync(path.join(root, 'summaries/latest-summary.md'), 'utf8');
      expect(summary).toContain(`- Turn: ${halted.turn}`);
      expect(existsSync(path.join(root, '.guardian.lock'))).toBe(false);

      // The halt is latched: a new run stops at startup and writes nothing.
      const again = await hostLoop();
      expect([again.code, again.lines]).toEqual([
        4,
        [expect.stringMatching(/^startup: halted since /), 'STATUS:HALT_CONTEXT_LIMIT'],
      ]);
      expect(state().turn).toBe(halted.turn);

      // The explicit override (a human gives the task a larger budget), then the loop goes on.
      const io = fakeIO(dir);
      const why = 'budget raised to 2000 tokens';
      expect(await main(['guardian', 'resume', '--root', root, '--by', 'ops', '--why', why], io)).toBe(0);
      const resumed = await hostLoop('--budget', '2000');
      expect(resumed.code).toBe(5);
      expect(resumed.lines).toEqual([
        `startup: ready at turn ${halted.turn + 1}, next_action: read day5.log`,
        expect.stringMatching(
          /^call: pressure 0\.\d+ \(normal, must-keep \d+ of 2000\) -> read_log day5\.log$/,
        ),
        expect.stringMatching(
          /^call: pressure 0\.\d+ \(normal, must-keep \d+ of 2000\) -> finding; checkpoint turn \d+, next_action: DONE$/,
        ),
        'STATUS:COMPLETE',
      ]);
      const done = state();
      expect(done.next_action).toBe('DONE');
      expect(done.completed_steps).toHaveLength(5);
      expect(done.halt).toBeUndefined();
      expect(done.resumes).toMatchObject([{ by: 'ops', why }]);
    },
    SLOW,
  );

  it(
    'stops on escalation with STATUS:HALT_CONTEXT_LIMIT and the halt latched',
    async () => {
      const r = await hostLoop('--budget', '60');
      expect(r.code).toBe(4);
      expect(r.lines.at(-2)).toMatch(/^context-stability: the context of session host-loop is escalated \(/);
      expect(r.lines.at(-1)).toBe('STATUS:HALT_CONTEXT_LIMIT');
      expect(state().halt).toMatchObject({
        pressure: 1,
        reason: expect.stringMatching(/^the context is escalated/),
      });
    },
    SLOW,
  );

  it('is the code block of docs/host-loop.md (test/e2e/docs-snippets.test.ts type-checks that block against the packed package)', () => {
    const doc = readFileSync(path.join(REPO, 'docs/host-loop.md'), 'utf8');
    const block = /```ts\n(\/\/ A host loop[\s\S]*?)```/.exec(doc)?.[1];
    expect(block).toBe(readFileSync(EXAMPLE, 'utf8'));
    // The fence is a plain ```ts one, so docs-snippets compiles it (a `nocompile` fence would not be).
    expect(doc).toContain('```ts\n// A host loop');
  });
});
