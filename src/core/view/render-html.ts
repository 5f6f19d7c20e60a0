// The viewer page (`view`, `check --html`): one self-contained HTML file for a whole run. Every
// transcript with its outcome, findings, budget bar, the fate of each artifact along the session
// with the masked content the model receives, and for a drift the stored context beside the new
// one. Pure and deterministic; built from the goldens only (already masked), every input string
// escaped, no URL anywhere: the inline script only toggles classes and attributes.
import { outcomeFails } from '../golden/check-report.js';
import type { ReportViolation, TranscriptOutcome } from '../golden/check-report.js';
import type { Golden } from '../golden/golden.js';
import { MAP_FATES, mapFate } from '../golden/picture.js';
import type { MapFate } from '../golden/picture.js';
import type { ContextItem, LedgerEntry } from '../stabilize/types.js';
import {
  esc,
  token,
  formatCount,
  plural,
  percent,
  width,
  maskOf,
  maskedCounts,
  contentDetails,
  kindHtml,
  firstById,
} from './html-text.js';
import type { Mask } from './html-text.js';
import { absentKind, kindWords } from './absent.js';
import type { AbsentArtifact } from './absent.js';
import { reasonTitle, reasonWords } from './reasons.js';
import { findingsHtml, violationHtml, diagnosticHtml, diffHtml, sideBySideHtml } from './diff-html.js';
import { lostFactsHtml } from './retention-html.js';
import { ARTIFACT_KINDS } from '../types.js';
import type { ViewDocument, ViewTranscript } from './model.js';
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

const FATE_MEANING: Record<MapFate, string> = {
  kept: 'as it was',
  protected: 'held by a protection rule',
  masked: 'PII or fields masked, in this run or before recording',
  excerpt: 'cut short, or a placeholder',
  dropped: 'left out',
};

function inTranscriptOrder(ledger: readonly LedgerEntry[]): LedgerEntry[] {
  return ledger
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.line - b.entry.line || a.index - b.index)
    .map(({ entry }) => entry);
}

/** What a transcript's rows share. */
interface Rows {
  tid: string;
  mask: Mask;
  items: Map<string, ContextItem>;
  violations: Map<string, ReportViolation[]>;
  changed: Set<string>;
  /** artifact id → the id of its timeline row (the first one). */
  anchors: Map<string, string>;
  /** Kind and size of the artifacts not in the context, when the run gave them. */
  absent: Map<string, AbsentArtifact>;
  /** The stored golden's context (a dropped artifact's kind when it was there), and summary ids. */
  stored: Map<string, ContextItem>;
  summaries: Set<string>;
}

/**
 * How a row fares on the page. Its fate is the ledger's (mapFate), except that an artifact kept
 * as it was (protected or not) whose text holds spans masked before recording (placeholders the
 * recording already had: found beyond what this run masked, entry.pii) is `masked`, as one this
 * run masked is: what the model reads of it is masked text. `before`: those spans by type.
 */
interface RowFate {
  fate: MapFate;
  before: [string, number][];
}

