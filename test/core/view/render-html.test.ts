import { beforeAll, describe, expect, it } from 'vitest';
import { summarize } from '../../../src/core/golden/check-report.js';
import type { ReportViolation, TranscriptOutcome } from '../../../src/core/golden/check-report.js';
import { diffGoldens } from '../../../src/core/golden/diff.js';
import { GOLDEN_SCHEMA } from '../../../src/core/golden/golden.js';
import type { Golden } from '../../../src/core/golden/golden.js';
import { MAP_FATES, mapFate } from '../../../src/core/golden/picture.js';
import type { ContextItem, LedgerEntry } from '../../../src/core/stabilize/types.js';
import type { ViewDocument, ViewTranscript } from '../../../src/core/view/model.js';
import { PAGE_SCRIPT } from '../../../src/core/view/page-script.js';
import {
  PAGE_CSP,
  escapeHtml,
  formatCount,
  maskPattern,
  renderViewHtml,
} from '../../../src/core/view/render-html.js';
import {
  CANARIES,
  canaryInput,
  exampleDocument,
  longSessionInput,
  policySetup,
  viewDocument,
} from '../../support/view-document.js';

const XSS_SCRIPT = '<script>alert(1)</script>';
const XSS_IMG = '"><img src=x onerror=alert(2)>';
const XSS_CLOSE = '</script><script>alert(3)</script>';

function golden(context: ContextItem[], ledger: LedgerEntry[], extra: Partial<Golden> = {}): Golden {
  const used = context.reduce((sum, c) => sum + c.tokens, 0);
  return {
    schema: GOLDEN_SCHEMA,
    transcript: 'hand/made.jsonl',
    policy_hash: 'abc123',
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    status: 'ok',
    budget: { limit: 1000, used },
    context,
    ledger,
    summaries: [],
    checks: [],
    ...extra,
  };
}

function entry(
  id: string,
  line: number,
  action: LedgerEntry['action'],
  more: Partial<LedgerEntry> = {},
): LedgerEntry {
  const gone = !['kept', 'masked', 'excerpted', 'compressed'].includes(action);
  return {
    id,
    stage: 'budget',
    action,
    reason: more.reason ?? (action === 'kept' ? 'in_budget' : action),
    tokens_before: 40,
    tokens_after: gone ? 0 : 30,
    line,
    ...more,
  };
}

/** A hand-made golden with every fate, masked spans, parts, tool calls and hostile strings. */
function handGolden(): Golden {
  const context: ContextItem[] = [
    { id: 'sys', kind: 'system', tokens: 60, content: 'You are a careful assistant.', line: 1 },
    {
      id: 'u1',
      kind: 'user',
      tokens: 30,
      content: `Mail me at [REDACTED_EMAIL] or call [REDACTED_PHONE]. ${XSS_SCRIPT}`,
      line: 2,
    },
    {
      id: XSS_IMG,
      kind: 'assistant',
      tokens: 30,
      content: [
        { type: 'text', text: `Looking it up ${XSS_CLOSE}` },
        { type: 'image', source: { media_type: 'image/png', data: 'iVBORw0KGgo=' } },
      ],
      tool_calls: [{ id: 'call-1', name: XSS_SCRIPT, arguments: '{"email":"[REDACTED_EMAIL]"}' }],
      line: 3,
    },
    { id: 'r1', kind: 'tool', tokens: 30, content: 'head … tail', tool: 'bash', call_id: 'call-1', line: 4 },
    { id: 'r2', kind: 'tool', tokens: 30, content: '(result left out)', placeholder: true, line: 5 },
  ];
  const ledger: LedgerEntry[] = [
    entry('sys', 1, 'kept', { reason: 'protected', protected_by: ['system'] }),
    entry('u1', 2, 'masked', {
      reason: 'pii',
      pii: { email: 1, phone: 1 },
      detail: 'masked 1 email, 1 phone',
    }),
    entry(XSS_IMG, 3, 'kept'),
    entry('r1', 4, 'excerpted', { reason: 'excerpt' }),
    entry('r2', 5, 'compressed', { reason: 'pair_placeholder' }),
    entry('old', 6, 'dropped', { reason: 'budget', tokens_before: null }),
    entry('dup', 7, 'deduplicated', { reason: 'duplicate', duplicate_of: 'u1' }),
    entry('sum', 8, 'expired', { reason: 'summary_expired' }),
    entry('retry', 9, 'collapsed', { reason: 'retry_run' }),
  ];
  return golden(context, ledger);
}

