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
  maskPattern,
  contentDetails,
  kindHtml,
  firstById,
} from './html-text.js';
import type { Mask } from './html-text.js';
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
  masked: 'PII or fields masked',
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
}

function rowHtml(rows: Rows, entry: LedgerEntry, index: number): string {
  const fate = mapFate(entry);
  const item = fate === 'dropped' ? undefined : rows.items.get(entry.id);
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
    tags.push(`<span class="tag t-pii">${esc(type.toUpperCase())} ×${formatCount(n)}</span>`);
  if (entry.duplicate_of !== undefined)
    tags.push(`<span class="tag">duplicate of ${esc(entry.duplicate_of)}</span>`);
  if (item?.is_error) tags.push('<span class="tag t-error">error result</span>');
  if (item?.placeholder) tags.push('<span class="tag">placeholder</span>');
  if (item?.call_id !== undefined) tags.push(`<span class="tag">call ${esc(item.call_id)}</span>`);
  for (const note of entry.emit ?? []) tags.push(`<span class="tag">${esc(note)}</span>`);
  return [
    `<li class="${classes.join(' ')}" id="${rows.tid}-a-${index + 1}" data-fate="${fate}" data-id="${esc(entry.id)}"${checks.length > 0 ? ` data-checks="${checks.join(' ')}"` : ''}>`,
    '<div class="a-row">',
    `<span class="a-line">${entry.line}</span>`,
    `<span class="a-id"><code>${esc(entry.id)}</code></span>`,
    kindHtml(item),
    `<span class="a-fate" title="stage ${esc(entry.stage)}"><span class="fate-chip fate-${fate}">${fate}</span><span class="a-reason">${esc(entry.action)} · ${esc(entry.reason)}</span></span>`,
    `<span class="a-tokens" title="tokens before → after">${before} → ${formatCount(entry.tokens_after)}</span>`,
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
    o.violations.length > 0 ? plural(o.violations.length, 'violation') : '',
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
      ? timelineHtml({ tid, mask, items: firstById(head.context), violations, changed, anchors }, head)
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
}

export function viewLine(t: ViewTranscript): ViewLine {
  const fates = Object.fromEntries(MAP_FATES.map((f) => [f, 0])) as Record<MapFate, number>;
  const checks = new Map<string, number>();
  let flagged = 0;
  const ids = new Map<string, Set<string>>();
  for (const v of t.outcome.violations) ids.set(v.id, (ids.get(v.id) ?? new Set()).add(token(v.check)));
  for (const entry of t.head?.ledger ?? []) {
    const fate = mapFate(entry);
    fates[fate] += 1;
    const found = ids.get(entry.id);
    if (!found) continue;
    flagged++;
    for (const c of found) checks.set(c, (checks.get(c) ?? 0) + 1);
  }
  const tokens = t.head ? { used: t.head.budget.used, limit: t.head.budget.limit } : null;
  return { outcome: t.outcome, tokens, fates, flagged, checks: [...checks] };
}

function filtersHtml(lines: readonly ViewLine[]): string {
  const fates = new Map<MapFate, number>(MAP_FATES.map((f) => [f, 0]));
  const checks = new Map<string, number>();
  let flagged = 0;
  for (const line of lines) {
    for (const f of MAP_FATES) fates.set(f, (fates.get(f) ?? 0) + line.fates[f]);
    flagged += line.flagged;
    for (const [c, n] of line.checks) checks.set(c, (checks.get(c) ?? 0) + n);
  }
  const chip = (attr: string, value: string, label: string, n: number, on: boolean, dot: string): string =>
    `<label class="chip"><input type="checkbox" ${attr}="${value}"${on ? ' checked' : ''}${n === 0 && !on ? ' disabled' : ''}>${dot}${label} <span class="count">${formatCount(n)}</span></label>`;
  const fateChips = MAP_FATES.map((f) =>
    chip('data-filter-fate', f, f, fates.get(f) ?? 0, true, `<span class="dot fate-${f}"></span>`),
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
  ].join('');
}

function headerHtml(doc: ViewFrame, failing: number): string {
  const s = doc.summary;
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
    `<h1>${plural(s.checked, 'transcript')} checked${failing > 0 ? `: ${formatCount(failing)} failing` : ': all good'}</h1>`,
    '<ul class="totals">',
    total(s.violations, 'with violations', 'hot'),
    total(s.drift, 'drifted', 'hot'),
    total(s.new, 'new', doc.ci ? 'hot' : 'warm'),
    total(s.errors, 'errors', 'hot'),
    total(s.pass, 'passed', 'good'),
    s.obsolete > 0 ? total(s.obsolete, 'obsolete goldens', 'warm') : '',
    '</ul>',
    `<dl class="run-meta">${meta.map(([k, v]) => `<div><dt>${k}</dt><dd>${v}</dd></div>`).join('')}</dl>`,
    '</header>',
  ].join('');
}

function navHtml(doc: ViewFrame, lines: readonly ViewLine[]): string {
  const items = lines.map((t, i) => {
    const o = t.outcome;
    const meta = [
      o.violations.length > 0 ? plural(o.violations.length, 'violation') : '',
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
  const mask = maskPattern(frame.replacement);
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
    headerHtml(frame, failing),
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
  const parts = viewPageParts(frame, transcripts.map(viewLine));
  return [parts.head, ...transcripts.map((t, i) => parts.section(t, i)), parts.tail].join('');
}

export { escapeHtml, formatCount, maskPattern } from './html-text.js';
