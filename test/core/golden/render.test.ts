import { describe, expect, it } from 'vitest';
import type { CheckReport, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../../src/core/golden/diff.js';
import { buildGolden } from '../../../src/core/golden/golden.js';
import { policyImpact } from '../../../src/core/golden/impact.js';
import { escapeMarkdown, renderGithub, renderMarkdown, renderText } from '../../../src/core/golden/render.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { checkReport, checkResult, handReport, item, ledger, outcome, policy, TOKENIZER } from './support.js';

function driftOutcome(transcript: string): TranscriptOutcome {
  const meta = { transcript, policy: policy(), tokenizer: TOKENIZER };
  const before = buildGolden(handReport(), meta);
  const after = buildGolden(
    handReport({
      budget: { limit: 100, used: 10 },
      context: [item('m1', 1, 'hello there', 10)],
      ledger: [
        ledger('m1', 1, 'kept', 'in_budget', 10),
        ledger('m2', 2, 'dropped', 'budget', 20),
        ledger('m3', 3, 'dropped', 'budget', 90),
      ],
      checks: [checkResult('budget', 0), checkResult('pii', 1)],
    }),
    { ...meta, policy: policy({ budget: 10 }) },
  );
  const golden = `golden/${transcript}.golden.json`;
  return outcome(transcript, 'drift', {
    budget: { limit: 100, used: 10 },
    diff: diffGoldens(before, after),
    unified: unifiedGoldenDiff(golden, stableStringify(before), stableStringify(after)),
  });
}

function sampleReport(ci = false): CheckReport {
  return checkReport(
    [
      outcome('t/pass.jsonl'),
      driftOutcome('t/drift.jsonl'),
      outcome('t/new.jsonl', 'new', { written: !ci }),
      outcome('t/pii.jsonl', 'violations', {
        violations: [
          { check: 'pii', severity: 'error', id: 'm4', line: 7, message: 'an email address is in the context' },
          { check: 'order', severity: 'warning', id: 'm5', line: 9, message: 'out of chronological order' },
        ],
      }),
      outcome('t/broken.jsonl', 'error', {
        status: undefined,
        budget: undefined,
        diagnostics: [
          {
            severity: 'error',
            code: 'json-syntax',
            file: 't/broken.jsonl',
            line: 3,
            column: 5,
            message: 'Unexpected character.',
            hint: 'Fix the JSON.',
          },
        ],
      }),
    ],
    { goldenFiles: ['golden/t/pass.jsonl.golden.json', 'golden/t/drift.jsonl.golden.json', 'golden/t/gone.jsonl.golden.json'], ci },
  );
}

describe('renderText', () => {
  const text = renderText(sampleReport());
  const lines = text.split('\n');

  it('gives one headline per transcript, what broke first: violations, drift, errors, new, passes', () => {
    const heads = lines.filter((l) => /^(PASS|DRIFT|NEW|VIOLATIONS|ERROR) /.test(l));
    expect(heads.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'VIOLATIONS t/pii.jsonl',
      'DRIFT t/drift.jsonl',
      'ERROR t/broken.jsonl',
      'NEW t/new.jsonl',
      'PASS t/pass.jsonl',
    ]);
    expect(text).toContain('t/pass.jsonl  30/100 tokens');
    expect(text).toContain('golden written: golden/t/new.jsonl.golden.json');
  });

  it('shows a drift as the semantic diff first and the unified diff second', () => {
    const semantic = lines.indexOf('  semantic diff of golden/t/drift.jsonl.golden.json:');
    const unified = lines.indexOf('  unified diff (golden → actual):');
    expect(semantic).toBeGreaterThan(0);
    expect(unified).toBeGreaterThan(semantic);
    const between = lines.slice(semantic + 1, unified).map((l) => l.trim());
    expect(between).toEqual([
      'cause: policy changed',
      'tokens: 30 → 10 (-20)',
      'm2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens)',
      'check pii: ok → failing (1 violation)',
    ]);
    expect(lines[unified + 1]).toBe('--- a/golden/t/drift.jsonl.golden.json\tgolden');
  });

  it('lists violations and diagnostics at their file and line', () => {
    expect(text).toContain('  t/pii.jsonl:7: error[pii] m4: an email address is in the context');
    expect(text).toContain('  t/pii.jsonl:9: warning[order] m5: out of chronological order');
    expect(text).toContain('  t/broken.jsonl:3:5: error[json-syntax]: Unexpected character. Hint: Fix the JSON.');
  });

  it('ends with the obsolete goldens and the summary line', () => {
    expect(lines.slice(-4)).toEqual([
      'Obsolete goldens (no transcript checked; `update --prune-obsolete` removes them):',
      '  golden/t/gone.jsonl.golden.json',
      '5 transcripts checked: 1 pass, 1 drift, 1 new, 1 with violations, 1 error; 1 obsolete golden.',
      '',
    ]);
  });

  it('says in CI that a missing golden was not written, and in a shard that obsolete is left to merge', () => {
    expect(renderText(sampleReport(true))).toContain('no golden (CI: nothing is written');
    const shard = checkReport([outcome('a.jsonl')], { shard: { index: 1, total: 2 } });
    expect(renderText(shard)).toContain('(shard 1/2)');
    expect(renderText(shard)).toContain('obsolete goldens are listed by `merge` in a sharded run');
  });

  it('shows a policy impact when the run reviews a policy change', () => {
    const impact = policyImpact('a.jsonl', handReport(), handReport({ budget: { limit: 100, used: 10 }, checks: [checkResult('budget', 2)] }));
    const out = renderText(checkReport([outcome('a.jsonl', 'pass', { impact })]));
    expect(out).toContain('  policy impact (base → head):');
    expect(out).toContain('    tokens: 30 → 10 (-20)');
    expect(out).toContain('    newly failing: budget');
  });
});