function outcome(
  transcript: string,
  kind: TranscriptOutcome['outcome'],
  more: Partial<TranscriptOutcome> = {},
) {
  return { transcript, golden: `golden/${transcript}.golden.json`, outcome: kind, violations: [], ...more };
}

function handDocument(): ViewDocument {
  const head = handGolden();
  const violations: ReportViolation[] = [
    { check: 'pii', severity: 'error', id: 'u1', line: 2, column: 1, message: `leaked ${XSS_SCRIPT}` },
    { check: 'budget', severity: 'warning', id: XSS_IMG, line: 3, message: 'over the budget' },
    { check: 'budget', severity: 'error', id: 'old', line: 6, message: 'dropped one' },
  ];
  // The stored golden: u1 said something else, r2 was not there, and `gone` was in it.
  const stored = handGolden();
  stored.context = stored.context
    .filter((c) => c.id !== 'r2')
    .map((c) => (c.id === 'u1' ? { ...c, content: 'Mail me at [REDACTED_EMAIL].' } : c));
  stored.context.push({ id: 'gone', kind: 'user', tokens: 12, content: 'an old question', line: 10 });
  stored.ledger = stored.ledger.filter((e) => e.id !== 'r2').concat(entry('gone', 10, 'kept'));
  stored.policy_hash = 'old-hash';
  const transcripts: ViewTranscript[] = [
    {
      outcome: {
        ...outcome(`hand/${XSS_IMG}${XSS_SCRIPT}.jsonl`, 'violations', { violations }),
        notes: [`policy changed ${XSS_SCRIPT}`],
      } as TranscriptOutcome,
      head,
      stored: null,
    },
    { outcome: outcome('hand/drift.jsonl', 'drift', { diff: diffGoldens(stored, head) }), head, stored },
    {
      outcome: outcome('hand/broken.json', 'error', {
        diagnostics: [
          {
            severity: 'error',
            code: 'json-syntax',
            file: 'hand/broken.json',
            line: 3,
            column: 7,
            message: `Unexpected ${XSS_CLOSE}`,
            hint: 'Fix the JSON.',
          },
        ],
      }),
      head: null,
      stored: null,
    },
  ];
  return {
    tool: { name: 'context-stability', version: '1.2.3' },
    policy: { source: `.github/${XSS_IMG}.yml`, hash: 'abc123' },
    tokenizer: { name: 'o200k_base', version: '4.0.0' },
    replacement: '[REDACTED_{TYPE}]',
    ci: true,
    summary: summarize(
      transcripts.map((t) => t.outcome),
      [],
    ),
    transcripts,
  };
}

/** The part of the page that belongs to transcript section `id`. */
function section(html: string, id: string): string {
  const start = html.indexOf(`<section class="transcript" id="${id}"`);
  expect(start).toBeGreaterThanOrEqual(0);
  const end = html.indexOf('</section>', start);
  return html.slice(start, end);
}

function count(html: string, pattern: RegExp): number {
  return (html.match(new RegExp(pattern.source, 'g')) ?? []).length;
}

