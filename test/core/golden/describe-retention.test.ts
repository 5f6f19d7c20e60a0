// The retention figures and the facts lost of a policy review in the text report (describe.ts,
// render-text.ts) and in `check --format markdown`.
import { describe, expect, it } from 'vitest';
import { describeFactsLost, describeImpact, describeRetention } from '../../../src/core/golden/describe.js';
import { policyImpact } from '../../../src/core/golden/impact.js';
import type { PolicyImpact } from '../../../src/core/golden/impact.js';
import { renderText } from '../../../src/core/golden/render-text.js';
import type { RetentionReport } from '../../../src/core/retention/index.js';
import { renderMarkdownReport } from '../../../src/github/summary.js';
import { checkReport, checkResult, handReport, outcome } from './support.js';

const RETENTION: RetentionReport = {
  calls: 117,
  replayed: 114,
  facts: 241,
  lost: 3,
  summary_findings: 0,
  lost_facts: [
    {
      value: '8JX2WO',
      needed: { id: 'm10', line: 55, column: 5, tool: 'cancel_reservation' },
      source: { id: 'm2', line: 16, kind: 'user' },
      cause: 'dropped (pair_unit) at line 20',
    },
  ],
};

/** Same context under both policies; the retention check finds `base` and `head` lost facts (undefined: off). */
function factsImpact(base: number | undefined, head: number | undefined): PolicyImpact {
  const side = (n: number | undefined) =>
    handReport({
      checks: [checkResult('budget', 0), ...(n === undefined ? [] : [checkResult('retention', n, 'warning')])],
    });
  return policyImpact('a.jsonl', side(base), side(head));
}

describe('describeRetention', () => {
  it('gives the replay figures in one line, never a value', () => {
    expect(describeRetention(RETENTION)).toBe('retention: 114 of 117 tool calls replayed, 241 facts, 3 lost');
    expect(describeRetention(RETENTION)).not.toContain('8JX2WO');
  });

  it('says one in the singular and adds what the summaries lost', () => {
    expect(describeRetention({ calls: 1, replayed: 1, facts: 1, lost: 0 })).toBe(
      'retention: 1 of 1 tool call replayed, 1 fact, 0 lost',
    );
    expect(describeRetention({ ...RETENTION, summary_findings: 2 })).toBe(
      'retention: 114 of 117 tool calls replayed, 241 facts, 3 lost; 2 facts lost by summaries',
    );
  });

  it('tells nothing when no call was replayed', () => {
    expect(describeRetention({ calls: 0, replayed: 0, facts: 0, lost: 0 })).toBeUndefined();
  });
});

describe('facts lost in the policy impact (text)', () => {
  it('adds `facts lost: base → head` when the check ran', () => {
    const impact = factsImpact(0, 3);
    expect(describeFactsLost(impact.base, impact.head)).toBe('0 → 3');
    expect(describeImpact(impact).at(-1)).toBe('facts lost: 0 → 3');
  });

  it('shows — for a side whose policy turns the check off, and no line when neither ran it', () => {
    expect(describeImpact(factsImpact(undefined, 2)).at(-1)).toBe('facts lost: — → 2');
    expect(describeImpact(factsImpact(undefined, undefined)).join('\n')).not.toContain('facts lost');
  });

  it('prints the line under the policy impact of the text report', () => {
    const out = renderText(checkReport([outcome('a.jsonl', 'pass', { impact: factsImpact(1, 4) })]));
    expect(out).toContain('  policy impact (base → head):\n    status: ok → ok\n');
    expect(out).toContain('\n    facts lost: 1 → 4\n');
  });
});

describe('the retention figures of a transcript (text)', () => {
  it('tells them under a failing transcript', () => {
    const failing = outcome('t/a.jsonl', 'violations', {
      violations: [{ check: 'pii', severity: 'error', id: 'm4', line: 7, message: 'leak' }],
      retention: RETENTION,
    });
    const lines = renderText(checkReport([failing])).split('\n');
    expect(lines).toContain('  retention: 114 of 117 tool calls replayed, 241 facts, 3 lost');
  });

  it('tells them under a pass with findings, not under a clean pass', () => {
    const warned = outcome('t/w.jsonl', 'pass', {
      violations: [{ check: 'retention', severity: 'warning', id: 'm10', line: 55, message: 'lost' }],
      retention: RETENTION,
    });
    const clean = outcome('t/c.jsonl', 'pass', { retention: { ...RETENTION, lost: 0, lost_facts: [] } });
    const out = renderText(checkReport([warned, clean]));
    expect(out.match(/^ {2}retention: /gm)).toEqual(['  retention: ']);
    const cleanAt = out.split('\n').findIndex((l) => l.includes('t/c.jsonl'));
    expect(out.split('\n')[cleanAt + 1]).not.toContain('retention');
  });

  it('says nothing when no call was replayed', () => {
    const failing = outcome('t/a.jsonl', 'drift', { retention: { calls: 0, replayed: 0, facts: 0, lost: 0, lost_facts: [] } });
    expect(renderText(checkReport([failing]))).not.toContain('retention:');
  });
});

describe('facts lost in `check --format markdown`', () => {
  it('adds the Facts lost column to the narrow, totals and full tables', () => {
    const md = renderMarkdownReport(checkReport([outcome('a.jsonl', 'pass', { impact: factsImpact(0, 3) })]));
    expect(md).toContain('| Transcript | Tokens | Removed | Facts lost | Checks |\n| --- | ---: | ---: | ---: | --- |');
    expect(md).toContain('\n| a.jsonl | 30 → 30 (±0) | 1 → 1 | 0 → 3 | — |\n');
    expect(md).toContain('| **Total: 1 transcript, 1 changed** | **30 → 30 (±0)** | **1 → 1** | **0 → 3** | **0 newly failing, 0 fixed** |');
    expect(md).toContain('| a.jsonl | ok → ok | 30 → 30 | 2 → 2 | 0 → 0 | budget 1 → 1 | — | — | 0 → 3 |');
  });
});
