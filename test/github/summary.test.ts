import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUMMARY_LIMIT_BYTES, buildJobSummary } from '../../src/github/summary.js';
import {
  checkReport,
  driftOutcome,
  hugeReport,
  impactReport,
  outcome,
  sampleReport,
  tableRows,
  violationsOutcome,
} from './support.js';
import { fcOptions } from '../support/fc.js';

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');

/** The `<details>` sections, by the transcript named in their summary. */
function detailSections(md: string): Map<string, string> {
  const sections = new Map<string, string>();
  for (const match of md.matchAll(/<details><summary>([^:<]*):[^\n]*<\/summary>\n([\s\S]*?)\n<\/details>/g)) {
    sections.set(match[1] ?? '', match[2] ?? '');
  }
  return sections;
}

/** Markdown structure that a cut must never break: balanced details and code fences. */
function expectWellFormed(md: string): void {
  expect(md.match(/<details>/g)?.length ?? 0).toBe(md.match(/<\/details>/g)?.length ?? 0);
  const fences = md.split('\n').filter((l) => /^`{3,}/.test(l));
  expect(fences.length % 2).toBe(0);
}

describe('buildJobSummary', () => {
  const md = buildJobSummary(sampleReport());

  it('opens with the run table: counts per outcome and tokens used against the budget', () => {
    const rows = tableRows(md);
    expect(rows[0]).toBe(
      '| Transcripts | Pass | Drift | New | Violations | Errors | Obsolete | Tokens (used / budget) |',
    );
    // broken has no budget; the other four use 30 + 10 + 30 + 30 of 4 × 100.
    expect(rows[2]).toBe('| 5 | 1 | 1 | 1 | 1 | 1 | 1 | 100 / 400 |');
    expect(md).toContain('**⚠️ Incomplete: 1 transcript could not be checked**');
  });

  it('lists every transcript with its outcome, tokens and violations', () => {
    const rows = tableRows(md).filter((r) => r.startsWith('| t/'));
    expect(rows).toEqual([
      '| t/pii.jsonl | ❌ violations | 30 / 100 | 1 (+1 warning) |',
      '| t/drift.jsonl | ❌ drift | 10 / 100 | 0 |',
      '| t/broken.jsonl | ⚠️ error | — | 0 |',
      '| t/new.jsonl | 🆕 new | 30 / 100 | 0 |',
      '| t/pass.jsonl | ✅ pass | 30 / 100 | 0 |',
    ]);
  });

  it('has a collapsible section per failing transcript, with the semantic diff before the unified diff', () => {
    const sections = detailSections(md);
    expect([...sections.keys()]).toEqual(['t/pii.jsonl', 't/drift.jsonl', 't/broken.jsonl']);
    const drift = sections.get('t/drift.jsonl') ?? '';
    expect(drift).toContain('- cause: policy changed');
    expect(drift).toContain('- tokens: 30 → 10 (-20)');
    expect(drift).toContain('- m2 (line 2): kept (in&#95;budget, 20 tokens) → dropped (budget, 0 tokens)');
    expect(drift).toContain('- check pii: ok → failing (1 violation)');
    expect(drift.indexOf('- tokens:')).toBeLessThan(drift.indexOf('```diff'));
    expect(drift).toMatch(/```diff\n--- a\/golden\/t\/drift\.jsonl\.golden\.json/);
    expect(sections.get('t/pii.jsonl')).toContain(
      '- line 7: error&#91;pii&#93; m4: an email address is in the context',
    );
    expect(sections.get('t/broken.jsonl')).toContain(
      '- t/broken.jsonl:3:5: error&#91;json-syntax&#93;: Unexpected character.',
    );
    expectWellFormed(md);
  });

  it('lists obsolete goldens and ends with the summary sentence', () => {
    expect(md).toContain('### Obsolete goldens');
    expect(md).toContain('- golden/t/gone.jsonl.golden.json');
    expect(md.trimEnd().split('\n').at(-1)).toBe(
      '5 transcripts checked: 1 pass, 1 drift, 1 new, 1 with violations, 1 error; 1 obsolete golden.',
    );
  });

  it('fails a missing golden in CI', () => {
    const ci = buildJobSummary(sampleReport(true));
    expect(tableRows(ci)).toContain('| t/new.jsonl | ❌ missing golden | 30 / 100 | 0 |');
    expect(detailSections(ci).get('t/new.jsonl')).toContain('run `context-stability update` locally');
  });

  it('says all is well when nothing fails, with no failing section', () => {
    const ok = buildJobSummary(checkReport([outcome('a.jsonl'), outcome('b.jsonl')]));
    expect(ok).toContain('**✅ No transcript fails (2 checked)**');
    expect(ok).not.toContain('<details>');
    expect(ok).not.toContain('### Failing transcripts');
    expect(ok).not.toContain('Policy impact');
  });

  it('shows the policy impact table when a base policy is reviewed', () => {
    const review = buildJobSummary(impactReport());
    expect(review).toContain('base policy git-ref:origin/main:.github/context-policy.yml (fedcba9876543210)');
    expect(review).toContain('### Policy impact (base → head)');
    const row = tableRows(review).find((r) => r.startsWith('| a.jsonl | ok → ok'));
    expect(row).toBe('| a.jsonl | ok → ok | 30 → 10 | 2 → 1 | 0 → 0 | budget 1 → 2 | budget | — |');
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
    expect(out.indexOf('> ⚠️')).toBeLessThan(out.indexOf('| Transcripts |'));
  });

  it('is deterministic', () => {
    expect(buildJobSummary(sampleReport())).toBe(md);
  });
});

describe('buildJobSummary escaping', () => {
  const hostile = 't/<script>alert(1)</script>&x|y`z`::error::pwn##[group]@octocat*_[a](b)~.jsonl';
  const message = 'leak\n::error file=x::injected\n##[group]<img src=x onerror=alert(1)>|`@team';
  const report = checkReport([
    violationsOutcome(hostile, message),
    driftOutcome(hostile.replace('.jsonl', '2.jsonl')),
    outcome('t/fine.jsonl'),
  ]);
  const md = buildJobSummary(report, { notices: ['::warning::not a command <i>'] });

  // Code blocks show their text verbatim: markup inside them is inert, and is not escaped.
  const prose = md.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');

  it('never lets markup through raw outside code blocks', () => {
    expect(prose).not.toBe(md);
    expect(prose).not.toMatch(/<script|<img|<b>|<i>/i);
    expect(md).toContain(
      't/&lt;script&gt;alert(1)&lt;/script&gt;&amp;x&#124;y&#96;z&#96;::error::pwn##&#91;group&#93;&#64;octocat',
    );
    expect(prose).not.toContain('@octocat');
    expect(prose).not.toContain('@team');
    expect(prose).not.toContain('##[');
  });

  it('keeps every table row at its number of cells', () => {
    for (const row of tableRows(md)) {
      const pipes = row.match(/\|/g)?.length ?? 0;
      expect([5, 9]).toContain(pipes);
    }
    const hostileRows = tableRows(md).filter((r) => r.includes('&lt;script&gt;'));
    expect(hostileRows).toHaveLength(2);
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
    // The run table and the totals are always there.
    expect(md).toContain('| 6150 | 6000 | 150 | 0 | 0 | 0 | 0 | 181500 / 615000 |');
    expect(md).toContain('6150 transcripts checked');
    // Failing rows come before passing ones: all 150 are listed.
    expect(tableRows(md).filter((r) => r.includes('❌ drift'))).toHaveLength(150);
    const passingShown = tableRows(md).filter((r) => r.includes('✅ pass')).length;
    const cutRows = Number(/(\d+) transcript rows?/.exec(note?.[1] ?? '')?.[1] ?? 0);
    expect(passingShown + cutRows).toBe(6000);
    expectWellFormed(md);
  });

  it('drops unified diffs before the semantic diffs, and says how many', () => {
    const report = hugeReport(40, 0, 250);
    const md = buildJobSummary(report, { maxBytes: 200_000 });
    expect(bytes(md)).toBeLessThanOrEqual(200_000);
    expect(detailSections(md).size).toBe(40);
    const withDiff = md.match(/```diff/g)?.length ?? 0;
    expect(withDiff).toBeGreaterThan(0);
    expect(md).toContain(`not shown: ${40 - withDiff} unified diffs.`);
    for (const section of detailSections(md).values()) expect(section).toContain('- tokens: 30 → 10 (-20)');
  });

  it('leaves details out when even the semantic diffs do not fit, but still lists every failing row', () => {
    const md = buildJobSummary(hugeReport(300, 0, 0), { maxBytes: 60_000 });
    expect(bytes(md)).toBeLessThanOrEqual(60_000);
    const shown = detailSections(md).size;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(300);
    expect(tableRows(md).filter((r) => r.includes('❌ drift'))).toHaveLength(300);
    expect(md).toMatch(
      new RegExp(`not shown: \\d+ unified diffs, the details of ${300 - shown} failing transcripts\\.`),
    );
    expectWellFormed(md);
  });

  it('shows every semantic diff before any unified diff', () => {
    const md = buildJobSummary(hugeReport(20, 0, 250), { maxBytes: 100_000 });
    expect(detailSections(md).size).toBe(20);
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
