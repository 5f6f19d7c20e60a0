// The facts lost of a policy review (the `retention` check under each policy) in the impact tables
// of the job summary and PR comment, and the retention figures in a transcript's block.
import { describe, expect, it } from 'vitest';
import { policyImpact } from '../../src/core/golden/impact.js';
import type { PolicyImpact } from '../../src/core/golden/impact.js';
import type { RetentionReport } from '../../src/core/retention/index.js';
import {
  impactChanged,
  impactColumns,
  impactFullHead,
  impactFullRow,
  impactHead,
  impactRow,
  impactTotals,
  outcomeBody,
  passRow,
} from '../../src/github/report-blocks.js';
import { buildJobSummary } from '../../src/github/summary.js';
import { checkResult, handReport } from '../core/golden/support.js';
import { blocks, checkReport, impactOf, outcome, passOutcome, violationsOutcome } from './support.js';

/** Same context under both policies; the retention check finds `base` and `head` lost facts (undefined: off). */
function factsImpact(transcript: string, base: number | undefined, head: number | undefined): PolicyImpact {
  const side = (n: number | undefined) =>
    handReport({
      checks: [
        checkResult('budget', 0),
        ...(n === undefined ? [] : [checkResult('retention', n, 'warning')]),
      ],
    });
  return policyImpact(transcript, side(base), side(head));
}

const RETENTION: RetentionReport = {
  calls: 117,
  replayed: 114,
  facts: 241,
  lost: 3,
  lost_facts: [],
};

describe('facts lost in the policy impact tables', () => {
  it('counts a change in facts lost as a change, and only that', () => {
    expect(impactChanged(factsImpact('a.jsonl', 0, 3))).toBe(true);
    expect(impactChanged(factsImpact('a.jsonl', undefined, 0))).toBe(true);
    expect(impactChanged(factsImpact('a.jsonl', 2, 2))).toBe(false);
  });

  it('has the column when either side ran the check', () => {
    expect(impactColumns([factsImpact('a.jsonl', undefined, undefined)])).toEqual({
      cache: false,
      facts: false,
    });
    expect(impactColumns([factsImpact('a.jsonl', 1, undefined)])).toEqual({ cache: false, facts: true });
    expect(impactColumns([impactOf('b.jsonl'), factsImpact('a.jsonl', undefined, 0)]).facts).toBe(true);
  });

  it('shows base → head in the narrow row, the totals and the full row, — for a side that did not run it', () => {
    const cols = { cache: false, facts: true };
    expect(impactHead(cols)).toEqual([
      '| Transcript | Tokens | Removed | Facts lost | Checks |',
      '| --- | ---: | ---: | ---: | --- |',
    ]);
    expect(impactRow(factsImpact('a.jsonl', 0, 3), cols)).toBe(
      '| a.jsonl | 30 → 30 (±0) | 1 → 1 | 0 → 3 | — |',
    );
    expect(impactRow(factsImpact('a.jsonl', undefined, 3), cols)).toBe(
      '| a.jsonl | 30 → 30 (±0) | 1 → 1 | — → 3 | — |',
    );
    const impacts = [
      factsImpact('a.jsonl', 0, 3),
      factsImpact('b.jsonl', 1, 1),
      factsImpact('c.jsonl', undefined, undefined),
    ];
    expect(impactTotals(impacts, cols)).toBe(
      '| **Total: 3 transcripts, 1 changed (2 unchanged not listed)** | **90 → 90 (±0)** | **3 → 3** | **1 → 4** | **0 newly failing, 0 fixed** |',
    );
    expect(impactTotals([factsImpact('a.jsonl', undefined, 2)], cols)).toContain(' | **— → 2** | ');
    expect(impactFullHead(cols)[0]).toBe(
      '| Transcript | Status | Tokens | Kept | Masked | Removed by reason | Newly failing | Fixed | Facts lost |',
    );
    expect(impactFullRow(factsImpact('a.jsonl', 0, 3), cols)).toBe(
      '| a.jsonl | ok → ok | 30 → 30 | 2 → 2 | 0 → 0 | budget 1 → 1 | — | — | 0 → 3 |',
    );
  });

  it('puts facts lost after the prompt cache column', () => {
    const plain = factsImpact('a.jsonl', 0, 3);
    const cache = { mean_share: 0.977, min_share: 0.432 };
    const i: PolicyImpact = {
      ...plain,
      base: { ...plain.base, cache_prefix: cache },
      head: { ...plain.head, cache_prefix: cache },
    };
    const cols = impactColumns([i]);
    expect(cols).toEqual({ cache: true, facts: true });
    expect(impactHead(cols)[0]).toBe(
      '| Transcript | Tokens | Removed | Prompt cache prefix | Facts lost | Checks |',
    );
    expect(impactRow(i, cols)).toBe(
      '| a.jsonl | 30 → 30 (±0) | 1 → 1 | mean 97.7% → 97.7%, lowest 43.2% → 43.2% | 0 → 3 | — |',
    );
    expect(impactTotals([i], cols)).toBe(
      '| **Total: 1 transcript, 1 changed** | **30 → 30 (±0)** | **1 → 1** |  | **0 → 3** | **0 newly failing, 0 fixed** |',
    );
    expect(impactFullRow(i, cols).endsWith(' | mean 97.7% → 97.7%, lowest 43.2% → 43.2% | 0 → 3 |')).toBe(
      true,
    );
  });

  it('lists in the job summary a transcript whose only change is the facts it loses', () => {
    const review = buildJobSummary(
      checkReport([outcome('a.jsonl', 'pass', { impact: factsImpact('a.jsonl', 0, 3) })]),
    );
    expect(review).toContain(
      [
        '### Policy impact (base → head)',
        '',
        '| Transcript | Tokens | Removed | Facts lost | Checks |',
        '| --- | ---: | ---: | ---: | --- |',
        '| a.jsonl | 30 → 30 (±0) | 1 → 1 | 0 → 3 | — |',
        '| **Total: 1 transcript, 1 changed** | **30 → 30 (±0)** | **1 → 1** | **0 → 3** | **0 newly failing, 0 fixed** |',
      ].join('\n'),
    );
    expect(review).toContain(
      '| a.jsonl | ok → ok | 30 → 30 | 2 → 2 | 0 → 0 | budget 1 → 1 | — | — | 0 → 3 |',
    );
  });

  it('has no Facts lost column when neither policy ran the check', () => {
    const review = buildJobSummary(
      checkReport([outcome('a.jsonl', 'pass', { impact: impactOf('a.jsonl') })]),
    );
    expect(review).toContain('### Policy impact (base → head)');
    expect(review).not.toContain('Facts lost');
  });
});

