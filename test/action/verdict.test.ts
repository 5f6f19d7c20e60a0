import { describe, expect, it } from 'vitest';
import { failureMessage, findingsOf, verdictOf, withError } from '../../src/action/verdict.js';
import { checkReport, outcome } from '../core/golden/support.js';

const report = checkReport(
  [
    outcome('t/pass.jsonl'),
    outcome('t/drift.jsonl', 'drift', {
      violations: [{ check: 'budget', severity: 'error', id: '*', line: 1, message: 'over budget' }],
    }),
    outcome('t/warn.jsonl', 'pass', {
      violations: [{ check: 'order', severity: 'warning', id: 'm2', line: 2, message: 'out of order' }],
    }),
    outcome('t/new.jsonl', 'new'),
    outcome('t/written.jsonl', 'new', { written: true }),
    outcome('t/bad.json', 'error'),
  ],
  { ci: true },
);

describe('findingsOf', () => {
  it('counts transcripts per fail-on category; a drift with error violations counts for both', () => {
    expect(findingsOf(report, 'check')).toEqual({ violations: 1, drift: 1, new: 1, error: 1 });
  });

  it('in update mode, drift and new goldens are what the run writes, not findings', () => {
    expect(findingsOf(report, 'update')).toEqual({ violations: 1, drift: 0, new: 0, error: 1 });
  });
});

describe('verdictOf', () => {
  it('reports status from every finding and fails only for the categories in fail-on', () => {
    const findings = { violations: 0, drift: 2, new: 1, error: 0 };
    expect(verdictOf(findings, ['violations', 'error'])).toEqual({ status: 'fail', findings, failing: [] });
    expect(verdictOf(findings, ['drift', 'new']).failing).toEqual(['drift', 'new']);
    expect(verdictOf({ violations: 0, drift: 0, new: 0, error: 0 }, ['drift']).status).toBe('pass');
  });
});

describe('withError', () => {
  it('adds an error of the run itself (an unwritable report), failing only when error is in fail-on', () => {
    const clean = verdictOf({ violations: 0, drift: 0, new: 0, error: 0 }, ['drift']);
    expect(withError(clean, ['drift'])).toEqual({
      status: 'fail',
      findings: { violations: 0, drift: 0, new: 0, error: 1 },
      failing: [],
    });
    expect(withError(clean, ['drift', 'error']).failing).toEqual(['error']);
  });
});

describe('failureMessage', () => {
  it('gives counts per failing category and the fail-on list, no transcript names', () => {
    const failOn = ['violations', 'drift', 'new', 'error'] as const;
    const message = failureMessage(verdictOf(findingsOf(report, 'check'), failOn), failOn);
    expect(message).toBe(
      'context-stability: 1 transcript with violations; 1 transcript drifted from the golden; ' +
        '1 transcript without a golden (CI writes none: run update and commit); 1 transcript could not be checked ' +
        '(fail-on: violations, drift, new, error). See the annotations and the job summary.',
    );
    expect(message).not.toContain('t/');
  });
});
