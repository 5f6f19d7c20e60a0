// The viewer page (`view`, `check --html`): one self-contained HTML file for a whole run. Every
// transcript with its outcome, findings, budget bar, the fate of each artifact along the session
// with the masked content the model receives, and for a drift the stored context beside the new
// one. Pure and deterministic; built from the goldens only (already masked), every input string
// escaped, no URL anywhere: the inline script only toggles classes and attributes.
import { outcomeFails } from '../golden/check-report.js';
import type { ReportViolation, TranscriptOutcome } from '../golden/check-report.js';
import type { Fate, GoldenDiff } from '../golden/diff.js';
import type { Golden } from '../golden/golden.js';
import { MAP_FATES, mapFate } from '../golden/picture.js';
import type { MapFate } from '../golden/picture.js';
import type { ContextItem, LedgerEntry } from '../stabilize/types.js';
import { ARTIFACT_KINDS } from '../types.js';
import type { ContentPart, Diagnostic } from '../types.js';
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

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  ':': '&#58;',
};

/**
 * Text safe in HTML content and in a quoted attribute. The colon of `://` is written `&#58;` too:
 * a URL in the content reads the same, yet the page's source holds no URL at all.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']|:(?=\/\/)/g, (ch) => ENTITIES[ch] ?? ch);
}
const esc = escapeHtml;
type Mask = RegExp | null;

/** A class or data-token made of a name from the input: letters, digits, `_` and `-` only. */
function token(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** 12345 → '12,345' (no locale: the page is the same everywhere). */
export function formatCount(n: number): string {
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `−${digits}` : digits;
}

function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–';
}

