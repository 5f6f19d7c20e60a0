// What a new reader of the viewer page needs (issue 33, the first hour): the header counts warnings
// as warnings, masked counts include text masked before recording (and say which is which), a
// dropped row says what it was, how big and why, and ledger reasons read as plain words with the
// exact reason name and its meaning on hover and in a glossary.
import { describe, expect, it } from 'vitest';
import { summarize } from '../../../src/core/golden/check-report.js';
import type { ReportViolation, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { GOLDEN_SCHEMA } from '../../../src/core/golden/golden.js';
import type { Golden } from '../../../src/core/golden/golden.js';
import type { ContextItem, LedgerEntry } from '../../../src/core/stabilize/types.js';
import { absentArtifacts } from '../../../src/core/view/absent.js';
import type { AbsentArtifact } from '../../../src/core/view/absent.js';
import { maskOf, maskedSpans } from '../../../src/core/view/html-text.js';
import type { ViewDocument, ViewTranscript } from '../../../src/core/view/model.js';
import { reasonTitle, reasonWords } from '../../../src/core/view/reasons.js';
import { renderViewHtml } from '../../../src/core/view/render-html.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import {
  PRE_MASKED,
  exampleInputs,
  policySetup,
  preMaskedInput,
  viewDocument,
} from '../../support/view-document.js';

function golden(context: ContextItem[], ledger: LedgerEntry[], extra: Partial<Golden> = {}): Golden {
  return {
    schema: GOLDEN_SCHEMA,
    transcript: 'hand/first-hour.jsonl',
    policy_hash: 'abc123',
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    status: 'ok',
    budget: { limit: 1000, used: context.reduce((n, c) => n + c.tokens, 0) },
    context,
    ledger,
    summaries: [],
    checks: [],
    ...extra,
  };
}

function entry(id: string, line: number, more: Partial<LedgerEntry> = {}): LedgerEntry {
  return {
    id,
    stage: 'budget',
    action: 'kept',
    reason: 'in_budget',
    tokens_before: 20,
    tokens_after: 20,
    line,
    ...more,
  };
}

function doc(transcripts: ViewTranscript[], replacement = '[{TYPE}_{N}]', ci = false): ViewDocument {
  return {
    tool: { name: 'context-stability', version: '1.2.3' },
    policy: { source: '.github/context-policy.yml', hash: 'abc123' },
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    replacement,
    ci,
    summary: summarize(
      transcripts.map((t) => t.outcome),
      [],
    ),
    transcripts,
  };
}

function outcome(kind: TranscriptOutcome['outcome'], violations: ReportViolation[] = []): TranscriptOutcome {
  return { transcript: 'hand/first-hour.jsonl', golden: 'golden/x.golden.json', outcome: kind, violations };
}

function h1(html: string): string {
  return /<h1>([^<]*)<\/h1>/.exec(html)?.[1] ?? '';
}

/** The text of an element, tags dropped. */
function text(html: string): string {
  return html.replace(/<[^>]*>/g, '');
}

function row(html: string, id: string): string {
  const start = html.indexOf(`data-id="${id}"`);
  expect(start, id).toBeGreaterThan(0);
  return html.slice(html.lastIndexOf('<li class="artifact', start), html.indexOf('</li>', start));
}

const warning: ReportViolation = {
  check: 'retention',
  severity: 'warning',
  id: 'u1',
  line: 1,
  message: 'a fact was lost',
};

describe('the header counts warnings as warnings', () => {
  const head = golden([{ id: 'u1', kind: 'user', tokens: 20, content: 'hello', line: 1 }], [entry('u1', 1)]);

  it('a passing run with a warning is not "all good"', () => {
    const html = renderViewHtml(doc([{ outcome: outcome('pass', [warning]), head, stored: null }]));
    expect(h1(html)).toBe('1 transcript checked: no failures, 1 warning');
    expect(html).not.toContain('all good');
    expect(html).toMatch(/<li class="total warm"><span class="n">1<\/span><span class="w">warning<\/span>/);
    expect(html).toMatch(/<li class="total"><span class="n">0<\/span><span class="w">errors<\/span>/);
    // The transcript and its link say `1 warning`, not `1 violation`.
    expect(html).not.toContain('violation<');
    expect(html).toContain('<span class="t-meta">20 / 1,000 tokens · 1 artifact · 1 warning</span>');
    expect(html).toMatch(/<span class="toc-meta">1 warning · /);
  });

  it('a drift at severity warning is a warning; errors and warnings are counted apart', () => {
    const error: ReportViolation = { ...warning, check: 'pii', severity: 'error', message: 'leak' };
    const html = renderViewHtml(
      doc([
        { outcome: { ...outcome('drift'), drift_severity: 'warning' }, head, stored: null },
        { outcome: outcome('violations', [error, warning, warning]), head, stored: null },
      ]),
    );
    expect(h1(html)).toBe('2 transcripts checked: 1 failing, 3 warnings');
    expect(html).toMatch(/<span class="n">1<\/span><span class="w">error<\/span>/);
    expect(html).toMatch(/<span class="n">3<\/span><span class="w">warnings<\/span>/);
    expect(html).toContain('1 error, 2 warnings');
  });

  it('a clean run is all good', () => {
    const html = renderViewHtml(doc([{ outcome: outcome('pass'), head, stored: null }]));
    expect(h1(html)).toBe('1 transcript checked: all good');
  });
});