describe('renderViewHtml: a hand-made run', () => {
  const doc = handDocument();
  const html = renderViewHtml(doc);

  it('is deterministic: the same document (or a copy) gives the same bytes', () => {
    expect(renderViewHtml(doc)).toBe(html);
    expect(renderViewHtml(JSON.parse(JSON.stringify(doc)) as ViewDocument)).toBe(html);
  });

  it('is one self-contained page with a strict CSP and no URL at all', () => {
    expect(html.startsWith('<!DOCTYPE html>')).toBe(true);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`);
    expect(PAGE_CSP).toBe(
      "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:",
    );
    expect(html).toMatch(/<title>Context check: 3 transcripts, 3 failing<\/title>/);
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/\b(src|href)="(?!#|data:,)/);
    expect(html).not.toMatch(/<link (?!rel="icon" href="data:,">)/);
    expect(html).not.toMatch(/@import|url\(/);
  });

  it('escapes every string from the input: the only script is the page’s own', () => {
    expect(count(html, /<script/)).toBe(1);
    expect(count(html, /<\/script>/)).toBe(1);
    expect(html.indexOf('<script>')).toBe(html.lastIndexOf('<script>'));
    expect(html).not.toContain('<img');
    expect(html).not.toContain(XSS_SCRIPT);
    expect(html).not.toContain(XSS_IMG);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('&quot;&gt;&lt;img src=x onerror=alert(2)&gt;');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;');
    // In attributes too: the transcript name, the artifact id, the policy source.
    expect(html).toContain('data-id="&quot;&gt;&lt;img src=x onerror=alert(2)&gt;"');
    expect(html).toMatch(
      /data-transcript="hand\/&quot;&gt;&lt;img src=x onerror=alert\(2\)&gt;&lt;script&gt;/,
    );
    expect(html).toContain('.github/&quot;&gt;&lt;img');
  });

  it('shows every fate with its class, in transcript order', () => {
    const rows = section(html, 't-1').match(/<li class="artifact fate-[a-z]+[^"]*"[^>]*>/g) ?? [];
    // The assistant kept as it was holds `[REDACTED_EMAIL]` this run did not mask: masked before
    // recording, so masked on the page.
    expect(rows.map((r) => /fate-([a-z]+)/.exec(r)?.[1])).toEqual(
      handGolden().ledger.map((e) => (e.id === XSS_IMG ? 'masked' : mapFate(e))),
    );
    for (const fate of MAP_FATES.filter((f) => f !== 'kept'))
      expect(html).toMatch(new RegExp(`class="artifact fate-${fate}[ "]`));
    expect(html).toContain('data-fate="dropped"');
    // Dropped artifacts show no content, the others their masked content in a closed <details>.
    expect(count(section(html, 't-1'), /<p class="a-absent">not in the context<\/p>/)).toBe(4);
    expect(count(section(html, 't-1'), /<details class="a-content">/)).toBe(5);
    expect(section(html, 't-1')).toContain('protected by system');
    expect(section(html, 't-1')).toContain('EMAIL ×1');
    expect(section(html, 't-1')).toContain('duplicate of u1');
    // A dropped row the goldens say nothing of: no `?`, it says what is not known.
    expect(section(html, 't-1')).not.toMatch(/\? → 0/);
    expect(section(html, 't-1')).toContain('kind not recorded');
    expect(section(html, 't-1')).toContain('size not counted');
  });

  it('highlights masked spans by type, in content, parts and tool arguments', () => {
    const t1 = section(html, 't-1');
    expect(t1).toContain('<mark class="pii pii-EMAIL" title="EMAIL">[REDACTED_EMAIL]</mark>');
    expect(t1).toContain('<mark class="pii pii-PHONE" title="PHONE">[REDACTED_PHONE]</mark>');
    expect(t1).toContain(
      '{&quot;email&quot;:&quot;<mark class="pii pii-EMAIL" title="EMAIL">[REDACTED_EMAIL]</mark>',
    );
    expect(t1).toContain('<span class="part-type">image</span>');
    expect(t1).toContain('<span class="call-name">&lt;script&gt;alert(1)&lt;/script&gt;</span>');
  });

  it('draws the budget bar from the context by kind, the rest free', () => {
    const t1 = section(html, 't-1');
    expect(t1).toContain('class="budget-bar"');
    expect(t1).toContain('180 / 1,000 tokens (18%)');
    const segs = [
      ...t1.matchAll(/class="budget-seg kind-([a-z]+)" style="width:([\d.]+)%" title="([^"]*)"/g),
    ];
    expect(segs.map((m) => m[1])).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(segs.map((m) => Number(m[2]))).toEqual([6, 3, 3, 6]);
    expect(segs[0]?.[3]).toBe('system: 60 tokens (6% of the budget)');
    const free = /class="budget-free" style="width:([\d.]+)%"/.exec(t1);
    expect(Number(free?.[1])).toBeCloseTo(82, 5);
  });

  it('marks the rows a check points at and offers a filter per check', () => {
    const t1 = section(html, 't-1');
    expect(t1).toMatch(
      /<li class="artifact fate-masked has-violations" id="t-1-a-2" data-fate="masked" data-id="u1" data-checks="pii">/,
    );
    expect(t1).toMatch(/data-id="old" data-checks="budget"/);
    expect(count(t1, /data-checks=/)).toBe(3);
    expect(html).toContain('<input type="checkbox" data-filter-check="*">');
    expect(html).toContain('<input type="checkbox" data-filter-check="budget">');
    expect(html).toContain('<input type="checkbox" data-filter-check="pii">');
    for (const fate of MAP_FATES) expect(html).toContain(`data-filter-fate="${fate}" checked`);
    // Violations list with links to the rows, and the notes.
    expect(t1).toContain('<a href="#t-1-a-2"><code>u1</code></a>');
    expect(t1).toContain('leaked &lt;script&gt;');
    expect(t1).toContain(
      '<ul class="notes"><li>policy changed &lt;script&gt;alert(1)&lt;/script&gt;</li></ul>',
    );
  });

  it('shows a drift as a semantic diff and the two contexts side by side', () => {
    const t2 = section(html, 't-2');
    expect(t2).toContain('data-outcome="drift"');
    expect(t2).toContain('Cause: policy changed');
    expect(t2).toContain('class="grid diff-fates"');
    expect(t2).toContain('Content changed: <a href="#t-2-a-2"><code>u1</code></a> (line 2)');
    expect(t2).toContain('<div class="block sbs changes-only">');
    expect(t2).toMatch(/<tr class="sbs-row changed" data-id="u1">/);
    expect(t2).toMatch(/<tr class="sbs-row only-head" data-id="r2"><td class="sbs-cell sbs-stored absent">/);
    expect(t2).toMatch(
      /<tr class="sbs-row only-stored" data-id="gone">.*<td class="sbs-cell sbs-head absent">/,
    );
    expect(t2).toMatch(/<tr class="sbs-row same" data-id="sys">/);
    expect(t2).toMatch(/<li class="artifact fate-masked changed"/);
  });

  it('shows an unreadable transcript by its diagnostics, without a timeline', () => {
    const t3 = section(html, 't-3');
    expect(t3).toContain('data-outcome="error"');
    expect(t3).toContain('<code>hand/broken.json:3:7</code>');
    expect(t3).toContain('json-syntax');
    expect(t3).toContain('Unexpected &lt;/script&gt;');
    expect(t3).toContain('Fix the JSON.');
    expect(t3).not.toContain('class="timeline"');
    expect(t3).not.toContain('budget-bar');
  });

  it('heads the page with the totals and lists the transcripts in the order given', () => {
    expect(html).toContain('<h1>3 transcripts checked: 3 failing, 1 warning</h1>');
    expect(html).toMatch(/<span class="n">1<\/span><span class="w">with violations<\/span>/);
    expect(html).toMatch(/<span class="n">1<\/span><span class="w">drifted<\/span>/);
    expect(html).toMatch(/<span class="n">1<\/span><span class="w">unreadable<\/span>/);
    // Findings by severity: the pii and budget errors, the budget warning.
    expect(html).toMatch(/<span class="n">2<\/span><span class="w">errors<\/span>/);
    expect(html).toMatch(/<span class="n">1<\/span><span class="w">warning<\/span>/);
    expect(section(html, 't-1')).toContain('9 artifacts · 2 errors, 1 warning</span>');
    expect(html).toContain('o200k_base 4.0.0');
    expect(html).toContain('context-stability 1.2.3');
    const nav = /<nav class="toc"[^]*?<\/nav>/.exec(html)?.[0] ?? '';
    expect([...nav.matchAll(/href="#(t-\d+)"/g)].map((m) => m[1])).toEqual(['t-1', 't-2', 't-3']);
    expect([...html.matchAll(/<section class="transcript" id="(t-\d+)"/g)].map((m) => m[1])).toEqual([
      't-1',
      't-2',
      't-3',
    ]);
  });
});

describe('renderViewHtml: helpers and the script', () => {
  it('escapes the five HTML characters and the colon of ://', () => {
    expect(escapeHtml(`<a href="x">'&'</a> https://e.org`)).toBe(
      '&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt; https&#58;//e.org',
    );
  });

  it('formats counts without a locale', () => {
    expect([0, 999, 1000, 5210, 1234567, -1500].map(formatCount)).toEqual([
      '0',
      '999',
      '1,000',
      '5,210',
      '1,234,567',
      '−1,500',
    ]);
  });

  it('finds masked spans by any replacement template', () => {
    const find = (template: string, text: string) =>
      [...text.matchAll(maskPattern(template) ?? /$^/g)].map((m) => [m[0], m[1]]);
    expect(find('[REDACTED_{TYPE}]', 'a [REDACTED_EMAIL] b [REDACTED_IP_ADDRESS]')).toEqual([
      ['[REDACTED_EMAIL]', 'EMAIL'],
      ['[REDACTED_IP_ADDRESS]', 'IP_ADDRESS'],
    ]);
    expect(find('<{TYPE}>', 'x <PHONE> <phone> <EMPLOYEE_ID>')).toEqual([
      ['<PHONE>', 'PHONE'],
      ['<EMPLOYEE_ID>', 'EMPLOYEE_ID'],
    ]);
    expect(find('(*{TYPE}*)|{TYPE}', '(*SSN*)|SSN (*SSN*)|IBAN')).toEqual([['(*SSN*)|SSN', 'SSN']]);
    expect(find('***', 'a *** b')).toEqual([['***', undefined]]);
    expect(maskPattern('')).toBeNull();
  });

  it('never builds markup from data in the script and never fetches', () => {
    for (const banned of [
      'innerHTML',
      'outerHTML',
      'insertAdjacentHTML',
      'document.write',
      'eval(',
      'fetch',
      'XMLHttpRequest',
      'http',
    ]) {
      expect(PAGE_SCRIPT).not.toContain(banned);
    }
  });
});