function rowFate(entry: LedgerEntry, item: ContextItem | undefined, mask: Mask): RowFate {
  const fate = mapFate(entry);
  if (!item || fate === 'dropped' || mask.length === 0) return { fate, before: [] };
  const masked = new Map<string, number>();
  for (const [type, n] of Object.entries(entry.pii ?? {})) masked.set(token(type.toUpperCase()), n);
  const before: [string, number][] = [];
  for (const [type, n] of [...maskedCounts(item, mask)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const extra = n - (masked.get(type) ?? 0);
    if (extra > 0) before.push([type, extra]);
  }
  const kept = fate === 'kept' || fate === 'protected';
  return { fate: kept && before.length > 0 ? 'masked' : fate, before };
}

/** The reason of a ledger entry in plain words, its exact name and meaning on hover. */
function reasonHtml(entry: Pick<LedgerEntry, 'action' | 'reason'>): string {
  const words = reasonWords(entry.action, entry.reason).words;
  return `<span class="a-reason" title="${esc(reasonTitle(entry.action, entry.reason))}">${esc(entry.action)}: ${esc(words)}</span>`;
}

/** An absent artifact's kind, from the run's facts or the goldens; `kind not recorded` without. */
function absentKindHtml(rows: Rows, entry: LedgerEntry): string {
  const facts = rows.absent.get(entry.id);
  const known = facts ?? absentKind(entry, rows.summaries, rows.stored);
  if (!known)
    return '<span class="a-kind unknown" title="the goldens keep no kind for it">kind not recorded</span>';
  return `<span class="a-kind"><span class="k kind-${token(known.kind)}"></span>${esc(kindWords(known.kind, known.calls))}</span>`;
}

/** An absent artifact's size: its tokens before, else its characters and lines. */
function absentSizeHtml(rows: Rows, entry: LedgerEntry): string {
  if (entry.tokens_before !== null)
    return `<span class="a-tokens" title="tokens before it left the context">${plural(entry.tokens_before, 'token')}</span>`;
  const facts = rows.absent.get(entry.id);
  if (!facts)
    return '<span class="a-tokens" title="left out before it was counted; the goldens keep no size for it">size not counted</span>';
  const size = facts.chars > 0 ? `${plural(facts.chars, 'char')}, ${plural(facts.lines, 'line')}` : 'no text';
  return `<span class="a-tokens" title="left out before its tokens were counted: its size in characters and lines">${size}</span>`;
}

function rowHtml(rows: Rows, entry: LedgerEntry, index: number): string {
  const gone = mapFate(entry) === 'dropped';
  const item = gone ? undefined : rows.items.get(entry.id);
  const { fate, before: premasked } = rowFate(entry, item, rows.mask);
  const found = rows.violations.get(entry.id) ?? [];
  const checks = [...new Set(found.map((v) => token(v.check)))].sort();
  const classes = ['artifact', `fate-${fate}`];
  if (found.length > 0) classes.push('has-violations');
  if (rows.changed.has(entry.id)) classes.push('changed');
  const before = entry.tokens_before === null ? '?' : formatCount(entry.tokens_before);
  const tags: string[] = [];
  if (entry.protected_by && entry.protected_by.length > 0)
    tags.push(`<span class="tag t-protected">protected by ${esc(entry.protected_by.join(', '))}</span>`);
  for (const [type, n] of Object.entries(entry.pii ?? {}))
    tags.push(
      `<span class="tag t-pii" title="masked by this run">${esc(type.toUpperCase())} ×${formatCount(n)}</span>`,
    );
  for (const [type, n] of premasked)
    tags.push(
      `<span class="tag t-pii t-premasked" title="already masked in the recording">${esc(type)} ×${formatCount(n)} before recording</span>`,
    );
  if (entry.duplicate_of !== undefined)
    tags.push(`<span class="tag">duplicate of ${esc(entry.duplicate_of)}</span>`);
  if (item?.is_error) tags.push('<span class="tag t-error">error result</span>');
  if (item?.placeholder) tags.push('<span class="tag">placeholder</span>');
  if (item?.call_id !== undefined) tags.push(`<span class="tag">call ${esc(item.call_id)}</span>`);
  for (const note of entry.emit ?? []) tags.push(`<span class="tag">${esc(note)}</span>`);
  return [
    `<li class="${classes.join(' ')}" id="${rows.tid}-a-${index + 1}" data-fate="${fate}" data-id="${esc(entry.id)}"${checks.length > 0 ? ` data-checks="${checks.join(' ')}"` : ''}${premasked.length > 0 ? ' data-premasked' : ''}>`,
    '<div class="a-row">',
    `<span class="a-line">${entry.line}</span>`,
    `<span class="a-id"><code>${esc(entry.id)}</code></span>`,
    gone ? absentKindHtml(rows, entry) : kindHtml(item),
    `<span class="a-fate" title="stage ${esc(entry.stage)}"><span class="fate-chip fate-${fate}">${fate}</span>${reasonHtml(entry)}</span>`,
    gone
      ? absentSizeHtml(rows, entry)
      : `<span class="a-tokens" title="tokens before → after">${before} → ${formatCount(entry.tokens_after)}</span>`,
    '</div>',
    tags.length > 0 ? `<div class="a-tags">${tags.join('')}</div>` : '',
    entry.detail !== undefined ? `<p class="a-detail">${esc(entry.detail)}</p>` : '',
    found.length > 0
      ? `<ul class="a-violations">${found.map((v) => `<li><span class="v-check">${esc(v.check)}</span> ${esc(v.severity)}: ${esc(v.message)}</li>`).join('')}</ul>`
      : '',
    item ? contentDetails(item, rows.mask, false) : '<p class="a-absent">not in the context</p>',
    '</li>',
  ].join('');
}

function timelineHtml(rows: Rows, head: Golden): string {
  const entries = inTranscriptOrder(head.ledger);
  const body = entries.map((entry, i) => rowHtml(rows, entry, i)).join('\n');
  const actions =
    '<span class="h-actions"><button type="button" class="btn" data-action="expand-content">Expand content</button><button type="button" class="btn" data-action="collapse-content">Collapse content</button></span>';
  return [
    `<div class="block timeline-block"><h3>Timeline <span class="shown" data-shown>${plural(entries.length, 'artifact')}</span>${actions}</h3>`,
    '<div class="timeline-head" aria-hidden="true"><span>line</span><span>id</span><span>kind</span><span>fate</span><span style="text-align:right">tokens</span></div>',
    `<ol class="timeline">\n${body}\n</ol></div>`,
  ].join('');
}

function budgetHtml(head: Golden): string {
  const byKind = new Map<string, number>();
  for (const item of head.context) byKind.set(item.kind, (byKind.get(item.kind) ?? 0) + item.tokens);
  const known: readonly string[] = ARTIFACT_KINDS;
  const kinds = [
    ...known.filter((k) => byKind.has(k)),
    ...[...byKind.keys()].filter((k) => !known.includes(k)).sort(),
  ];
  const inItems = [...byKind.values()].reduce((a, b) => a + b, 0);
  const { limit, used } = head.budget;
  const overhead = Math.max(0, used - inItems);
  const scale = Math.max(limit, used, inItems);
  const segs = kinds.map((k) => [k, byKind.get(k) ?? 0] as const);
  if (overhead > 0) segs.push(['overhead', overhead]);
  const over = used > limit;
  const bar = segs
    .map(
      ([k, n]) =>
        `<span class="budget-seg kind-${token(k)}" style="width:${width(n, scale)}" title="${esc(k)}: ${plural(n, 'token')} (${percent(n, limit)} of the budget)"></span>`,
    )
    .join('');
  const free = limit - Math.max(used, inItems);
  const freeSeg =
    free > 0
      ? `<span class="budget-free" style="width:${width(free, scale)}" title="free: ${plural(free, 'token')}"></span>`
      : '';
  const limitMark = over
    ? `<span class="budget-limit" style="left:${width(limit, scale)}" title="the budget: ${plural(limit, 'token')}"></span>`
    : '';
  const label = `${formatCount(used)} / ${formatCount(limit)} tokens (${percent(used, limit)})`;
  const keys = segs
    .map(([k, n]) => `<li><span class="swatch kind-${token(k)}"></span>${esc(k)} ${formatCount(n)}</li>`)
    .join('');
  return [
    '<div class="block budget"><h3>Budget</h3>',
    `<div class="budget-label"><strong>${label}</strong>${over ? `<span class="over">over the budget by ${plural(used - limit, 'token')}</span>` : ''}</div>`,
    `<div class="budget-bar${over ? ' over' : ''}" role="img" aria-label="${esc(label)}">${bar}${freeSeg}${limitMark}</div>`,
    `<ul class="budget-keys">${keys}</ul></div>`,
  ].join('');
}

function badge(o: TranscriptOutcome, ci: boolean): string {
  const warn = o.outcome === 'drift' && o.drift_severity === 'warning';
  const text = o.outcome === 'new' && ci ? 'missing golden' : warn ? 'drift (warning)' : o.outcome;
  return `<span class="badge outcome-${token(o.outcome)}${warn ? ' is-warning' : ''}">${esc(text)}</span>`;
}

/** A transcript name that may wrap after each `/`. */
function nameHtml(name: string): string {
  return esc(name).replace(/\//g, '/<wbr>');
}

function transcriptHtml(doc: ViewFrame, t: ViewTranscript, index: number, mask: Mask): string {
  const o = t.outcome;
  const tid = `t-${index + 1}`;
  const head = t.head;
  const anchors = new Map<string, string>();
  const entries = head ? inTranscriptOrder(head.ledger) : [];
  entries.forEach((e, i) => {
    if (!anchors.has(e.id)) anchors.set(e.id, `${tid}-a-${i + 1}`);
  });
  const link = (id: string): string => {
    const anchor = anchors.get(id);
    return anchor ? `<a href="#${anchor}"><code>${esc(id)}</code></a>` : `<code>${esc(id)}</code>`;
  };
  const violations = new Map<string, ReportViolation[]>();
  for (const v of o.violations) violations.set(v.id, [...(violations.get(v.id) ?? []), v]);
  const changed = new Set([
    ...(o.diff?.fates ?? []).map((f) => f.id),
    ...(o.diff?.contentChanged ?? []).map((c) => c.id),
  ]);
  const notes = o.notes ?? [];
  const budget = head?.budget ?? o.budget;
  const meta = [
    o.status ? `status ${esc(o.status)}` : '',
    budget ? `${formatCount(budget.used)} / ${formatCount(budget.limit)} tokens` : '',
    head ? plural(head.ledger.length, 'artifact') : '',
    findingCounts(o.violations),
  ].filter((s) => s !== '');
  const open = o.outcome !== 'pass' || index === 0;
  const parts = [
    `<section class="transcript" id="${tid}" data-outcome="${token(o.outcome)}" data-transcript="${esc(o.transcript)}">`,
    `<details class="transcript-box"${open ? ' open' : ''}><summary>${badge(o, doc.ci)}<h2>${nameHtml(o.transcript)}</h2><span class="t-meta">${meta.join(' · ')}</span></summary>`,
    '<div class="transcript-body">',
    notes.length > 0 ? `<ul class="notes">${notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul>` : '',
    findingsHtml('Diagnostics', (o.diagnostics ?? []).map(diagnosticHtml)),
    findingsHtml(
      'Violations',
      o.violations.map((v) => violationHtml(v, link)),
    ),
    lostFactsHtml(o.retention, link),
    o.outcome === 'drift' && o.diff ? diffHtml(o.diff, link) : '',
    head ? budgetHtml(head) : '',
    o.outcome === 'drift' && head && t.stored ? sideBySideHtml(t.stored, head, changed, mask) : '',
    head
      ? timelineHtml(
          {
            tid,
            mask,
            items: firstById(head.context),
            violations,
            changed,
            anchors,
            absent: firstById(t.absent ?? []),
            stored: firstById(t.stored?.context ?? []),
            summaries: new Set(head.summaries.map((s) => s.id)),
          },
          head,
        )
      : '',
    '</div></details></section>',
  ];
  return parts.join('\n');
}

/**
 * What the page's navigation and filters need of one transcript: its outcome, its head golden's
 * tokens, and counts over its ledger. Small: a page of any size holds one per transcript while
 * the transcripts' goldens are read one at a time (`viewPageParts`).
 */
export interface ViewLine {
  outcome: TranscriptOutcome;
  /** The head golden's budget; null without one. */
  tokens: { used: number; limit: number } | null;
  /** Ledger entries by fate. */
  fates: Record<MapFate, number>;
  /** Ledger entries with a violation. */
  flagged: number;
  /** Ledger entries with a violation of each check (token), in first-seen order. */
  checks: [string, number][];
  /** Rows of fate masked whose text holds spans masked before recording (rowFate). */
  premasked: number;
  /** The ledger's `action reason` pairs, in first-seen order (the page's glossary). */
  reasons: string[];
}

/** One transcript's line; `replacement` is the policy's template (ViewDocument.replacement). */
export function viewLine(t: ViewTranscript, replacement: string): ViewLine {
  const fates = Object.fromEntries(MAP_FATES.map((f) => [f, 0])) as Record<MapFate, number>;
  const checks = new Map<string, number>();
  const reasons = new Set<string>();
  let flagged = 0;
  let premasked = 0;
  const ids = new Map<string, Set<string>>();
  for (const v of t.outcome.violations) ids.set(v.id, (ids.get(v.id) ?? new Set()).add(token(v.check)));
  const mask = maskOf(replacement);
  const items = firstById(t.head?.context ?? []);
  for (const entry of t.head?.ledger ?? []) {
    const original = mapFate(entry);
    const { fate, before } = rowFate(entry, original === 'dropped' ? undefined : items.get(entry.id), mask);
    fates[fate] += 1;
    if (fate === 'masked' && before.length > 0) premasked++;
    reasons.add(`${entry.action} ${entry.reason}`);
    const found = ids.get(entry.id);
    if (!found) continue;
    flagged++;
    for (const c of found) checks.set(c, (checks.get(c) ?? 0) + 1);
  }
  const tokens = t.head ? { used: t.head.budget.used, limit: t.head.budget.limit } : null;
  return {
    outcome: t.outcome,
    tokens,
    fates,
    flagged,
    checks: [...checks],
    premasked,
    reasons: [...reasons],
  };
}

/** Violations by severity in plain words: `1 error, 2 warnings` ('' for none). */
function findingCounts(violations: readonly ReportViolation[]): string {
  const by = new Map<string, number>();
  for (const v of violations) by.set(v.severity, (by.get(v.severity) ?? 0) + 1);
  const others = [...by.keys()].filter((k) => k !== 'error' && k !== 'warning').sort();
  return ['error', 'warning', ...others]
    .filter((k) => by.has(k))
    .map((k) => plural(by.get(k) ?? 0, esc(k)))
    .join(', ');
}

/** The page's glossary: each ledger reason on the page in plain words, its exact name and meaning. */
function glossaryHtml(lines: readonly ViewLine[]): string {
  const pairs = new Set<string>();
  for (const line of lines) for (const r of line.reasons) pairs.add(r);
  if (pairs.size === 0) return '';
  const rows = [...pairs].sort().map((pair) => {
    const [action = '', reason = ''] = pair.split(' ');
    const { words, meaning } = reasonWords(action, reason);
    return `<div><dt>${esc(action)}: ${esc(words)}</dt><dd><code>${esc(reason)}</code> ${esc(meaning)}</dd></div>`;
  });
  return `<details class="glossary"><summary>What the reasons mean (${formatCount(pairs.size)})</summary><dl>${rows.join('')}</dl></details>`;
}

function filtersHtml(lines: readonly ViewLine[]): string {
  const fates = new Map<MapFate, number>(MAP_FATES.map((f) => [f, 0]));
  const checks = new Map<string, number>();
  let flagged = 0;
  let premasked = 0;
  for (const line of lines) {
    for (const f of MAP_FATES) fates.set(f, (fates.get(f) ?? 0) + line.fates[f]);
    flagged += line.flagged;
    premasked += line.premasked;
    for (const [c, n] of line.checks) checks.set(c, (checks.get(c) ?? 0) + n);
  }
  const chip = (
    attr: string,
    value: string,
    label: string,
    n: number,
    on: boolean,
    dot: string,
    after = '',
  ): string =>
    `<label class="chip"><input type="checkbox" ${attr}="${value}"${on ? ' checked' : ''}${n === 0 && !on ? ' disabled' : ''}>${dot}${label} <span class="count">${formatCount(n)}</span>${after}</label>`;
  // Which count is which when some text was masked before recording: `masked 3 (2 before recording)`.
  const after = (f: MapFate): string =>
    f === 'masked' && premasked > 0
      ? ` <span class="count-of" title="rows whose text was already masked in the recording">(${formatCount(premasked)} before recording)</span>`
      : '';
  const fateChips = MAP_FATES.map((f) =>
    chip('data-filter-fate', f, f, fates.get(f) ?? 0, true, `<span class="dot fate-${f}"></span>`, after(f)),
  );
  const checkChips = [
    chip('data-filter-check', '*', 'any violation', flagged, false, ''),
    ...[...checks.keys()]
      .sort()
      .map((c) => chip('data-filter-check', c, esc(c), checks.get(c) ?? 0, false, '')),
  ];
  const total = [...fates.values()].reduce((a, b) => a + b, 0);
  return [
    '<div class="filters" role="region" aria-label="Filter the timelines">',
    `<fieldset class="filter-group"><legend>Fate</legend>${fateChips.join('')}</fieldset>`,
    `<fieldset class="filter-group"><legend>Only violations of</legend>${checkChips.join('')}</fieldset>`,
    '<div class="filter-actions"><button type="button" class="btn" data-action="reset-filters">Reset filters</button><button type="button" class="btn" data-action="expand-all">Open all transcripts</button><button type="button" class="btn" data-action="collapse-all">Close all</button></div>',
    `<p class="filter-status" data-filter-status aria-live="polite">Showing all ${plural(total, 'artifact')}.</p>`,
    '</div>',
    `<div class="legend">${MAP_FATES.map((f) => `<span><span class="dot fate-${f}"></span><strong>${f}</strong> ${FATE_MEANING[f]}</span>`).join('')}</div>`,
    glossaryHtml(lines),
  ].join('');
}

/** Findings of the whole run: violations at severity error, and warnings (with warning drifts). */
function runFindings(lines: readonly ViewLine[]): { errors: number; warnings: number } {
  let errors = 0;
  let warnings = 0;
  for (const { outcome: o } of lines) {
    for (const v of o.violations) {
      if (v.severity === 'error') errors++;
      else if (v.severity === 'warning') warnings++;
    }
    if (o.outcome === 'drift' && o.drift_severity === 'warning') warnings++;
  }
  return { errors, warnings };
}

/** `2 failing, 1 warning`, `no failures, 1 warning`, `all good`. */
function verdict(failing: number, warnings: number): string {
  const warned = warnings > 0 ? plural(warnings, 'warning') : '';
  if (failing > 0) return [`${formatCount(failing)} failing`, warned].filter((w) => w !== '').join(', ');
  return warned !== '' ? `no failures, ${warned}` : 'all good';
}

function headerHtml(doc: ViewFrame, lines: readonly ViewLine[], failing: number): string {
  const s = doc.summary;
  const found = runFindings(lines);
  const total = (n: number, word: string, tone: string): string =>
    `<li class="total${n > 0 ? ` ${tone}` : ''}"><span class="n">${formatCount(n)}</span><span class="w">${word}</span></li>`;
  const meta = [
    ['Policy', `${esc(doc.policy.source)} <code>${esc(doc.policy.hash)}</code>`],
    ['Tokenizer', `${esc(doc.tokenizer.name)} ${esc(doc.tokenizer.version)}`],
    ['Tool', `${esc(doc.tool.name)} ${esc(doc.tool.version)}`],
    ['Mode', doc.ci ? 'CI' : 'local'],
  ];
  return [
    '<header class="page-head"><div class="brand">context-stability · context viewer</div>',
    `<h1>${plural(s.checked, 'transcript')} checked: ${verdict(failing, found.warnings)}</h1>`,
    '<ul class="totals">',
    total(s.violations, 'with violations', 'hot'),
    total(s.drift, 'drifted', 'hot'),
    total(s.new, 'new', doc.ci ? 'hot' : 'warm'),
    total(s.errors, 'unreadable', 'hot'),
    total(s.pass, 'passed', 'good'),
    s.obsolete > 0 ? total(s.obsolete, 'obsolete goldens', 'warm') : '',
    // Findings by severity: a warning never hides behind a pass.
    total(found.errors, found.errors === 1 ? 'error' : 'errors', 'hot'),
    total(found.warnings, found.warnings === 1 ? 'warning' : 'warnings', 'warm'),
    '</ul>',
    `<dl class="run-meta">${meta.map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('')}</dl>`,
    '</header>',
  ].join('');
}

function navHtml(doc: ViewFrame, lines: readonly ViewLine[]): string {
  const items = lines.map((t, i) => {
    const o = t.outcome;
    const meta = [
      findingCounts(o.violations),
      o.outcome === 'drift' && o.diff
        ? plural(o.diff.fates.length + o.diff.contentChanged.length, 'change')
        : '',
      t.tokens ? `${formatCount(t.tokens.used)} / ${formatCount(t.tokens.limit)} tokens` : '',
    ].filter((s) => s !== '');
    return `<li><a href="#t-${i + 1}">${badge(o, doc.ci)}<span class="toc-name">${nameHtml(o.transcript)}</span><span class="toc-meta">${meta.join(' · ')}</span></a></li>`;
  });
  return `<nav class="toc" aria-label="Transcripts"><h2>Transcripts</h2><ol>${items.join('')}</ol></nav>`;
}

/** The page's run-wide part: a ViewDocument without its transcripts. */
export type ViewFrame = Omit<ViewDocument, 'transcripts'>;

/**
 * The page in parts, for a writer that must not hold it whole (issue 32: thousands of drifted
 * transcripts outgrew V8's longest string): the head (header, navigation and filters, from the
 * lines of every transcript), then `section(t, i)` for each transcript in order, then the tail.
 * head + sections + tail is renderViewHtml's page, byte for byte.
 */
export interface ViewPageParts {
  head: string;
  section(t: ViewTranscript, index: number): string;
  tail: string;
}

export function viewPageParts(frame: ViewFrame, lines: readonly ViewLine[]): ViewPageParts {
  const mask = maskOf(frame.replacement);
  const failing = lines.filter((t) => outcomeFails(t.outcome, frame.ci)).length;
  const title = `Context check: ${plural(frame.summary.checked, 'transcript')}${failing > 0 ? `, ${formatCount(failing)} failing` : ''}`;
  const head = [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<link rel="icon" href="data:,">',
    `<title>${esc(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head><body>',
    headerHtml(frame, lines, failing),
    '<div class="layout">',
    navHtml(frame, lines),
    '<main>',
    filtersHtml(lines),
    '',
  ].join('\n');
  const tail = [
    '',
    lines.length === 0 ? '<p>No transcripts were checked.</p>' : '',
    '</main></div>',
    `<footer class="foot">Made by ${esc(frame.tool.name)} ${esc(frame.tool.version)} from the goldens of this run: the masked context each model receives, never the raw transcripts.</footer>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
  return {
    head,
    // Sections are separated by a line break: the first comes right after the head.
    section: (t, index) => `${index > 0 ? '\n' : ''}${transcriptHtml(frame, t, index, mask)}`,
    tail,
  };
}

/** The whole page: same document in, same bytes out. */
export function renderViewHtml(doc: ViewDocument): string {
  const { transcripts, ...frame } = doc;
  const parts = viewPageParts(
    frame,
    transcripts.map((t) => viewLine(t, frame.replacement)),
  );
  return [parts.head, ...transcripts.map((t, i) => parts.section(t, i)), parts.tail].join('');
}

export { escapeHtml, formatCount, maskPattern } from './html-text.js';