describe('masked counts include text masked before recording', () => {
  // The policy numbers values ([EMAIL_1]); the recording came with `[REDACTED_…]` placeholders.
  const context: ContextItem[] = [
    {
      id: 'u1',
      kind: 'user',
      tokens: 20,
      content: 'Mail [REDACTED_EMAIL] or call [REDACTED_PHONE].',
      line: 1,
    },
    { id: 'u2', kind: 'user', tokens: 20, content: 'New address: [EMAIL_1].', line: 2 },
    {
      id: 'a1',
      kind: 'assistant',
      tokens: 20,
      content: 'Writing to [EMAIL_1], as asked by [REDACTED_EMAIL].',
      tool_calls: [{ id: 'c1', name: 'send', arguments: '{"to":"[REDACTED_EMAIL]"}' }],
      line: 3,
    },
    { id: 'a2', kind: 'assistant', tokens: 20, content: 'Done.', line: 4 },
  ];
  const ledger = [
    entry('u1', 1, { protected_by: ['latest_user'] }),
    entry('u2', 2, { action: 'masked', reason: 'pii', stage: 'pii', pii: { email: 1 } }),
    entry('a1', 3, { action: 'masked', reason: 'pii', stage: 'pii', pii: { email: 1 } }),
    entry('a2', 4),
  ];
  const page = (replacement: string): string =>
    renderViewHtml(
      doc([{ outcome: outcome('pass'), head: golden(context, ledger), stored: null }], replacement),
    );

  it('says which count is which: masked 3 (2 before recording)', () => {
    const html = page('[{TYPE}_{N}]');
    expect(html).toMatch(
      /data-filter-fate="masked" checked><span class="dot fate-masked"><\/span>masked <span class="count">3<\/span> <span class="count-of"[^>]*>\(2 before recording\)<\/span>/,
    );
    expect(html).toMatch(
      /data-filter-fate="kept" checked><span class="dot fate-kept"><\/span>kept <span class="count">1<\/span>/,
    );
    // The protected message holding only old placeholders is masked, said so by type.
    expect(row(html, 'u1')).toContain('data-fate="masked"');
    expect(row(html, 'u1')).toContain('data-premasked');
    expect(row(html, 'u1')).toContain('EMAIL ×1 before recording');
    expect(row(html, 'u1')).toContain('PHONE ×1 before recording');
    expect(row(html, 'u1')).toContain('protected by latest_user');
    // Masked by this run only: no `before recording`.
    expect(row(html, 'u2')).not.toContain('before recording');
    expect(row(html, 'u2')).toContain('<span class="tag t-pii" title="masked by this run">EMAIL ×1</span>');
    // Both: this run's [EMAIL_1] and two older placeholders (content and call arguments).
    expect(row(html, 'a1')).toContain('EMAIL ×2 before recording');
    expect(row(html, 'a2')).toContain('data-fate="kept"');
    // Both forms are highlighted.
    expect(html).toContain('<mark class="pii pii-EMAIL" title="EMAIL">[REDACTED_EMAIL]</mark>');
    expect(html).toContain('<mark class="pii pii-EMAIL" title="EMAIL">[EMAIL_1]</mark>');
    expect(html).toContain('<strong>masked</strong> PII or fields masked, in this run or before recording');
  });

  it('counts by what this run masked when the template is the label form too', () => {
    // Under `[REDACTED_{TYPE}]` this run's placeholder looks like the old ones: its count (entry.pii)
    // is taken off, the rest was there before.
    const html = page('[REDACTED_{TYPE}]');
    // a1: two `[REDACTED_EMAIL]`, one of them this run's (`[EMAIL_1]` is no placeholder here).
    expect(row(html, 'a1')).toContain('<span class="tag t-pii" title="masked by this run">EMAIL ×1</span>');
    expect(row(html, 'a1')).toContain('EMAIL ×1 before recording');
    expect(row(html, 'u1')).toContain('EMAIL ×1 before recording');
    expect(html).toMatch(
      /masked <span class="count">3<\/span> <span class="count-of"[^>]*>\(2 before recording\)/,
    );
  });

  it('says nothing of recording when nothing was masked before it', () => {
    const clean = context.map((c) => ({ ...c, content: 'plain text', tool_calls: [] }));
    const html = renderViewHtml(
      doc([{ outcome: outcome('pass'), head: golden(clean, ledger), stored: null }]),
    );
    expect(html).not.toContain('class="count-of"');
    expect(html).not.toContain('t-premasked"');
    expect(html).not.toContain('data-premasked');
  });

  it('recognises the same spans as the PII stage leaves alone: the template and the label form', () => {
    const spans = (template: string, t: string): string[] =>
      maskedSpans(t, maskOf(template)).map((s) => `${t.slice(s.start, s.end)}:${s.type}`);
    const t = 'a [EMAIL_3] b [REDACTED_SECRET] c [EMAIL_x] [REDACTED_] <EMAIL>';
    expect(spans('[{TYPE}_{N}]', t)).toEqual(['[EMAIL_3]:EMAIL', '[REDACTED_SECRET]:SECRET']);
    expect(spans('<{TYPE}>', t)).toEqual(['[REDACTED_SECRET]:SECRET', '<EMAIL>:EMAIL']);
    expect(spans('', t)).toEqual(['[REDACTED_SECRET]:SECRET']);
  });

  it('stays linear on long runs of one character', () => {
    const mask = maskOf('[{TYPE}_{N}]');
    for (const long of [
      '['.repeat(200_000),
      `[${'A'.repeat(200_000)}`,
      '[REDACTED_'.repeat(20_000),
      `[A_${'1'.repeat(200_000)}`,
    ]) {
      const start = performance.now();
      maskedSpans(long, mask);
      expect(performance.now() - start, long.slice(0, 12)).toBeLessThan(500);
    }
  });

  it('stays linear when the template starts with {TYPE} (issue 34: 160 KB of capitals took 16 s)', () => {
    const mask = maskOf('{TYPE}_REDACTED');
    const long = 'A'.repeat(160_000);
    const start = performance.now();
    expect(maskedSpans(long, mask)).toEqual([]);
    expect(performance.now() - start).toBeLessThan(500);
    // A real type still reads back, and one as long as the longest rule name.
    const rule = `R${'X'.repeat(62)}Z`;
    expect(maskedSpans(`x EMAIL_REDACTED ${rule}_REDACTED`, mask).map((m) => m.type)).toEqual([
      'EMAIL',
      rule,
    ]);
  });

  it('a recording masked before it was written, through the real pipeline', async () => {
    const setup = await policySetup();
    const html = renderViewHtml(viewDocument(setup, [preMaskedInput()]));
    // u1, a1 and r1 hold only the recording's placeholders; u2 is masked by this run.
    expect(html).toMatch(
      /masked <span class="count">4<\/span> <span class="count-of"[^>]*>\(3 before recording\)/,
    );
    expect(row(html, 'u2')).toContain('data-fate="masked"');
    expect(row(html, 'u2')).not.toContain('before recording');
    expect(html).not.toContain('mia.lund@example.org');
    expect(html).toContain(PRE_MASKED);
  });
});