describe('renderViewHtml: the bundled examples through the real pipeline', () => {
  let doc: ViewDocument;
  let html: string;
  beforeAll(async () => {
    doc = await exampleDocument();
    html = renderViewHtml(doc);
  });

  it('renders a section per transcript, failing first, deterministically', async () => {
    expect(renderViewHtml(await exampleDocument())).toBe(html);
    expect(count(html, /<section class="transcript"/)).toBe(doc.transcripts.length);
    expect(doc.transcripts.length).toBeGreaterThanOrEqual(8);
    const outcomes = [
      ...html.matchAll(/<section class="transcript" id="t-\d+" data-outcome="([a-z]+)"/g),
    ].map((m) => m[1]);
    expect(outcomes.slice(0, 3)).toEqual(['violations', 'drift', 'error']);
    expect(outcomes.slice(3).every((o) => o === 'pass')).toBe(true);
    for (const t of doc.transcripts) expect(html).toContain(escapeHtml(t.outcome.transcript));
  });

  it('has a row per ledger entry with its fate, and every fate occurs', () => {
    const ledger = doc.transcripts.flatMap((t) => t.head?.ledger ?? []);
    expect(count(html, /<li class="artifact /)).toBe(ledger.length);
    for (const fate of MAP_FATES) {
      expect(count(html, new RegExp(`<li class="artifact fate-${fate}[ "]`))).toBe(
        ledger.filter((e) => mapFate(e) === fate).length,
      );
    }
  });

  it('draws each budget bar from the context by kind', () => {
    for (const [i, t] of doc.transcripts.entries()) {
      if (!t.head) continue;
      const s = section(html, `t-${i + 1}`);
      const widths = [...s.matchAll(/class="budget-seg kind-[a-z]+" style="width:([\d.]+)%"/g)].map((m) =>
        Number(m[1]),
      );
      const free = Number(/class="budget-free" style="width:([\d.]+)%"/.exec(s)?.[1] ?? 0);
      expect(widths.length).toBeGreaterThan(0);
      expect(widths.reduce((a, b) => a + b, 0) + free).toBeCloseTo(100, 1);
      const { used, limit } = t.head.budget;
      expect(s).toContain(
        `${formatCount(used)} / ${formatCount(limit)} tokens (${Math.round((used / limit) * 100)}%)`,
      );
      expect(s.includes('class="budget-bar over"')).toBe(used > limit);
    }
  });

  it('highlights the masked PII of the examples and never shows the raw canaries', () => {
    // The repo's policy numbers values (pii.strategy numbered): each alias is marked by its type.
    expect(html).toContain('<mark class="pii pii-EMAIL" title="EMAIL">[EMAIL_1]</mark>');
    expect(html).toContain('<mark class="pii pii-CREDIT_CARD" title="CREDIT_CARD">[CREDIT_CARD_1]</mark>');
    expect(html).toContain('<mark class="pii pii-PHONE" title="PHONE">[PHONE_1]</mark>');
    for (const canary of CANARIES) {
      expect(canaryInput().text).toContain(canary);
      expect(html).not.toContain(canary);
      expect(html).not.toContain(escapeHtml(canary));
    }
    // The raw PII of the bundled support session (its README lists it) stays out too.
    expect(html).not.toMatch(/4111[ -]?1111[ -]?1111[ -]?1111/);
  });

  it('says why a pass whose golden differs only in metadata is not drift', () => {
    const i = doc.transcripts.findIndex((t) => t.outcome.transcript.endsWith('parallel-tools.openai.json'));
    const s = section(html, `t-${i + 1}`);
    expect(s).toContain('data-outcome="pass"');
    expect(s).toContain('<ul class="notes"><li>policy changed; this context is unchanged</li></ul>');
    const drift = section(html, `t-${doc.transcripts.findIndex((t) => t.outcome.outcome === 'drift') + 1}`);
    expect(drift).toMatch(
      /<p>First change: <a href="#t-\d+-a-\d+"><code>[0-9a-f-]+<\/code><\/a> \(line 3\)<\/p>/,
    );
  });

  it('holds no URL, no script but its own, and no content outside the goldens', () => {
    expect(html).not.toMatch(/https?:\/\//i);
    expect(count(html, /<script/)).toBe(1);
    // URLs in the content are still there to read, with their colon as an entity.
    expect(html).toContain('https&#58;//');
  });
});

describe('renderViewHtml: a long session', () => {
  it('renders 2,000 artifacts quickly, each content collapsed', async () => {
    const setup = await policySetup();
    const doc = viewDocument(setup, [longSessionInput(2000)]);
    expect(doc.transcripts[0]?.head?.ledger).toHaveLength(2000);
    const start = performance.now();
    const html = renderViewHtml(doc);
    expect(performance.now() - start).toBeLessThan(5000);
    expect(count(html, /<li class="artifact /)).toBe(2000);
    expect(count(html, /<details class="a-content" open/)).toBe(0);
    expect(count(html, /<li class="artifact fate-dropped/)).toBeGreaterThan(1000);
  });
});
