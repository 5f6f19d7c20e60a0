// What every report says of a transcript beyond its outcome (src/core/golden/describe-outcome.ts):
// the totals, what fills the budget, the first change, the command that accepts a change (pasted
// into a shell, so it must be one safe word per argument), and a drift in one annotation.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import type { TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import {
  acceptCommand,
  describeConsumers,
  describeDrift,
  describeFirstChange,
  describeTotals,
  shellWord,
} from '../../../src/core/golden/describe-outcome.js';
import { describeSummary } from '../../../src/core/golden/describe.js';
import { diffGoldens } from '../../../src/core/golden/diff.js';
import type { GoldenDiff } from '../../../src/core/golden/diff.js';
import { buildGolden } from '../../../src/core/golden/golden.js';
import { totals } from '../../../src/core/golden/report-order.js';
import type { TranscriptReport } from '../../../src/core/report/report.js';
import { TOKENIZER, checkReport, checkResult, handReport, item, ledger, outcome, policy } from './support.js';

/** The diff `check` computes between the hand report and one with `after` applied. */
function diffTo(after: Partial<TranscriptReport>, policyOverrides: Record<string, unknown> = { budget: 10 }): GoldenDiff {
  const meta = { transcript: 'a.jsonl', policy: policy(), tokenizer: TOKENIZER };
  return diffGoldens(buildGolden(handReport(), meta), buildGolden(handReport(after), { ...meta, policy: policy(policyOverrides) }));
}

/** m2 kept → dropped for the budget, and the pii check starts failing. */
const DROP_M2: Partial<TranscriptReport> = {
  budget: { limit: 100, used: 10 },
  context: [item('m1', 1, 'hello there', 10)],
  ledger: [ledger('m1', 1, 'kept', 'in_budget', 10), ledger('m2', 2, 'dropped', 'budget', 20), ledger('m3', 3, 'dropped', 'budget', 90)],
  checks: [checkResult('budget', 0), checkResult('pii', 1)],
};

function drift(transcript: string, diff: GoldenDiff, extra: Partial<TranscriptOutcome> = {}): TranscriptOutcome {
  return outcome(transcript, 'drift', { diff, ...extra });
}

const errorViolation = { check: 'pii', severity: 'error', id: 'm4', line: 7, message: 'an email address' };
const warningViolation = { check: 'order', severity: 'warning', id: 'm5', line: 9, message: 'out of order' };

describe('totals and describeTotals', () => {
  const report = checkReport([
    outcome('a.jsonl', 'violations', { violations: [errorViolation] }),
    // A drift with a violation at severity error is listed (and counted) under violations.
    drift('b.jsonl', diffTo(DROP_M2), { violations: [errorViolation] }),
    drift('c.jsonl', diffTo(DROP_M2)),
    drift('d.jsonl', diffTo(DROP_M2), { drift_severity: 'warning' }),
    outcome('e.jsonl', 'error', { budget: undefined }),
    outcome('f.jsonl', 'new'),
    // A warning does not fail: the transcript passed.
    outcome('g.jsonl', 'pass', { violations: [warningViolation] }),
    outcome('h.jsonl', 'pass'),
  ]);

  it('counts each transcript once, in the group the reports list it under', () => {
    expect(totals(report)).toEqual({ violations: 2, drifted: 2, new: 1, errors: 1, passed: 2 });
    const t = totals(report);
    expect(t.violations + t.drifted + t.new + t.errors + t.passed).toBe(report.summary.checked);
  });

  it('says the totals in one line, in the order of the report', () => {
    expect(describeTotals(report)).toBe('2 with violations · 2 drifted · 1 new · 1 error · 2 passed');
    expect(describeTotals(checkReport([outcome('a.jsonl')]))).toBe('0 with violations · 0 drifted · 0 new · 0 errors · 1 passed');
  });

  it('ends every report with the same counts, naming drift reported as a warning', () => {
    expect(describeSummary(report)).toBe(
      '8 transcripts checked: 2 with violations, 2 drifted (1 as a warning), 1 new, 1 error, 2 passed; 0 obsolete goldens.',
    );
  });
});