describe('dropped rows say what was dropped, how big and why', () => {
  const ledger: LedgerEntry[] = [
    entry('sys', 1, { protected_by: ['system'], reason: 'protected' }),
    entry('a1', 2, { action: 'dropped', reason: 'pair_unit', tokens_before: null, tokens_after: 0 }),
    entry('r1', 3, { action: 'dropped', reason: 'verbose_tool_output', tokens_before: 900, tokens_after: 0 }),
    entry('old', 4, { action: 'dropped', reason: 'budget', tokens_before: null, tokens_after: 0 }),
    entry('sum', 5, { action: 'expired', reason: 'summary_expired', tokens_before: null, tokens_after: 0 }),
    entry('was', 6, { action: 'dropped', reason: 'budget', tokens_before: null, tokens_after: 0 }),
  ];
  const head = golden([{ id: 'sys', kind: 'system', tokens: 20, content: 'Be brief.', line: 1 }], ledger, {
    summaries: [
      { id: 'sum', status: 'expired', reasons: ['expired'], age: 9, ttl: 5, provenance: [], line: 5 },
    ],
  });
  const stored = golden(
    [{ id: 'was', kind: 'user', tokens: 12, content: 'an old question', line: 6, tool_calls: [] }],
    [],
  );
  const absent: AbsentArtifact[] = [
    { id: 'a1', kind: 'assistant', calls: 2, chars: 1234, lines: 3 },
    { id: 'old', kind: 'user', calls: 0, chars: 5, lines: 1 },
  ];

  it('with the run’s facts: kind, size (tokens, else characters and lines) and the reason in words', () => {
    const html = renderViewHtml(doc([{ outcome: outcome('pass'), head, stored, absent }]));
    const a1 = row(html, 'a1');
    expect(text(a1)).toContain('assistant, 2 tool calls');
    expect(text(a1)).toContain('1,234 chars, 3 lines');
    expect(text(a1)).toContain('dropped: went with its tool call or result');
    expect(a1).toContain(
      `title="ledger reason pair_unit (action dropped): ${reasonWords('dropped', 'pair_unit').meaning}"`,
    );
    const r1 = row(html, 'r1');
    expect(text(r1)).toContain('tool result'); // from the reason
    expect(text(r1)).toContain('900 tokens');
    expect(text(r1)).toContain('dropped: tool output too long');
    expect(text(row(html, 'old'))).toContain('user');
    expect(text(row(html, 'sum'))).toContain('summary');
    expect(text(row(html, 'sum'))).toContain('expired: summary too old');
    expect(text(row(html, 'sum'))).toContain('size not counted');
    expect(text(row(html, 'was'))).toContain('user'); // from the stored golden
    for (const id of ['a1', 'r1', 'old', 'sum', 'was']) {
      expect(text(row(html, id)), id).not.toMatch(/–|\?/);
      expect(text(row(html, id)), id).not.toContain('kind not recorded');
    }
  });

  it('the run gives those facts for every artifact the context left out, and nothing else', () => {
    const input = exampleInputs().find((i) => i.transcript.endsWith('phase-change.native.json'));
    const read = readTranscript(input?.text ?? '', { file: 'x.json' });
    if (!read.ok) throw new Error('unreadable example');
    const g = golden([], [entry('gone', 1, { action: 'dropped', tokens_after: 0 })]);
    const first = read.transcript.artifacts[0];
    if (!first) throw new Error('empty example');
    g.ledger[0]!.id = first.id;
    const facts = absentArtifacts(read.transcript.artifacts, g);
    expect(facts).toHaveLength(1);
    expect(Object.keys(facts[0] ?? {}).sort()).toEqual(['calls', 'chars', 'id', 'kind', 'lines']);
  });
});