describe('renderMarkdown', () => {
  it('escapes every markup character so a cell stays one cell and no HTML gets through', () => {
    expect(escapeMarkdown('m1|<b>`x`&*_[y]~\\\nz')).toBe(
      'm1&#124;&lt;b&gt;&#96;x&#96;&amp;&#42;&#95;&#91;y&#93;&#126;&#92; z',
    );
  });

  it('keeps the table intact for a transcript named like m1|<b>', () => {
    const md = renderMarkdown(checkReport([outcome('m1|<b>`x`.jsonl', 'violations', { violations: [] }), outcome('ok.jsonl')]));
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    expect(rows).toHaveLength(4);
    for (const row of rows) expect(row.split('|')).toHaveLength(6);
    expect(md).not.toContain('<b>');
    expect(md).toContain('m1&#124;&lt;b&gt;&#96;x&#96;.jsonl');
  });

  it('has a table row per transcript with outcome, tokens and violations', () => {
    const md = renderMarkdown(sampleReport());
    expect(md).toContain('| Transcript | Outcome | Tokens (used / budget) | Violations |');
    expect(md).toContain('| t/pass.jsonl | ✅ pass | 30 / 100 | 0 |');
    expect(md).toContain('| t/pii.jsonl | ❌ violations | 30 / 100 | 1 (+1 warning) |');
    expect(md).toContain('| t/broken.jsonl | ⚠️ error | — | 0 |');
  });

  it('puts a collapsed section under the table for each failing transcript only', () => {
    const md = renderMarkdown(sampleReport());
    const summaries = [...md.matchAll(/<details><summary>(.*?)<\/summary>/g)].map((m) => m[1]);
    expect(summaries).toEqual(['t/pii.jsonl: ❌ violations', 't/drift.jsonl: ❌ drift', 't/broken.jsonl: ⚠️ error']);
    expect(md).toContain('- m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)');
    expect(md).toMatch(/```diff\n--- a\/golden\/t\/drift\.jsonl\.golden\.json\tgolden\n/);
  });

  it('marks a missing golden in CI as a failure with its remedy', () => {
    const md = renderMarkdown(sampleReport(true));
    expect(md).toContain('| t/new.jsonl | ❌ missing golden |');
    expect(md).toContain('<details><summary>t/new.jsonl: ❌ missing golden</summary>');
    expect(md).toContain('- no golden: in CI nothing is written; run `context-stability update` locally');
  });

  it('fences a diff that itself holds backticks with a longer fence', () => {
    const drift = { ...driftOutcome('a.jsonl'), unified: '--- a\n+++ b\n@@ -1 +1 @@\n-```\n+````\n' };
    const md = renderMarkdown(checkReport([drift]));
    expect(md).toContain('`````diff\n--- a');
    expect(md).toContain('+````\n`````');
  });

  it('adds a side-by-side policy impact table', () => {
    const impact = policyImpact('a.jsonl', handReport(), handReport({ budget: { limit: 100, used: 10 }, checks: [checkResult('budget', 2)] }));
    const md = renderMarkdown(checkReport([outcome('a.jsonl', 'pass', { impact })]));
    expect(md).toContain('### Policy impact (base → head)');
    expect(md).toContain('| a.jsonl | ok → ok | 30 → 10 | 2 → 2 | 0 → 0 | budget 1 → 1 | budget | — |');
  });
});

describe('renderGithub', () => {
  it('annotates each violation at its line, errors and warnings by severity', () => {
    const out = renderGithub(sampleReport()).split('\n');
    expect(out).toContain('::error file=t/pii.jsonl,line=7,title=context-stability pii%3A m4::an email address is in the context');
    expect(out).toContain('::warning file=t/pii.jsonl,line=9,title=context-stability order%3A m5::out of chronological order');
    expect(out).toContain('::error file=t/broken.jsonl,line=3,col=5,title=context-stability%3A json-syntax::Unexpected character. Fix the JSON.');
  });

  it('annotates a session FILE#N of a multi-session file at FILE, naming the session in the title', () => {
    const report = checkReport(
      [
        outcome('t/history.md#2', 'violations', {
          violations: [{ check: 'task', severity: 'error', id: 'L9', line: 9, message: 'the task is gone' }],
        }),
      ],
      { goldenFiles: [], ci: false },
    );
    expect(renderGithub(report).split('\n')).toContain(
      '::error file=t/history.md,line=9,title=session 2%3A context-stability task%3A L9::the task is gone',
    );
  });

  it('annotates each drifted artifact with its fate change and the cause', () => {
    const out = renderGithub(sampleReport()).split('\n');
    expect(out).toContain(
      '::error file=t/drift.jsonl,line=2,title=Golden drift%3A m2::m2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens). Cause: policy changed. If the change is intended, run `context-stability update` and commit the golden.',
    );
  });

  it('notices a written golden, fails a missing one in CI, and warns about obsolete goldens', () => {
    expect(renderGithub(sampleReport())).toContain('::notice file=t/new.jsonl,title=New golden::Wrote golden/t/new.jsonl.golden.json.');
    expect(renderGithub(sampleReport(true))).toMatch(/^::error file=t\/new\.jsonl,title=Missing golden::No golden at/m);
    expect(renderGithub(sampleReport())).toMatch(/^::warning file=golden\/t\/gone\.jsonl\.golden\.json,title=Obsolete golden::/m);
  });

  it('escapes %, CR, LF, : and , so no name or message can end a command or start another', () => {
    const evil = outcome('a::b,c%d\nx.jsonl', 'violations', {
      violations: [
        { check: 'pii', severity: 'error', id: 'id::1,2', line: 4, message: '100% bad\r\n::add-mask::secret' },
      ],
    });
    const out = renderGithub(checkReport([evil]));
    const lines = out.split('\n');
    expect(lines[0]).toBe(
      '::error file=a%3A%3Ab%2Cc%25d%0Ax.jsonl,line=4,title=context-stability pii%3A id%3A%3A1%2C2::100%25 bad%0D%0A::add-mask::secret',
    );
    expect(lines.filter((l) => l.startsWith('::'))).toHaveLength(1);
  });

  it('annotates a drift with no artifact change once, naming what changed', () => {
    const meta = { transcript: 'a.jsonl', policy: policy(), tokenizer: TOKENIZER };
    const before = buildGolden(handReport(), meta);
    const after = buildGolden(handReport(), { ...meta, tokenizer: { name: 'gpt-tokenizer', version: '4.1.0' } });
    const out = renderGithub(checkReport([outcome('a.jsonl', 'drift', { diff: diffGoldens(before, after) })]));
    expect(out.split('\n')[0]).toBe(
      '::error file=a.jsonl,title=Golden drift::The golden differs: tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0; tokens 30 → 30. If the change is intended, run `context-stability update` and commit the golden.',
    );
  });
});