describe('the retention figures of a transcript', () => {
  it('are a line of a failing transcript’s block', () => {
    const failing = { ...violationsOutcome('t/a.jsonl'), retention: RETENTION };
    const report = checkReport([failing]);
    const body = outcomeBody(failing, report, { unified: false, fullReport: 'report-path' });
    expect(body).toContain('- retention: 114 of 117 tool calls replayed, 241 facts, 3 lost');
    expect(blocks(buildJobSummary(report)).get('t/a.jsonl')).toContain(
      '\n- retention: 114 of 117 tool calls replayed, 241 facts, 3 lost\n',
    );
  });

  it('are left out when no call was replayed', () => {
    const failing = { ...violationsOutcome('t/a.jsonl'), retention: { ...RETENTION, calls: 2, replayed: 0 } };
    const body = outcomeBody(failing, checkReport([failing]), { unified: false, fullReport: 'report-path' });
    expect(body.join('\n')).not.toContain('retention:');
  });

  it('are a note of a pass with findings, not of a clean pass', () => {
    const warned = {
      ...passOutcome('t/w.jsonl'),
      violations: [{ check: 'retention', severity: 'warning', id: 'm10', line: 55, message: 'lost it' }],
      retention: RETENTION,
    };
    expect(passRow(warned)).toMatch(/\| retention: 114 of 117 tool calls replayed, 241 facts, 3 lost \|$/);
    expect(passRow({ ...passOutcome('t/c.jsonl'), retention: { ...RETENTION, lost: 0 } })).toMatch(
      /\| — \|$/,
    );
  });
});
