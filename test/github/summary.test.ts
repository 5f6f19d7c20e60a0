import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_LIMIT_BYTES, buildJobSummary } from '../../src/github/summary.js';
import {
  blocks,
  cells,
  checkReport,
  driftOutcome,
  headings,
  hugeReport,
  impactOf,
  impactReport,
  outcome,
  passOutcome,
  sampleReport,
  tableRows,
  violationsOutcome,
} from './support.js';
import { fcOptions } from '../support/fc.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The collapsed part of a transcript's block (semantic diff, and in the summary the unified diff). */
function collapsed(block: string): string {
  const start = block.indexOf('<details><summary>');
  return start < 0 ? '' : block.slice(start, block.indexOf('</details>', start));
}

/** The blocks that still show their collapsed details. */
function withDetails(md: string): string[] {
  return [...blocks(md).values()].filter((b) => b.includes('<details><summary>'));
}

/** Markdown structure that a cut must never break: balanced details and code fences. */
function expectWellFormed(md: string): void {
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  const fences = md.split('\n').filter((l) => /^`{3,}/.test(l));
  expect(fences.length % 2).toBe(0);
}

describe('buildJobSummary', () => {
  const md = buildJobSummary(sampleReport());
  const lines = md.split('\n');

  it('opens with the verdict and the totals, then the policy and tokenizer', () => {
    expect(lines.slice(0, 5)).toEqual([
      '## context-stability check',
      '',
      '**⚠️ Incomplete: 1 transcript could not be checked** — 1 with violations · 1 drifted · 1 new · 1 error · 1 passed',
      '',
      'Policy .github/context-policy.yml (0123456789abcdef) · tokenizer gpt-tokenizer 4.0.0',
    ]);
    const fail = buildJobSummary(checkReport([driftOutcome('a.jsonl'), passOutcome('b.jsonl')]));
    expect(fail.split('\n')[2]).toBe(
      '**❌ 1 of 2 transcripts fails** — 0 with violations · 1 drifted · 0 new · 0 errors · 1 passed',
    );
  });

  it('lists each transcript once, under its group, what broke first', () => {
    expect(headings(md)).toEqual([
      '### ❌ Violations (1)',
      '### ❌ Drift (1)',
      '### ⚠️ Could not be checked (1)',
      '### 🆕 New (1)',
      '### Obsolete goldens',
    ]);
    expect([...blocks(md).keys()]).toEqual(['t/pii.jsonl', 't/drift.jsonl', 't/broken.jsonl', 't/new.jsonl']);
    const titles = [...blocks(md).values()].map((b) => b.split('\n')[0]);
    expect(titles).toEqual([
      '**t/pii.jsonl** — ❌ violations · 30 / 100 tokens',
      '**t/drift.jsonl** — ❌ drift · 10 / 100 tokens',
      '**t/broken.jsonl** — ⚠️ error',
      '**t/new.jsonl** — 🆕 new · 30 / 100 tokens',
    ]);
    // The pass is a row of the collapsed table, and nowhere else.
    expect(tableRows(md).filter((r) => r.startsWith('| t/'))).toEqual([
      '| t/pass.jsonl | 30 / 100 | 🟩🟩🟥 | — |',
    ]);
    expect(md.match(/t\/pass\.jsonl/g)).toHaveLength(1);
  });

  it('shows what a reviewer needs of a failing transcript, with its semantic diff before the unified diff', () => {
    const drift = blocks(md).get('t/drift.jsonl') ?? '';
    const open = drift.slice(0, drift.indexOf('<details>'));
    expect(open).toContain('<code>▰▰▱▱▱▱▱▱▱▱▱▱▱▱▱▱▱▱▱▱</code> 10 / 100 tokens (10%) · user 10%');
    expect(open).toContain('🟩🟥🟥');
    expect(open).toContain(
      '- first change: m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)',
    );
    expect(open).toContain('- what fills the budget: m1 (user, line 1) 10 tokens, 10% of the budget');
    expect(open).toContain('- accept the change: <code>npx context-stability update t/drift.jsonl</code>');
    const details = collapsed(drift);
    expect(details).toContain('- cause: policy changed');
    expect(details).toContain('- tokens: 30 → 10 (-20)');
    expect(details).toContain('- m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)');
    expect(details).toContain('- check pii: ok → failing (1 violation)');
    expect(details.indexOf('- tokens:')).toBeLessThan(details.indexOf('```diff'));
    expect(details).toMatch(/```diff\n--- a\/golden\/t\/drift\.jsonl\.golden\.json/);
    expect(blocks(md).get('t/pii.jsonl')).toContain(
      '- line 7: error&#91;pii&#93; m4: an email address is in the context',
    );
    expect(blocks(md).get('t/broken.jsonl')).toContain(
      '- t/broken.jsonl:3:5: error&#91;json-syntax&#93;: Unexpected character.',
    );
    expectWellFormed(md);
  });

  it('lists obsolete goldens and ends with the summary sentence', () => {
    expect(md).toContain('### Obsolete goldens');
    expect(md).toContain('- golden/t/gone.jsonl.golden.json');
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      '5 transcripts checked: 1 with violations, 1 drifted, 1 new, 1 error, 1 passed; 1 obsolete golden.',
    );
  });

  it('fails a missing golden in CI, and says how to write it', () => {
    const ci = buildJobSummary(sampleReport(true));
    const block = blocks(ci).get('t/new.jsonl') ?? '';
    expect(block.split('\n')[0]).toBe('**t/new.jsonl** — ❌ missing golden · 30 / 100 tokens');
    expect(block).toContain('- no golden: in CI nothing is written; create it locally and commit it:');
    expect(block).toContain('- write the golden: <code>npx context-stability update t/new.jsonl</code>');
    const only = buildJobSummary(
      checkReport([outcome('t/new.jsonl', 'new', { written: false })], { ci: true }),
    );
    expect(only).toContain('**❌ 1 of 1 transcript fails**');
  });

  it('says all is well when nothing fails, with the passes collapsed and no failing section', () => {
    const ok = buildJobSummary(checkReport([passOutcome('a.jsonl'), passOutcome('b.jsonl')]));
    expect(ok.split('\n')[2]).toBe(
      '**✅ No transcript fails** — 0 with violations · 0 drifted · 0 new · 0 errors · 2 passed',
    );
    expect(headings(ok)).toEqual([]);
    expect(ok).toContain('<details><summary>✅ 2 transcripts pass</summary>');
    expect(ok).not.toContain('Policy impact');
    expect(ok).not.toContain('npx context-stability update');
  });

  it('shows the policy impact narrow, with a totals row, and the full table collapsed', () => {
    const review = buildJobSummary(impactReport());
    expect(review).toContain('base policy git-ref:origin/main:.github/context-policy.yml (fedcba9876543210)');
    expect(review).toContain('### Policy impact (base → head)');
    const narrow = review.slice(
      review.indexOf('### Policy impact'),
      review.indexOf('<details><summary>Policy impact'),
    );
    const rows = tableRows(narrow);
    for (const row of rows) expect(cells(row).length).toBeLessThanOrEqual(4);
    expect(rows[0]).toBe('| Transcript | Tokens | Removed | Checks |');
    expect(rows).toContain('| a.jsonl | 30 → 10 (-20) | 1 → 2 | ❌ budget |');
    expect(rows.at(-1)).toBe(
      '| **Total: 1 transcript, 1 changed** | **30 → 10 (-20)** | **1 → 2** | **1 newly failing, 0 fixed** |',
    );
    const full = review.slice(review.indexOf('<details><summary>Policy impact in detail'));
    expect(full.slice(0, full.indexOf('</details>'))).toContain(
      '| a.jsonl | ok → ok | 30 → 10 | 2 → 1 | 0 → 0 | budget 1 → 2 | budget | — |',
    );
  });

  it('says how many annotations GitHub did not show', () => {
    const hidden = buildJobSummary(sampleReport(), {
      hiddenAnnotations: { error: 12, warning: 1, notice: 0 },
    });
    expect(hidden).toContain(
      'GitHub shows at most 10 error, 10 warning and 10 notice annotations per step: 12 more errors, 1 more warning not annotated.',
    );
    expect(hidden).not.toMatch(/more notice/);
    const none = buildJobSummary(sampleReport(), { hiddenAnnotations: { error: 0, warning: 0, notice: 0 } });
    expect(none).not.toContain('GitHub shows at most');
  });

  it("shows the action's notices on top, escaped", () => {
    const out = buildJobSummary(sampleReport(), { notices: ['No pull request comment: <b>HTTP 403</b>'] });
    expect(out).toContain('> ⚠️ No pull request comment: &lt;b&gt;HTTP 403&lt;/b&gt;');
    expect(out.indexOf('> ⚠️')).toBeGreaterThan(out.indexOf('**⚠️ Incomplete'));
    expect(out.indexOf('> ⚠️')).toBeLessThan(out.indexOf('### '));
  });

  it('is deterministic', () => {
    expect(buildJobSummary(sampleReport())).toBe(md);
  });
});

describe('buildJobSummary leads with what broke', () => {
  // 6 passes (one whose golden differs only in metadata), 1 drift, 2 transcripts with violations.
  const leak = outcome('b/leak.jsonl', 'violations', {
    picture: passOutcome('x').picture,
    violations: [
      { check: 'pii', severity: 'error', id: 'm4', line: 7, message: 'an email address is in the context' },
    ],
  });
  const report = checkReport([
    passOutcome('a/p1.jsonl'),
    passOutcome('a/p2.jsonl', ['policy changed, budget limit; this context is unchanged']),
    outcome('a/task.jsonl', 'violations', {
      picture: passOutcome('x').picture,
      violations: [{ check: 'task', severity: 'error', id: 'u1', line: 2, message: 'the task is gone' }],
    }),
    passOutcome('c/p3.jsonl'),
    leak,
    driftOutcome('a/drift.jsonl'),
    passOutcome('d/p4.jsonl'),
    passOutcome('e/p5.jsonl'),
    passOutcome('f/p6.jsonl'),
  ]);
  const md = buildJobSummary(report);
  const at = (text: string): number => {
    const i = md.indexOf(text);
    expect(i, text).toBeGreaterThan(0);
    return i;
  };

  it('puts the verdict and totals first, then violations, then drift, then the passes', () => {
    expect(md.split('\n')[2]).toBe(
      '**❌ 3 of 9 transcripts fail** — 2 with violations · 1 drifted · 0 new · 0 errors · 6 passed',
    );
    const order = [
      at('**❌ 3 of 9'),
      at('### ❌ Violations (2)'),
      at('### ❌ Drift (1)'),
      at('<details><summary>✅ 6 transcripts pass'),
    ];
    expect([...order].sort((a, b) => a - b)).toEqual(order);
    // Within violations, the most severe check first (a leak before a lost task), then the path.
    expect([...blocks(md).keys()]).toEqual(['b/leak.jsonl', 'a/task.jsonl', 'a/drift.jsonl']);
  });

  it('keeps every pass inside the collapsed section, one row each with its map', () => {
    const start = at(
      '<details><summary>✅ 6 transcripts pass, 1 with a note (metadata changed; the context did not)</summary>',
    );
    const end = md.indexOf('</details>', start);
    const passes = md.slice(start, end);
    for (const name of ['a/p1', 'a/p2', 'c/p3', 'd/p4', 'e/p5', 'f/p6']) {
      expect(passes).toContain(`| ${name}.jsonl | 30 / 100 | 🟩🟩🟥 |`);
      expect(md.indexOf(name)).toBe(md.indexOf(name, start));
    }
    expect(tableRows(passes).filter((r) => /\| [a-f]\/p\d/.test(r))).toHaveLength(6);
  });

  it('shows the note of a pass whose golden differs only in metadata', () => {
    expect(tableRows(md)).toContain(
      '| a/p2.jsonl | 30 / 100 | 🟩🟩🟥 | policy changed, budget limit; this context is unchanged |',
    );
    expect(tableRows(md)).toContain('| a/p1.jsonl | 30 / 100 | 🟩🟩🟥 | — |');
  });

  it('gives each failing block its budget bar, session map and what fills the budget', () => {
    for (const [name, block] of blocks(md)) {
      expect(block, name).toMatch(/^<code>[▰▱]{20}<\/code> \d+ \/ 100 tokens \(\d+%\)/m);
      expect(block, name).toMatch(/^[🟩🟦🟨🟪🟥]+$/mu);
      expect(block, name).toContain(
        '<sub>one cell per artifact: 🟩 kept · 🟦 protected · 🟨 masked · 🟪 excerpt · 🟥 dropped</sub>',
      );
      expect(block, name).toContain('- what fills the budget: ');
    }
    const drift = blocks(md).get('a/drift.jsonl') ?? '';
    expect(drift).toContain('- first change: m2 (line 2)');
    expect(drift).toContain('- accept the change: <code>npx context-stability update a/drift.jsonl</code>');
    // A violation is fixed in the transcript or the policy: there is no change to accept.
    expect(blocks(md).get('b/leak.jsonl')).not.toContain('npx context-stability update');
    expect(blocks(md).get('b/leak.jsonl')).toContain(
      '- line 7: error&#91;pii&#93; m4: an email address is in the context',
    );
  });

  it('shows five violations of a transcript and collapses the rest', () => {
    const many = outcome('v.jsonl', 'violations', {
      violations: Array.from({ length: 8 }, (_, i) => ({
        check: 'pii',
        severity: 'error',
        id: `m${i}`,
        line: i + 1,
        message: `leak ${i}`,
      })),
    });
    const block = blocks(buildJobSummary(checkReport([many]))).get('v.jsonl') ?? '';
    const open = block.slice(0, block.indexOf('<details>'));
    expect(open.match(/^- line \d+: error/gm)).toHaveLength(5);
    expect(open).toContain('- … 3 more violations in the details below');
    expect(collapsed(block)).toContain('- line 8: error&#91;pii&#93; m7: leak 7');
  });
});

describe('buildJobSummary escaping', () => {
  const hostile = 't/<script>alert(1)</script>&x|y`z`::error::pwn##[group]@octocat*_[a](b)~.jsonl';
  const message = 'leak\n::error file=x::injected\n##[group]<img src=x onerror=alert(1)>|`@team';
  const passing = hostile.replace('.jsonl', '3.jsonl');
  const report = checkReport([
    violationsOutcome(hostile, message),
    driftOutcome(hostile.replace('.jsonl', '2.jsonl')),
    { ...passOutcome(passing, [`note ${message}`]), impact: impactOf(passing) },
    outcome('t/fine.jsonl'),
  ]);
  const md = buildJobSummary(report, { notices: ['::warning::not a command <i>'] });

  // Code blocks show their text verbatim: markup inside them is inert, and is not escaped.
  const prose = md.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');

  it('never lets markup through raw outside code blocks', () => {
    expect(prose).not.toBe(md);
    expect(prose).not.toMatch(/<script|<img|<b>|<i>/i);
    expect(md).toContain(
      't/&lt;script&gt;alert(1)&lt;/script&gt;&amp;x&#124;y&#96;z&#96;::error::pwn##&#91;group&#93;@\u200Doctocat',
    );
    // GitHub makes no mention in code: the accept command's <code> keeps its `@` (tested below).
    const mentionable = prose.replace(/<code>[^\n]*?<\/code>/g, '');
    expect(mentionable).not.toContain('@octocat');
    expect(mentionable).not.toContain('@team');
    expect(prose).not.toContain('##[');
  });

  it('keeps every table row at its number of cells', () => {
    for (const row of tableRows(md)) {
      const pipes = row.match(/\|/g)?.length ?? 0;
      // The passes and the narrow impact table have 4 columns, the full impact table 8.
      expect([5, 9]).toContain(pipes);
    }
    // The hostile pass: its row in the passes table and in both impact tables.
    const hostileRows = tableRows(md).filter((r) => r.includes('&lt;script&gt;'));
    expect(hostileRows).toHaveLength(3);
  });

  it('keeps a hostile name to one line in its bold title and in the accept command', () => {
    const titles = md.split('\n').filter((l) => l.startsWith('**t/&lt;script&gt;'));
    expect(titles).toHaveLength(2);
    const accept = md.split('\n').filter((l) => l.startsWith('- accept the change: '));
    expect(accept).toHaveLength(1);
    expect(accept[0]).toMatch(/^- accept the change: <code>npx context-stability update '[^\n]*'<\/code>$/);
    expect(accept[0]).not.toMatch(/<script|##\[/);
    // In code GitHub makes no mention: the command keeps its `@` as typed, to be copied.
    expect(accept[0]).toContain('@octocat');
  });

  it('keeps a message on its line: no line starts a workflow command', () => {
    for (const line of md.split('\n')) expect(line.startsWith('::')).toBe(false);
    expect(md).toContain('injected ##&#91;group&#93;&lt;img');
    expectWellFormed(md);
  });

  it('keeps a unified diff inside its fence whatever backticks it holds', () => {
    const drift = driftOutcome('t/ticks.jsonl');
    const unified = `${drift.unified ?? ''}+"content": "\`\`\`\`\`"\n+</details>\n`;
    const out = buildJobSummary(checkReport([{ ...drift, unified }]));
    const fenceLines = out.split('\n').filter((l) => /^`{3,}/.test(l));
    expect(fenceLines).toEqual(['``````diff', '``````']);
    const inside = out.slice(out.indexOf('``````diff'), out.lastIndexOf('``````'));
    expect(inside).toContain('+</details>');
  });
});

describe('buildJobSummary size limit', () => {
  it('keeps a huge report under the 1 MiB limit, with a note on what was cut', () => {
    const report = hugeReport(150, 6000, 250);
    const md = buildJobSummary(report);
    expect(bytes(md)).toBeLessThanOrEqual(SUMMARY_LIMIT_BYTES);
    expect(bytes(md)).toBeGreaterThan(SUMMARY_LIMIT_BYTES * 0.9);
    const note = /> ✂️ Cut to fit GitHub's 1 MiB step summary limit; not shown: (.*)\. The JSON report/.exec(
      md,
    );
    expect(note).not.toBeNull();
    // The verdict, the totals and the summary sentence are always there; the note right below them.
    expect(md).toContain(
      '**❌ 150 of 6150 transcripts fail** — 0 with violations · 150 drifted · 0 new · 0 errors · 6000 passed',
    );
    expect(md).toContain('6150 transcripts checked');
    expect(md.indexOf('> ✂️')).toBeLessThan(md.indexOf('### '));
    // Every failing transcript comes before any passing row: all 150 are shown.
    expect(blocks(md).size).toBe(150);
    const passingShown = tableRows(md).filter((r) => r.startsWith('| t/pass-')).length;
    const cutRows = Number(/(\d+) passing transcript rows?/.exec(note?.[1] ?? '')?.[1] ?? 0);
    expect(passingShown + cutRows).toBe(6000);
    expect(cutRows).toBeGreaterThan(0);
    expectWellFormed(md);
  });

  it('drops unified diffs before the semantic diffs, and says how many', () => {
    const report = hugeReport(40, 0, 250);
    const md = buildJobSummary(report, { maxBytes: 200_000 });
    expect(bytes(md)).toBeLessThanOrEqual(200_000);
    expect(withDetails(md)).toHaveLength(40);
    const withDiff = md.match(/```diff/g)?.length ?? 0;
    expect(withDiff).toBeGreaterThan(0);
    expect(md).toContain(`not shown: ${40 - withDiff} unified diffs.`);
    for (const block of blocks(md).values()) expect(collapsed(block)).toContain('- tokens: 30 → 10 (-20)');
    expectWellFormed(md);
  });

  it('names every failing transcript even when their details do not fit; details go first ones first, counted in the note', () => {
    const md = buildJobSummary(hugeReport(300, 0, 0), { maxBytes: 60_000 });
    expect(bytes(md)).toBeLessThanOrEqual(60_000);
    const names = Array.from({ length: 300 }, (_, i) => `t/drift-${String(i).padStart(5, '0')}.jsonl`);
    // Every title is shown, in order.
    expect([...blocks(md).keys()]).toEqual(names);
    // The bodies that fit are the first ones.
    const bodies = names.filter((n) => (blocks(md).get(n) ?? '').includes('accept the change'));
    expect(bodies.length).toBeGreaterThan(0);
    expect(bodies.length).toBeLessThan(300);
    expect(bodies).toEqual(names.slice(0, bodies.length));
    // The verdict and the group still count every failing transcript.
    expect(md).toContain('**❌ 300 of 300 transcripts fail**');
    expect(md).toContain('### ❌ Drift (300)');
    expect(md).toMatch(
      new RegExp(
        `not shown: \\d+ unified diffs, the details of ${300 - bodies.length} failing transcripts\\.`,
      ),
    );
    expectWellFormed(md);
  });

  it('when even the titles do not fit, names the first ones and counts the failing transcripts left out', () => {
    const md = buildJobSummary(hugeReport(3000, 0, 0), { maxBytes: 60_000 });
    expect(bytes(md)).toBeLessThanOrEqual(60_000);
    const shown = [...blocks(md).keys()];
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(3000);
    expect(shown).toEqual(
      Array.from({ length: shown.length }, (_, i) => `t/drift-${String(i).padStart(5, '0')}.jsonl`),
    );
    expect(md).toMatch(new RegExp(`not shown: ${3000 - shown.length} failing transcripts,`));
    expectWellFormed(md);
  });

  it('shows every semantic diff before any unified diff', () => {
    const md = buildJobSummary(hugeReport(20, 0, 250), { maxBytes: 100_000 });
    expect(withDetails(md)).toHaveLength(20);
    expect(md).toMatch(/not shown: \d+ unified diffs\./);
  });

  it('adds no note when the report fits', () => {
    expect(buildJobSummary(sampleReport())).not.toContain('Cut to fit');
  });

  it('never exceeds the limit it is given, counted in UTF-8 bytes', () => {
    const report = hugeReport(4, 30, 20);
    const full = bytes(buildJobSummary(report));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: full + 10 }), (limit) => {
        const out = buildJobSummary(report, { maxBytes: limit });
        expect(bytes(out)).toBeLessThanOrEqual(limit);
        expect(out).not.toMatch(/[\uD800-\uDBFF]$/);
      }),
      fcOptions(60),
    );
  });
});