function width(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(3)}%` : '0%';
}

/**
 * The masked spans of the policy's replacement template: `[REDACTED_{TYPE}]` finds
 * `[REDACTED_EMAIL]`, the type captured (a template without `{TYPE}` finds itself, type PII).
 */
export function maskPattern(template: string): RegExp | null {
  if (template === '') return null;
  const quote = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  const pieces = template.split('{TYPE}').map(quote);
  const body = pieces.reduce(
    (acc, piece, i) => (i === 0 ? piece : `${acc}${i === 1 ? '([A-Z][A-Z0-9_]*)' : '\\1'}${piece}`),
    '',
  );
  return new RegExp(body, 'g');
}

/** `text` escaped, every masked span as `<mark class="pii pii-TYPE" title="TYPE">`. */
function marked(text: string, mask: Mask): string {
  if (mask === null) return esc(text);
  let out = '';
  let last = 0;
  for (const m of text.matchAll(mask)) {
    if (m[0] === '') continue;
    const type = token(m[1] ?? 'PII');
    out += `${esc(text.slice(last, m.index))}<mark class="pii pii-${type}" title="${type}">${esc(m[0])}</mark>`;
    last = m.index + m[0].length;
  }
  return out + esc(text.slice(last));
}

/** At most `max` UTF-16 units, never ending inside a surrogate pair. */
function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

function partHtml(part: ContentPart, mask: Mask): string {
  if (part.type === 'text' && typeof part.text === 'string') return `<pre>${marked(part.text, mask)}</pre>`;
  const json = clip(JSON.stringify(part), 300);
  return `<div class="part"><span class="part-type">${esc(part.type)}</span><code>${marked(json, mask)}</code></div>`;
}

/** What the model reads of one context item: its text, parts and tool calls. */
function contentHtml(item: ContextItem, mask: Mask): string {
  const out: string[] = [];
  if (typeof item.content === 'string') {
    if (item.content !== '') out.push(`<pre>${marked(item.content, mask)}</pre>`);
  } else {
    for (const part of item.content) out.push(partHtml(part, mask));
  }
  for (const call of item.tool_calls ?? []) {
    out.push(
      `<div class="call"><span class="call-name">${esc(call.name)}</span><span class="call-id">${esc(call.id)}</span><pre>${marked(call.arguments, mask)}</pre></div>`,
    );
  }
  if (out.length === 0) out.push('<p class="empty">(no content)</p>');
  return `<div class="content">${out.join('')}</div>`;
}

function contentDetails(item: ContextItem, mask: Mask, open: boolean): string {
  return `<details class="a-content"${open ? ' open' : ''}><summary>content (${plural(item.tokens, 'token')})</summary>${contentHtml(item, mask)}</details>`;
}

function kindHtml(item: ContextItem | undefined): string {
  if (!item) return '<span class="a-kind">–</span>';
  const extra = [item.role && item.role !== item.kind ? item.role : '', item.tool ?? '']
    .filter((s) => s !== '')
    .map((s) => ` · ${esc(s)}`)
    .join('');
  return `<span class="a-kind"><span class="k kind-${token(item.kind)}"></span>${esc(item.kind)}${extra}</span>`;
}

function firstById<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}

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

/** A violation or diagnostic: severity, where and what, the message and a hint. */
function finding(severity: string, head: string, message: string, hint = ''): string {
  const f = `<div class="f-head"><span class="sev">${esc(severity)}</span>${head}</div><p class="f-msg">${esc(message)}</p>`;
  return `<li class="finding sev-${token(severity)}">${f}${hint ? `<p class="f-hint">${esc(hint)}</p>` : ''}</li>`;
}

function findingsHtml(title: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  return `<div class="block"><h3>${title} (${items.length})</h3><ul class="findings">${items.join('')}</ul></div>`;
}

function violationHtml(v: ReportViolation, link: (id: string) => string): string {
  const where = `<span>line ${v.line}${v.column !== undefined ? `:${v.column}` : ''}</span>`;
  return finding(v.severity, `<span class="v-check">${esc(v.check)}</span>${link(v.id)}${where}`, v.message);
}

function diagnosticHtml(d: Diagnostic): string {
  const where = `<code>${esc(`${d.file}:${d.line}:${d.column}`)}</code><span class="v-check">${esc(d.code)}</span>`;
  return finding(d.severity, where, d.message, d.hint);
}

function fateText(fate: Fate | null): string {
  return fate
    ? `${esc(fate.action)} · ${esc(fate.reason)} · ${plural(fate.tokens, 'token')}`
    : '<em>absent</em>';
}

function diffHtml(diff: GoldenDiff, link: (id: string) => string): string {
  const t = diff.tokens;
  const out = [
    '<div class="block"><h3>What changed</h3><div class="diff-summary">',
    diff.causes.length > 0 ? `<p>Cause: ${diff.causes.map(esc).join('; ')}</p>` : '',
    diff.first ? `<p>First change: ${link(diff.first.id)} (line ${diff.first.line})</p>` : '',
    `<p>Tokens: ${formatCount(t.before)} → ${formatCount(t.after)} (${t.delta > 0 ? '+' : ''}${formatCount(t.delta)})${diff.status ? `; status: ${esc(diff.status.before)} → ${esc(diff.status.after)}` : ''}</p>`,
  ];
  if (diff.fates.length > 0) {
    const rows = diff.fates.map(
      (f) =>
        `<tr><td>${link(f.id)}</td><td>${f.line}</td><td>${fateText(f.before)}</td><td>${fateText(f.after)}</td></tr>`,
    );
    out.push(
      `<table class="grid diff-fates"><thead><tr><th>artifact</th><th>line</th><th>stored</th><th>this run</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    );
  }
  if (diff.contentChanged.length > 0)
    out.push(
      `<p>Content changed: ${diff.contentChanged.map((c) => `${link(c.id)} (line ${c.line})`).join(', ')}</p>`,
    );
  if (diff.checks.length > 0) {
    const state = (s: { ok: boolean; violations: number } | null): string =>
      s === null ? 'absent' : s.ok ? 'ok' : `failing (${plural(s.violations, 'violation')})`;
    out.push(
      `<ul class="diff-checks">${diff.checks.map((c) => `<li>check <span class="v-check">${esc(c.name)}</span>: ${state(c.before)} → ${state(c.after)}</li>`).join('')}</ul>`,
    );
  }
  out.push('</div></div>');
  return out.join('');
}

const SIDE_TAGS: Record<string, [string, string]> = {
  'only-stored': ['<span class="side-tag only">only here</span>', ''],
  'only-head': ['', '<span class="side-tag new">only here</span>'],
  changed: ['<span class="side-tag chg">changed</span>', '<span class="side-tag chg">changed</span>'],
  same: ['', ''],
};

function sideItem(
  item: ContextItem | undefined,
  side: string,
  tag: string,
  mask: Mask,
  open: boolean,
): string {
  if (!item) return `<td class="sbs-cell sbs-${side} absent">not in this context</td>`;
  const meta = `<code>${esc(item.id)}</code>${kindHtml(item)}<span>line ${item.line}</span>${tag}`;
  return `<td class="sbs-cell sbs-${side}"><div class="sbs-meta">${meta}</div>${contentDetails(item, mask, open)}</td>`;
}

