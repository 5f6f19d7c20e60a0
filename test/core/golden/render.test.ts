import { describe, expect, it } from 'vitest';
import type { CheckReport, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../../src/core/golden/diff.js';
import { buildGolden } from '../../../src/core/golden/golden.js';
import { policyImpact } from '../../../src/core/golden/impact.js';
import { escapeMarkdown, renderGithub, renderText } from '../../../src/core/golden/render.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { renderMarkdownReport } from '../../../src/github/summary.js';
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

  it('gives one headline per transcript that needs a look, what broke first, and counts clean passes', () => {
    const heads = lines.filter((l) => /^(PASS|DRIFT|NEW|VIOLATIONS|ERROR) /.test(l));
    expect(heads.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'VIOLATIONS t/pii.jsonl',
      'DRIFT t/drift.jsonl',
      'ERROR t/broken.jsonl',
      'NEW t/new.jsonl',
    ]);
    expect(text).not.toContain('t/pass.jsonl');
    expect(text).toContain('\n1 clean pass not listed (--verbose lists every transcript).\n');
    expect(text).toContain('golden written: golden/t/new.jsonl.golden.json');
  });

  it('lists the clean passes last with verbose, and then says nothing is left out', () => {
    const verbose = renderText(sampleReport(false), { verbose: true });
    const heads = verbose.split('\n').filter((l) => /^(PASS|DRIFT|NEW|VIOLATIONS|ERROR) /.test(l));
    expect(heads.map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual([
      'VIOLATIONS t/pii.jsonl',
      'DRIFT t/drift.jsonl',
      'ERROR t/broken.jsonl',
      'NEW t/new.jsonl',
      'PASS t/pass.jsonl',
    ]);
    expect(verbose).toContain('t/pass.jsonl  30/100 tokens');
    expect(verbose).not.toContain('not listed');
  });

  it('lists a pass that has something to tell: a warning, a note, a policy impact', () => {
    const warned = outcome('w.jsonl', 'pass', {
      violations: [{ check: 'order', severity: 'warning', id: 'm5', line: 9, message: 'out of order' }],
    });
    const out = renderText(checkReport([warned, outcome('a.jsonl', 'pass'), outcome('b.jsonl', 'pass')]));
    expect(out).toContain('PASS       w.jsonl');
    expect(out).toContain('  w.jsonl:9: warning[order] m5: out of order');
    expect(out).not.toMatch(/PASS +[ab]\.jsonl/);
    expect(out).toContain('\n2 clean passes not listed (--verbose lists every transcript).\n');
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
      '5 transcripts checked: 1 with violations, 1 drifted, 1 new, 1 error, 1 passed; 1 obsolete golden.',
      '',
    ]);
  });

  it('puts the totals on the second line, in the order of what broke first', () => {
    expect(lines[1]).toBe('1 with violations · 1 drifted · 1 new · 1 error · 1 passed');
  });

  it('says under a drift what changed first and the command that accepts it, before the semantic diff', () => {
    const first = lines.indexOf('  first change: m2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens)');
    const accept = lines.indexOf('  accept the change: npx context-stability update t/drift.jsonl');
    const semantic = lines.indexOf('  semantic diff of golden/t/drift.jsonl.golden.json:');
    expect(first).toBeGreaterThan(lines.findIndex((l) => l.startsWith('DRIFT ')));
    expect(accept).toBeGreaterThan(first);
    expect(semantic).toBeGreaterThan(accept);
    // Nothing to accept for a pass, a violation, an unreadable transcript or a golden this run wrote.
    expect(text).not.toContain('write the golden: npx');
    expect(text.match(/npx context-stability update/g)).toHaveLength(1);
  });

  it('says what fills the budget for what needs a look, not for a clean pass', () => {
    const picture = {
      runs: [{ fate: 'kept' as const, count: 1, line: 1, id: 'm1', tokens: 30 }],
      by_kind: { tool: 30 },
      consumers: [{ id: 't7', kind: 'tool', line: 12, tokens: 3_120, percent: 39 }],
    };
    const out = renderText(
      checkReport([
        { ...driftOutcome('a.jsonl'), picture },
        outcome('b.jsonl', 'pass', { picture }),
        outcome('c.jsonl', 'pass', {
          picture,
          violations: [{ check: 'order', severity: 'warning', id: 'm5', line: 9, message: 'out of order' }],
        }),
      ]),
      { verbose: true },
    );
    const fills = '  what fills the budget: t7 (tool, line 12) 3,120 tokens, 39% of the budget';
    const blocks = out.split(/\n(?=[A-Z]+ +[abc]\.jsonl)/);
    expect(blocks.find((b) => b.startsWith('DRIFT'))).toContain(fills);
    expect(blocks.find((b) => b.includes(' c.jsonl'))).toContain(fills);
    expect(blocks.find((b) => b.includes(' b.jsonl'))).not.toContain('what fills the budget');
  });

  it('passes a golden that differs only in metadata, with a note that update refreshes it', () => {
    const out = renderText(
      checkReport([outcome('a.jsonl', 'pass', { notes: ['policy changed, budget limit; this context is unchanged'] })]),
    );
    expect(out.split('\n').slice(2, 4)).toEqual([
      'PASS       a.jsonl  30/100 tokens',
      '  note: policy changed, budget limit; this context is unchanged (`update` refreshes the golden)',
    ]);
    expect(out).not.toContain('accept the change');
  });

  it('names the run a session of a multi-run file stands for (issue 31: an OpenHands instance id)', () => {
    const out = renderText(
      checkReport([outcome('output.jsonl#2', 'pass', { session_label: 'django__django-11099' })]),
      { verbose: true },
    );
    expect(out.split('\n')[2]).toBe('PASS       output.jsonl#2 (django__django-11099)  30/100 tokens');
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

// `check --format markdown` prints the job summary's layout (renderMarkdownReport), whole.
describe('check --format markdown', () => {
  it('escapes every markup character so a cell stays one cell and no HTML gets through', () => {
    expect(escapeMarkdown('m1|<b>`x`&*_[y]~\\\nz')).toBe(
      'm1&#124;&lt;b&gt;&#96;x&#96;&amp;&#42;&#95;&#91;y&#93;&#126;&#92; z',
    );
  });

  it('keeps the tables intact and lets no HTML through for a transcript named like m1|<b>', () => {
    const name = 'm1|<b>`x`.jsonl';
    const impact = policyImpact(`2${name}`, handReport(), handReport({ budget: { limit: 100, used: 10 }, checks: [checkResult('budget', 2)] }));
    const md = renderMarkdownReport(
      checkReport([
        outcome(name, 'violations', { violations: [{ check: 'pii', severity: 'error', id: 'x|<i>', line: 1, message: 'a | b <img>' }] }),
        outcome(`2${name}`, 'pass', { impact, notes: ['policy changed | <b>'] }),
        outcome('ok.jsonl'),
      ]),
    );
    const rows = md.split('\n').filter((l) => l.startsWith('| '));
    // The passes table (4 columns), the narrow impact table (4) and the full one (8).
    for (const row of rows) expect([5, 9]).toContain(row.match(/\|/g)?.length);
    expect(rows.filter((r) => r.includes('2m1&#124;&lt;b&gt;&#96;x&#96;.jsonl'))).toHaveLength(3);
    expect(md).not.toMatch(/<b>|<i>|<img/);
    expect(md).toContain('**m1&#124;&lt;b&gt;&#96;x&#96;.jsonl** — ❌ violations');
    expect(md).toContain('- line 1: error&#91;pii&#93; x&#124;&lt;i&gt;: a &#124; b &lt;img&gt;');
  });

  it('leads with what broke: each transcript under its group, with its outcome and tokens; passes in a table', () => {
    const md = renderMarkdownReport(sampleReport());
    const order = [
      '### ❌ Violations (1)',
      '**t/pii.jsonl** — ❌ violations · 30 / 100 tokens',
      '### ❌ Drift (1)',
      '**t/drift.jsonl** — ❌ drift · 10 / 100 tokens',
      '### ⚠️ Could not be checked (1)',
      '**t/broken.jsonl** — ⚠️ error',
      '### 🆕 New (1)',
      '**t/new.jsonl** — 🆕 new · 30 / 100 tokens',
      '| t/pass.jsonl | 30 / 100 | — | — |',
    ];
    const lines = md.split('\n');
    const at = order.map((line) => lines.indexOf(line));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(lines[2]).toBe('**⚠️ Incomplete: 1 transcript could not be checked** — 1 with violations · 1 drifted · 1 new · 1 error · 1 passed');
    expect(md).toContain('- line 7: error&#91;pii&#93; m4: an email address is in the context');
    expect(md).toContain('- t/broken.jsonl:3:5: error&#91;json-syntax&#93;: Unexpected character. Hint: Fix the JSON.');
  });

  it('collapses the semantic and unified diff of a failing transcript, and lists a pass only in the collapsed table', () => {
    const md = renderMarkdownReport(sampleReport());
    const summaries = [...md.matchAll(/<details><summary>(.*?)<\/summary>/g)].map((m) => m[1]);
    expect(summaries).toEqual(['Semantic and unified diff', '✅ 1 transcript passes']);
    const details = md.slice(md.indexOf('<details><summary>Semantic and unified diff'), md.indexOf('</details>'));
    expect(details).toContain('- m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)');
    expect(details).toMatch(/```diff\n--- a\/golden\/t\/drift\.jsonl\.golden\.json\tgolden\n/);
    expect(md.match(/t\/pass\.jsonl/g)).toHaveLength(1);
  });

  it('marks a missing golden in CI as a failure with its remedy', () => {
    const md = renderMarkdownReport(sampleReport(true));
    expect(md).toContain('**t/new.jsonl** — ❌ missing golden · 30 / 100 tokens');
    expect(md).toContain('- no golden: in CI nothing is written; create it locally and commit it:');
    expect(md).toContain('- write the golden: <code>npx context-stability update t/new.jsonl</code>');
    expect(md).toContain('**⚠️ Incomplete: 1 transcript could not be checked**');
    const ci = renderMarkdownReport(checkReport([outcome('t/new.jsonl', 'new', { written: false })], { ci: true }));
    expect(ci).toContain('**❌ 1 of 1 transcript fails**');
  });

  it('fences a diff that itself holds backticks with a longer fence', () => {
    const drift = { ...driftOutcome('a.jsonl'), unified: '--- a\n+++ b\n@@ -1 +1 @@\n-```\n+````\n' };
    const md = renderMarkdownReport(checkReport([drift]));
    expect(md).toContain('`````diff\n--- a');
    expect(md).toContain('+````\n`````');
  });

  it('points a long unified diff at the JSON report of the CLI (--report)', () => {
    const long = Array.from({ length: 400 }, (_, i) => `+line ${i}`).join('\n');
    const md = renderMarkdownReport(checkReport([{ ...driftOutcome('a.jsonl'), unified: `${long}\n` }]));
    expect(md).toContain('… 100 more lines in the JSON report (--report)');
    expect(md).not.toContain('+line 300');
  });

  it('adds a narrow policy impact table with totals, and the full table collapsed', () => {
    const impact = policyImpact('a.jsonl', handReport(), handReport({ budget: { limit: 100, used: 10 }, checks: [checkResult('budget', 2)] }));
    const md = renderMarkdownReport(checkReport([outcome('a.jsonl', 'pass', { impact })]));
    expect(md).toContain('### Policy impact (base → head)');
    expect(md).toContain('| a.jsonl | 30 → 10 (-20) | 1 → 1 | ❌ budget |');
    expect(md).toMatch(/^\| \*\*Total: 1 transcript, 1 changed[^|]*\*\* \| \*\*30 → 10 \(-20\)\*\* \| \*\*1 → 1\*\* \| \*\*1 newly failing, 0 fixed\*\* \|$/m);
    const full = md.slice(md.indexOf('<details><summary>Policy impact in detail'));
    expect(full).toContain('| a.jsonl | ok → ok | 30 → 10 | 2 → 2 | 0 → 0 | budget 1 → 1 | budget | — |');
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

  it('annotates a drift once, at its first changed artifact, with what changed, the cause and the command that accepts it', () => {
    const out = renderGithub(sampleReport()).split('\n');
    expect(out.filter((l) => l.includes('Golden drift'))).toEqual([
      '::error file=t/drift.jsonl,line=2,title=Golden drift%3A m2::First change: m2 (line 2): kept (in_budget, 20 tokens) → dropped (budget, 0 tokens). ' +
        'Artifacts: 1 changed fate. Tokens 30 → 10. check pii: ok → failing (1 violation). Cause: policy changed. ' +
        'If the change is intended, accept it: npx context-stability update t/drift.jsonl',
    ]);
  });

  it('annotates a drift of many artifacts once, at the first of them', () => {
    const ids = Array.from({ length: 12 }, (_, i) => `m${i + 1}`);
    const meta = { transcript: 'a.jsonl', policy: policy(), tokenizer: TOKENIZER };
    const keptAll = ids.map((id, i) => ledger(id, i + 5, 'kept', 'in_budget', 1));
    const before = buildGolden(handReport({ budget: { limit: 100, used: 12 }, context: ids.map((id, i) => item(id, i + 5, id, 1)), ledger: keptAll }), meta);
    const after = buildGolden(
      handReport({ budget: { limit: 100, used: 0 }, context: [], ledger: ids.map((id, i) => ledger(id, i + 5, 'dropped', 'budget', 1)) }),
      meta,
    );
    const out = renderGithub(checkReport([outcome('a.jsonl', 'drift', { diff: diffGoldens(before, after) })]));
    const drift = out.split('\n').filter((l) => l.startsWith('::'));
    expect(drift).toHaveLength(1);
    expect(drift[0]).toMatch(/^::error file=a\.jsonl,line=5,title=Golden drift%3A m1::First change: m1 \(line 5\).* Artifacts: 12 changed fate\./);
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

  it('annotates a drift with no artifact change once, at line 1, naming what changed', () => {
    const meta = { transcript: 'a.jsonl', policy: policy(), tokenizer: TOKENIZER };
    const before = buildGolden(handReport(), meta);
    const after = buildGolden(handReport({ checks: [checkResult('budget', 0), checkResult('pii', 1)] }), {
      ...meta,
      tokenizer: { name: 'gpt-tokenizer', version: '4.1.0' },
    });
    const out = renderGithub(checkReport([outcome('a.jsonl', 'drift', { diff: diffGoldens(before, after) })]));
    expect(out.split('\n').filter((l) => l.startsWith('::'))).toEqual([
      '::error file=a.jsonl,line=1,title=Golden drift::Tokens 30 → 30. check pii: ok → failing (1 violation). ' +
        'Cause: tokenizer changed: gpt-tokenizer 4.0.0 → 4.1.0. If the change is intended, accept it: npx context-stability update a.jsonl',
    ]);
  });

  it('annotates nothing for a pass whose golden differs only in metadata', () => {
    const out = renderGithub(
      checkReport([outcome('a.jsonl', 'pass', { notes: ['policy changed, budget limit; this context is unchanged'] })]),
    );
    expect(out).toBe('1 transcript checked: 0 with violations, 0 drifted, 0 new, 0 errors, 1 passed; 0 obsolete goldens.\n');
  });

  it('annotates a PII violation before any drift, however many transcripts drifted', () => {
    const drifts = Array.from({ length: 12 }, (_, i) => ({ ...driftOutcome(`t/d${String(i).padStart(2, '0')}.jsonl`) }));
    const pii = outcome('z/leak.jsonl', 'violations', {
      violations: [{ check: 'pii', severity: 'error', id: 'm9', line: 9, message: 'an email address is in the context' }],
    });
    const out = renderGithub(checkReport([...drifts, pii])).split('\n');
    expect(out[0]).toBe('::error file=z/leak.jsonl,line=9,title=context-stability pii%3A m9::an email address is in the context');
    expect(out.filter((l) => l.includes('title=Golden drift'))).toHaveLength(12);
  });
});
