// End-to-end: the PRD's own example (seed 004; examples/prd) through the built CLI. The session is
// written in the PRD's artifact shape (kinds system, task, message, tool_output) and checked under
// the policy the PRD describes (a budget, the 2 most recent messages kept, any run of 3 or more
// digits masked). Run in a temp folder, so the golden the first check writes stays out of the repo.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertBuilt, REPO, runBuilt } from './check-cli.js';
import type { Run } from './check-cli.js';

const FILE = 'examples/prd/session.json';
const POLICY = 'examples/prd/context-policy.yml';
const GOLDEN = 'golden/examples/prd/session.json.golden.json';
/** Fake personal data the session's user pastes (the Ofcom drama range; an invented account). */
const PASTED = ['+44 20 7946 0958', '7946 0958', '58214476'];

interface GoldenEntry {
  id: string;
  stage: string;
  action: string;
  reason: string;
  protected_by?: string[];
  pii?: Record<string, number>;
}
interface Golden {
  status: string;
  budget: { limit: number; used: number };
  context: { id: string; kind: string; content: unknown }[];
  ledger: GoldenEntry[];
  checks: { name: string; ok: boolean }[];
}

let root: string;
let dir: string;
const printed: string[] = [];

async function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const run = await runBuilt(args, dir, env);
  printed.push(run.stdout, run.stderr);
  return run;
}

beforeAll(() => {
  assertBuilt();
  root = mkdtempSync(path.join(tmpdir(), 'cs-prd-'));
  dir = path.join(root, 'repo');
  mkdirSync(path.join(dir, 'examples'), { recursive: true });
  cpSync(path.join(REPO, 'examples/prd'), path.join(dir, 'examples/prd'), { recursive: true });
});
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe("the PRD's example: check examples/prd/session.json --policy examples/prd/context-policy.yml", () => {
  it('passes: the golden is written, then matched in CI mode, every check green (exit 0)', async () => {
    const first = await cli(['check', FILE, '--policy', POLICY]);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toMatch(/^NEW +examples\/prd\/session\.json {2}\d+\/1000 tokens {2}golden written/m);

    const again = await cli([
      'check',
      FILE,
      '--policy',
      POLICY,
      '--ci',
      '--verbose',
      '--report',
      'report.json',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^PASS +examples\/prd\/session\.json {2}\d+\/1000 tokens$/m);
    expect(again.stdout).toContain(
      '1 transcript checked: 0 with violations, 0 drifted, 0 new, 0 errors, 1 passed',
    );
    const report = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as {
      transcripts: { outcome: string; status: string; violations: unknown[]; budget: { used: number } }[];
    };
    expect(report.transcripts).toMatchObject([{ outcome: 'pass', status: 'ok', violations: [] }]);
    expect(report.transcripts[0]?.budget.used).toBeLessThanOrEqual(1000);
  });

  it('keeps system and task first and the 2 latest messages, drops the long tool output, masks the digits', () => {
    const text = readFileSync(path.join(dir, GOLDEN), 'utf8');
    printed.push(text);
    const golden = JSON.parse(text) as Golden;
    const entry = (id: string): GoldenEntry | undefined => golden.ledger.find((e) => e.id === id);
    const kept = golden.context.map((c) => c.id);

    // FR5: authority order.
    expect(golden.context.slice(0, 2).map((c) => c.kind)).toEqual(['system', 'task']);
    // FR3: the 2 most recent messages (m18, the answer, and m19, the latest request).
    expect(kept.slice(-2)).toEqual(['m18', 'm19']);
    expect(entry('m18')?.protected_by).toContain('recent');
    expect(entry('m19')?.protected_by).toContain('recent');
    // Scenario 3: the verbose tool output is dropped, the short one fits and stays.
    expect(kept).not.toContain('usage-export');
    expect(entry('usage-export')).toMatchObject({
      stage: 'tool_output',
      action: 'dropped',
      reason: 'verbose_tool_output',
    });
    expect(entry('plan-lookup')).toMatchObject({ action: 'kept', reason: 'in_budget' });
    // FR2, scenario 2: the phone number and every run of 3 or more digits are masked.
    expect(entry('m17')).toMatchObject({ action: 'masked', pii: { phone: 1, digit_run: 1 } });
    const visible = JSON.stringify(golden.context.map((c) => c.content)).replace(/\[[A-Z_]+_\d+\]/g, '');
    expect(visible).not.toMatch(/\d{3,}/);
    // FR4, FR6, FR7: the budget is met and the report's checks all pass.
    expect(golden.status).toBe('ok');
    expect(golden.budget.used).toBeLessThanOrEqual(golden.budget.limit);
    expect(golden.budget.limit).toBe(1000);
    expect(golden.checks.filter((c) => !c.ok)).toEqual([]);
    expect(golden.checks.map((c) => c.name)).toEqual(expect.arrayContaining(['pii', 'budget', 'order']));
  });

  it('never prints or stores the pasted personal data', () => {
    const all = printed.join('\n');
    for (const value of PASTED) expect(all).not.toContain(value);
  });
});