describe('acceptCommand', () => {
  const d = diffTo(DROP_M2);
  const conventional = '.github/context-policy.yml';

  it('accepts a drift and writes a missing golden, and has nothing to accept otherwise', () => {
    expect(acceptCommand(drift('t/a.jsonl', d), conventional)).toBe('npx context-stability update t/a.jsonl');
    expect(acceptCommand(outcome('t/a.jsonl', 'new'), conventional)).toBe('npx context-stability update t/a.jsonl');
    expect(acceptCommand(outcome('t/a.jsonl', 'pass'), conventional)).toBeUndefined();
    expect(acceptCommand(outcome('t/a.jsonl', 'pass', { notes: ['policy changed; this context is unchanged'] }), conventional)).toBeUndefined();
    expect(acceptCommand(outcome('t/a.jsonl', 'error'), conventional)).toBeUndefined();
    expect(acceptCommand(outcome('t/a.jsonl', 'violations', { violations: [errorViolation] }), conventional)).toBeUndefined();
  });

  it('shell-quotes a path with spaces, quotes or shell syntax, so that it pastes as one argument', () => {
    expect(acceptCommand(drift("t/it's my file.jsonl", d), conventional)).toBe(
      "npx context-stability update 't/it'\\''s my file.jsonl'",
    );
    for (const name of [
      "t/it's my file.jsonl",
      't/"quoted" name.jsonl',
      't/$(touch pwned)`id`;rm -rf x|y&z.jsonl',
      't/new\nline *.jsonl',
      "''",
      't/ünïcödé 日本.jsonl',
    ]) {
      const word = shellWord(name);
      // What a POSIX shell makes of the word: exactly the name, as one argument.
      const args = execFileSync('sh', ['-c', `printf '%s\\0' ${word}`], { encoding: 'utf8' }).split('\0');
      expect(args, name).toEqual([name, '']);
    }
  });

  it('leaves a plain path bare', () => {
    expect(shellWord('examples/transcripts/coding-agent.anthropic.json')).toBe('examples/transcripts/coding-agent.anthropic.json');
    expect(shellWord('a/b@1+2=3,c:d%e.jsonl')).toBe('a/b@1+2=3,c:d%e.jsonl');
  });

  it('accepts one session of an aider history with --session N', () => {
    expect(acceptCommand(drift('t/.aider.chat.history.md#2', d), conventional)).toBe(
      'npx context-stability update t/.aider.chat.history.md --session 2',
    );
    expect(acceptCommand(outcome('t/history.md#12', 'new'), 'policy.yml')).toBe(
      'npx context-stability update t/history.md --session 12 --policy policy.yml',
    );
    // Not a session number: part of the file name.
    expect(acceptCommand(drift('t/a#0', d), conventional)).toBe("npx context-stability update 't/a#0'");
  });

  it('names the policy only when update would not find it by itself', () => {
    for (const source of ['default', '.github/context-policy.yml', '.github/context-policy.yaml', '.github/context-policy.json']) {
      expect(acceptCommand(drift('a.jsonl', d), source), source).toBe('npx context-stability update a.jsonl');
    }
    expect(acceptCommand(drift('a.jsonl', d), 'policy-tight.yml')).toBe(
      'npx context-stability update a.jsonl --policy policy-tight.yml',
    );
    expect(acceptCommand(drift('a.jsonl', d), 'config/context-policy.yml')).toBe(
      'npx context-stability update a.jsonl --policy config/context-policy.yml',
    );
    expect(acceptCommand(drift('a.jsonl', d), 'my policies/p.yml')).toBe(
      "npx context-stability update a.jsonl --policy 'my policies/p.yml'",
    );
  });
});

