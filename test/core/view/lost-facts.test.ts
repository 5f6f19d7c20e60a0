// The `retention` check on the viewer page: each violation on the row of the call that needed the
// fact, and the transcript's lost facts as a table (value, where needed, where first seen, cause).
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/core/golden/check-report.js';
import type { TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { GOLDEN_SCHEMA } from '../../../src/core/golden/golden.js';
import type { Golden } from '../../../src/core/golden/golden.js';
import { lostFactMessage } from '../../../src/core/retention/index.js';
import type { LostFact, RetentionReport } from '../../../src/core/retention/index.js';
import type { LedgerEntry } from '../../../src/core/stabilize/types.js';
import type { ViewDocument } from '../../../src/core/view/model.js';
import { renderViewHtml } from '../../../src/core/view/render-html.js';
import { lostFactsHtml } from '../../../src/core/view/retention-html.js';

function entry(id: string, line: number, action: LedgerEntry['action'], reason: string): LedgerEntry {
  const gone = action === 'dropped';
  return { id, stage: 'budget', action, reason, tokens_before: 20, tokens_after: gone ? 0 : 20, line };
}

/** The user gives the id at line 16, the lookup at line 20 goes, the call at line 55 needs it. */
function head(): Golden {
  return {
    schema: GOLDEN_SCHEMA,
    transcript: 't/retention.json',
    policy_hash: 'abc123',
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    status: 'ok',
    budget: { limit: 150, used: 40 },
    context: [
      { id: 'm0', kind: 'system', tokens: 20, content: 'You are an airline agent.', line: 3 },
      { id: 'm10', kind: 'assistant', tokens: 20, content: 'Cancelling.', line: 55 },
    ],
    ledger: [
      entry('m0', 3, 'kept', 'protected'),
      entry('m2', 16, 'dropped', 'budget'),
      entry('m3', 20, 'dropped', 'pair_unit'),
      entry('m10', 55, 'kept', 'in_budget'),
    ],
    summaries: [],
    checks: [],
  };
}

const FACT: LostFact = {
  value: '8JX2WO<b>&"',
  needed: { id: 'm10', line: 55, column: 5, tool: 'cancel_<i>' },
  source: { id: 'm2', line: 16, kind: 'user' },
  cause: 'dropped (pair_unit) at line 20 <script>',
};

const RETENTION: RetentionReport = { calls: 6, replayed: 6, facts: 9, lost: 1, lost_facts: [FACT] };

function page(retention: RetentionReport | undefined): string {
  const outcome: TranscriptOutcome = {
    transcript: 't/retention.json',
    golden: 'golden/t/retention.json.golden.json',
    outcome: 'pass',
    status: 'ok',
    budget: { limit: 150, used: 40 },
    violations: [
      {
        check: 'retention',
        severity: 'warning',
        id: 'm10',
        line: 55,
        column: 5,
        message: lostFactMessage(FACT),
      },
    ],
    ...(retention ? { retention } : {}),
  };
  const doc: ViewDocument = {
    tool: { name: 'context-stability', version: '1.2.3' },
    policy: { source: 'policy.yml', hash: 'abc123' },
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    replacement: '[REDACTED_{TYPE}]',
    ci: false,
    summary: summarize([outcome], []),
    transcripts: [{ outcome, head: head(), stored: null }],
  };
  return renderViewHtml(doc);
}

describe('retention violations on the viewer page', () => {
  const html = page(RETENTION);

  it('sit on the timeline row of the call that needed the fact, with a filter of their own', () => {
    const row = /<li class="artifact[^"]*"[^>]*data-id="m10"[^>]*>.*?<\/li>/.exec(html)?.[0] ?? '';
    expect(row).toContain('class="artifact fate-kept has-violations" id="t-1-a-4"');
    expect(row).toContain('data-checks="retention"');
    expect(row).toContain(
      '<ul class="a-violations"><li><span class="v-check">retention</span> warning: the cancel_&lt;i&gt; call at line 55 used `8JX2WO&lt;b&gt;&amp;&quot;`',
    );
    // Only the call's row: the row of the message it came from is not flagged.
    expect(html).not.toMatch(/data-id="m2" data-checks=/);
    expect(html).toContain('<input type="checkbox" data-filter-check="retention">');
  });

  it('list the lost facts with both places linked to their rows, every string escaped', () => {
    expect(html).toContain(
      '<div class="block lost-facts"><h3>Lost facts (1)</h3>' +
        '<p class="lost-figures">retention: 6 of 6 tool calls replayed, 9 facts, 1 lost</p>' +
        '<table class="grid"><thead><tr><th>value</th><th>needed at</th><th>first seen</th><th>cause</th></tr></thead>' +
        '<tbody><tr><td><code>8JX2WO&lt;b&gt;&amp;&quot;</code></td>' +
        '<td>line 55 <a href="#t-1-a-4"><code>m10</code></a> cancel_&lt;i&gt;</td>' +
        '<td>line 16 <a href="#t-1-a-2"><code>m2</code></a> user</td>' +
        '<td>dropped (pair_unit) at line 20 &lt;script&gt;</td></tr></tbody></table></div>',
    );
    expect(html).not.toContain('<b>');
    expect(html).not.toContain('<i>');
  });

  it('has no Lost facts block when nothing was lost or the check did not run', () => {
    expect(page({ ...RETENTION, lost: 0, lost_facts: [] })).not.toContain('Lost facts');
    expect(page(undefined)).not.toContain('Lost facts');
    expect(lostFactsHtml(undefined, (id) => id)).toBe('');
  });
});
