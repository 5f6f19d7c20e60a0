// Every human rendering of a check report leads with what broke: violations (most severe check
// first), then drift, then input errors, new goldens and passes; a drift reported as a warning
// (`checks.drift: warning`) never fails the run. The JSON report keeps its path order.
import { describe, expect, it } from 'vitest';
import { exitCodeFor, outcomeFails } from '../../../src/core/golden/check-report.js';
import type { GoldenDiff } from '../../../src/core/golden/diff.js';
import { renderGithub } from '../../../src/core/golden/render-github.js';
import { renderText } from '../../../src/core/golden/render-text.js';
import { displayOrder } from '../../../src/core/golden/report-order.js';
import { collectAnnotations } from '../../../src/github/annotations.js';
import { buildJobSummary, renderMarkdownReport } from '../../../src/github/summary.js';
import { checkReport, outcome } from './support.js';

const diff: GoldenDiff = {
  equal: false,
  causes: ['policy changed'],
  metadata: ['policy changed'],
  first: { id: 'm2', line: 2 },
  status: null,
  tokens: { before: 30, after: 10, delta: -20 },
  fates: [
    {
      id: 'm2',
      line: 2,
      before: { action: 'kept', reason: 'in_budget', tokens: 10 },
      after: { action: 'dropped', reason: 'budget', tokens: 0 },
    },
  ],
  contentChanged: [],
  checks: [],
};

function v(check: string, severity: string, id: string, line: number, column?: number) {
  return { check, severity, id, line, ...(column ? { column } : {}), message: `${check} violation` };
}

function sample() {
  return checkReport([
    outcome('a/drift.jsonl', 'drift', { diff }),
    outcome('b/budget.jsonl', 'violations', { violations: [v('budget', 'error', 'm9', 9, 1)] }),
    outcome('c/soft-drift.jsonl', 'drift', { diff, drift_severity: 'warning' }),
    outcome('d/pass.jsonl', 'pass'),
    outcome('e/task.jsonl', 'violations', {
      violations: [v('budget', 'error', 'm3', 3, 1), v('task', 'error', 'u1', 2, 1)],
    }),
  ]);
}

describe('displayOrder', () => {
  it('lists violations (task before budget), then drift, then drift at warning, then passes', () => {
    expect(displayOrder(sample()).transcripts.map((o) => o.transcript)).toEqual([
      'e/task.jsonl',
      'b/budget.jsonl',
      'a/drift.jsonl',
      'c/soft-drift.jsonl',
      'd/pass.jsonl',
    ]);
  });

  it('lists the violations of a transcript most severe first, and leaves the report as it was', () => {
    const report = sample();
    const e = displayOrder(report).transcripts[0];
    expect(e?.violations.map((x) => x.check)).toEqual(['task', 'budget']);
    // The JSON report (what `merge` and byte-stable output rely on) keeps its own order.
    expect(report.transcripts.map((o) => o.transcript)).toEqual([
      'a/drift.jsonl',
      'b/budget.jsonl',
      'c/soft-drift.jsonl',
      'd/pass.jsonl',
      'e/task.jsonl',
    ]);
  });
});

describe('drift severity', () => {
  it('fails the run at error and not at warning', () => {
    const soft = checkReport([outcome('c/soft-drift.jsonl', 'drift', { diff, drift_severity: 'warning' })]);
    expect(outcomeFails(soft.transcripts[0]!, false)).toBe(false);
    expect(exitCodeFor(soft)).toBe(0);
    const hard = checkReport([outcome('a/drift.jsonl', 'drift', { diff, drift_severity: 'error' })]);
    expect(exitCodeFor(hard)).toBe(1);
  });

  it('is shown as a warning in every rendering', () => {
    const soft = checkReport([outcome('c/soft-drift.jsonl', 'drift', { diff, drift_severity: 'warning' })]);
    expect(renderGithub(soft)).toMatch(/^::warning file=c\/soft-drift\.jsonl,line=2/m);
    expect(renderGithub(soft)).not.toMatch(/^::error/m);
    expect(collectAnnotations(soft).map((a) => a.level)).toEqual(['warning']);
    expect(renderText(soft)).toMatch(/drift reported as a warning/);
    for (const md of [renderMarkdownReport(soft), buildJobSummary(soft)]) {
      expect(md).toMatch(/drift reported as a warning/);
      expect(md).toContain('### ⚠️ Drift reported as a warning (1)');
      expect(md).toContain('**c/soft-drift.jsonl** — ⚠️ drift (warning)');
      expect(md).toContain('**✅ No transcript fails; 1 drift reported as a warning**');
      expect(md).not.toContain('### ❌');
    }
  });
});

describe('annotations', () => {
  it('carry the column of each violation and come in the finding order', () => {
    const all = collectAnnotations(sample()).filter((a) => a.level === 'error');
    expect(all.map((a) => [a.check, a.file, a.line, a.col])).toEqual([
      ['task', 'e/task.jsonl', 2, 1],
      ['budget', 'b/budget.jsonl', 9, 1],
      ['budget', 'e/task.jsonl', 3, 1],
      ['drift', 'a/drift.jsonl', 2, undefined],
    ]);
  });
});