describe('describeFirstChange and describeConsumers', () => {
  it('names the first changed artifact with its line and what happened to it', () => {
    expect(describeFirstChange(drift('a.jsonl', diffTo(DROP_M2)))).toBe(
      'first change: m2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens)',
    );
  });

  it('names an artifact whose content changed, without its content', () => {
    const d = diffTo({ context: [item('m1', 1, 'mail dana.miller@example.org', 10), item('m2', 2, 'general kenobi', 20)] }, {});
    expect(d.first).toEqual({ id: 'm1', line: 1 });
    const first = describeFirstChange(drift('a.jsonl', d));
    expect(first).toBe('first change: m1 (line 1): content changed');
  });

  it('says nothing when no artifact changed, or the outcome has no diff', () => {
    const checksOnly = diffTo({ checks: [checkResult('budget', 0), checkResult('pii', 1)] }, {});
    expect(checksOnly.equal).toBe(false);
    expect(checksOnly.first).toBeNull();
    expect(describeFirstChange(drift('a.jsonl', checksOnly))).toBeUndefined();
    expect(describeFirstChange(outcome('a.jsonl'))).toBeUndefined();
    expect(describeFirstChange(outcome('a.jsonl', 'pass', { diff: diffTo({}, {}) }))).toBeUndefined();
  });

  it('says what fills the budget from the picture, and nothing without one', () => {
    const o = outcome('a.jsonl', 'drift', {
      picture: {
        runs: [],
        by_kind: { tool: 3_520 },
        consumers: [
          { id: 't7', kind: 'tool', line: 12, tokens: 3_120, percent: 39 },
          { id: 't9', kind: 'tool', line: 20, tokens: 400, percent: 5 },
        ],
      },
    });
    expect(describeConsumers(o)).toBe(
      'what fills the budget: t7 (tool, line 12) 3,120 tokens, 39% of the budget; t9 (tool, line 20) 400 tokens, 5% of the budget',
    );
    expect(describeConsumers(outcome('a.jsonl'))).toBeUndefined();
    expect(describeConsumers(outcome('a.jsonl', 'pass', { picture: { runs: [], by_kind: {}, consumers: [] } }))).toBeUndefined();
  });
});

describe('describeDrift', () => {
  it('is at the first changed artifact and says what changed, how much, why, and how to accept it', () => {
    expect(describeDrift(drift('t/a.jsonl', diffTo(DROP_M2)), '.github/context-policy.yml')).toEqual({
      line: 2,
      id: 'm2',
      message:
        'First change: m2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens). Artifacts: 1 changed fate. ' +
        'Tokens 30 → 10. check pii: ok → failing (1 violation). Cause: policy changed. ' +
        'If the change is intended, accept it: npx context-stability update t/a.jsonl',
    });
  });

  it('counts the artifacts that changed fate and content, and names the status change', () => {
    const d = diffTo(
      {
        status: 'escalated',
        context: [item('m1', 1, 'hello again', 10)],
        ledger: [ledger('m1', 1, 'kept', 'in_budget', 10), ledger('m2', 2, 'dropped', 'budget', 20), ledger('m3', 3, 'dropped', 'budget', 90)],
      },
      { budget: 20 },
    );
    const { line, id, message } = describeDrift(drift('a.jsonl', d), 'p.yml');
    expect([line, id]).toEqual([1, 'm1']);
    expect(message).toBe(
      'First change: m1 (line 1): the content in the context changed. Artifacts: 1 changed fate, 1 changed content. ' +
        'Status ok → escalated. Tokens 30 → 30. Cause: policy changed. ' +
        'If the change is intended, accept it: npx context-stability update a.jsonl --policy p.yml',
    );
  });

  it('is at line 1, without an id, when no artifact changed', () => {
    const d = diffTo({ checks: [checkResult('budget', 0), checkResult('pii', 1)] }, {});
    expect(describeDrift(drift('a.jsonl', d), 'default')).toEqual({
      line: 1,
      message:
        'Tokens 30 → 30. check pii: ok → failing (1 violation). If the change is intended, accept it: npx context-stability update a.jsonl',
    });
    expect(describeDrift(outcome('a.jsonl', 'drift'), 'default')).toEqual({
      line: 1,
      message: 'The result differs from the golden. If the change is intended, accept it: npx context-stability update a.jsonl',
    });
  });

  it('is one line that holds no content of the transcript', () => {
    const d = diffTo({ context: [item('m1', 1, 'mail dana.miller@example.org\nnow', 10), item('m2', 2, 'general kenobi', 20)] }, {});
    const { message } = describeDrift(drift('a.jsonl', d), 'default');
    expect(message).not.toContain('dana.miller');
    expect(message).not.toContain('\n');
  });
});
