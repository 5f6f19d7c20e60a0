// buildReport (DESIGN §7 `stabilize --json`) and which checks fail a run.
import { describe, expect, it } from 'vitest';
import { buildReport, failingChecks } from '../../../src/core/report/report.js';
import type { CheckResult } from '../../../src/core/validate/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import { asst, sys, t, user } from '../../support/artifacts.js';
import { policy, run, wordTokenizer } from '../stabilize/helpers.js';

describe('buildReport', () => {
  it('holds the result and its checks, with the keys in the documented order', () => {
    const tr = t(sys('s', 'Be brief.'), user('u', 'hi'), asst('a', 'hello'));
    const p = policy();
    const result = run(tr, p);
    const checks = validateResult(tr, result, { policy: p, tokenizer: wordTokenizer });
    const report = buildReport(result, checks);
    expect(Object.keys(report)).toEqual([
      'transcript',
      'status',
      'budget',
      'context',
      'ledger',
      'summaries',
      'checks',
      'events',
    ]);
    expect(report).toMatchObject({ transcript: 'session.jsonl', status: 'ok', checks });
    expect(report.context).toBe(result.context);
  });
});

describe('failingChecks', () => {
  const c = (name: string, ok: boolean, severity: CheckResult['severity']): CheckResult => ({
    name,
    ok,
    severity,
    violations: ok ? [] : [{ id: 'x', line: 1, message: 'broken' }],
  });

  it('fails the run only on checks with violations at severity error', () => {
    const checks = [c('budget', false, 'error'), c('pii', false, 'warning'), c('order', true, 'error')];
    expect(failingChecks(checks).map((x) => x.name)).toEqual(['budget']);
    expect(failingChecks([c('pairing', true, 'off')])).toEqual([]);
  });
});