function sideBySideHtml(stored: Golden, head: Golden, changed: Set<string>, mask: Mask): string {
  const was = firstById(stored.context);
  const now = firstById(head.context);
  const ids = [...new Set([...was.keys(), ...now.keys()])]
    .map((id) => ({ id, line: (now.get(id) ?? was.get(id))?.line ?? 0 }))
    .sort((a, b) => a.line - b.line || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  let differing = 0;
  const rows = ids.map(({ id }) => {
    const [a, b] = [was.get(id), now.get(id)];
    const kind = !a ? 'only-head' : !b ? 'only-stored' : changed.has(id) ? 'changed' : 'same';
    if (kind !== 'same') differing++;
    const [tagA, tagB] = SIDE_TAGS[kind] ?? ['', ''];
    const cells = `${sideItem(a, 'stored', tagA, mask, kind !== 'same')}${sideItem(b, 'head', tagB, mask, kind !== 'same')}`;
    return `<tr class="sbs-row ${kind}" data-id="${esc(id)}">${cells}</tr>`;
  });
  const only = differing > 0;
  const toggle = `<input type="checkbox" data-sbs-toggle${only ? ' checked' : ''}>`;
  const heads = `<th>stored golden (${plural(stored.budget.used, 'token')})</th><th>this run (${plural(head.budget.used, 'token')})</th>`;
  return [
    `<div class="block sbs${only ? ' changes-only' : ''}"><h3>Stored golden and this run, side by side</h3>`,
    `<div class="sbs-tools"><label class="chip">${toggle} only rows that differ (${formatCount(differing)} of ${formatCount(ids.length)})</label></div>`,
    `<table class="grid sbs-table"><thead><tr>${heads}</tr></thead><tbody>${rows.join('\n')}</tbody></table></div>`,
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

function transcriptHtml(doc: ViewDocument, t: ViewTranscript, index: number, mask: Mask): string {
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

function filtersHtml(doc: ViewDocument): string {
  const fates = new Map<MapFate, number>(MAP_FATES.map((f) => [f, 0]));
  const checks = new Map<string, number>();
  let flagged = 0;
  for (const t of doc.transcripts) {
    const ids = new Map<string, Set<string>>();
    for (const v of t.outcome.violations) ids.set(v.id, (ids.get(v.id) ?? new Set()).add(token(v.check)));
    for (const entry of t.head?.ledger ?? []) {
      const fate = mapFate(entry);
      fates.set(fate, (fates.get(fate) ?? 0) + 1);
      const found = ids.get(entry.id);
      if (!found) continue;
      flagged++;
      for (const c of found) checks.set(c, (checks.get(c) ?? 0) + 1);
    }
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

function headerHtml(doc: ViewDocument, failing: number): string {
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

function navHtml(doc: ViewDocument): string {
  const items = doc.transcripts.map((t, i) => {
    const o = t.outcome;
    const meta = [
      o.violations.length > 0 ? plural(o.violations.length, 'violation') : '',
      o.outcome === 'drift' && o.diff
        ? plural(o.diff.fates.length + o.diff.contentChanged.length, 'change')
        : '',
      t.head ? `${formatCount(t.head.budget.used)} / ${formatCount(t.head.budget.limit)} tokens` : '',
    ].filter((s) => s !== '');
    return `<li><a href="#t-${i + 1}">${badge(o, doc.ci)}<span class="toc-name">${nameHtml(o.transcript)}</span><span class="toc-meta">${meta.join(' · ')}</span></a></li>`;
  });
  return `<nav class="toc" aria-label="Transcripts"><h2>Transcripts</h2><ol>${items.join('')}</ol></nav>`;
}

/** The whole page: same document in, same bytes out. */
export function renderViewHtml(doc: ViewDocument): string {
  const mask = maskPattern(doc.replacement);
  const failing = doc.transcripts.filter((t) => outcomeFails(t.outcome, doc.ci)).length;
  const title = `Context check: ${plural(doc.summary.checked, 'transcript')}${failing > 0 ? `, ${formatCount(failing)} failing` : ''}`;
  return [
    '<!DOCTYPE html>',
    '<html lang="en"><head><meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    '<meta name="referrer" content="no-referrer">',
    '<link rel="icon" href="data:,">',
    `<title>${esc(title)}</title>`,
    `<style>${PAGE_STYLE}</style>`,
    '</head><body>',
    headerHtml(doc, failing),
    '<div class="layout">',
    navHtml(doc),
    '<main>',
    filtersHtml(doc),
    doc.transcripts.map((t, i) => transcriptHtml(doc, t, i, mask)).join('\n'),
    doc.transcripts.length === 0 ? '<p>No transcripts were checked.</p>' : '',
    '</main></div>',
    `<footer class="foot">Made by ${esc(doc.tool.name)} ${esc(doc.tool.version)} from the goldens of this run: the masked context each model receives, never the raw transcripts.</footer>`,
    `<script>${PAGE_SCRIPT}</script>`,
    '</body></html>',
    '',
  ].join('\n');
}