describe('ledger reasons in plain words', () => {
  // Every reason the ledger documents (src/core/stabilize/types.ts), with its action.
  const documented: [string, string][] = [
    ['kept', 'in_budget'],
    ['kept', 'protected'],
    ['masked', 'pii'],
    ['masked', 'tool_output_fields'],
    ['masked', 'pii_thinking'],
    ...[
      'sidechain',
      'abandoned_branch',
      'compacted',
      'unpaired_result',
      'unpaired_call',
      'scope_reset',
      'verbose_tool_output',
      'superseded',
      'budget',
      'aggressive_chatter',
      'pair_unit',
      'degraded',
    ].map((r): [string, string] => ['dropped', r]),
    ['expired', 'summary_expired'],
    ['expired', 'summary_invalid'],
    ['expired', 'summary_superseded'],
    ['deduplicated', 'duplicate'],
    ['deduplicated', 'near_duplicate'],
    ['collapsed', 'retry_run'],
    ['collapsed', 'compacted_into'],
    ['excerpted', 'excerpt'],
    ['excerpted', 'verbose_tool_output'],
    ['compressed', 'pair_placeholder'],
    ['compressed', 'pair_unit'],
    ['compressed', 'unpaired_call'],
    ['compressed', 'pending_call'],
    ['compressed', 'pending_approval'],
  ];

  it('has words and a meaning for every documented reason, none of them the jargon itself', () => {
    for (const [action, reason] of documented) {
      const { words, meaning } = reasonWords(action, reason);
      expect(words, reason).not.toContain('_');
      expect(meaning, reason).not.toContain('no description');
      expect(reasonTitle(action, reason)).toBe(`ledger reason ${reason} (action ${action}): ${meaning}`);
    }
    expect(reasonWords('dropped', 'pair_unit').words).not.toBe(reasonWords('compressed', 'pair_unit').words);
    expect(reasonWords('dropped', 'some_new_reason')).toEqual({
      words: 'some new reason',
      meaning: 'A reason this viewer has no description for.',
    });
  });

  it('the page shows the words, the exact name on hover and in a glossary of the reasons on it', () => {
    const head = golden(
      [{ id: 'u1', kind: 'user', tokens: 20, content: 'hi', line: 1 }],
      [entry('u1', 1), entry('r1', 2, { action: 'dropped', reason: 'pair_unit', tokens_after: 0 })],
    );
    const html = renderViewHtml(doc([{ outcome: outcome('pass'), head, stored: null }]));
    expect(html).not.toMatch(/<span class="a-reason"[^>]*>[^<]*pair_unit/);
    expect(html).toContain('<summary>What the reasons mean (2)</summary>');
    expect(html).toContain(
      `<dt>dropped: went with its tool call or result</dt><dd><code>pair_unit</code> ${reasonWords('dropped', 'pair_unit').meaning}</dd>`,
    );
    expect(html).toContain('<dt>kept: fits the budget</dt><dd><code>in_budget</code>');
  });
});
