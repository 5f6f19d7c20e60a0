// The findings (violations, diagnostics) and the drift of one transcript on the viewer page: the
// semantic diff and the stored and new contexts side by side. Pure; every input string escaped.
import type { ReportViolation } from '../golden/check-report.js';
import type { Fate, GoldenDiff } from '../golden/diff.js';
import type { Golden } from '../golden/golden.js';
import type { Diagnostic } from '../types.js';
import type { ContextItem } from '../stabilize/types.js';
import { esc, token, formatCount, plural, contentDetails, kindHtml, firstById } from './html-text.js';
import type { Mask } from './html-text.js';
import { reasonTitle, reasonWords } from './reasons.js';

/** A violation or diagnostic: severity, where and what, the message and a hint. */
export function finding(severity: string, head: string, message: string, hint = ''): string {
  const f = `<div class="f-head"><span class="sev">${esc(severity)}</span>${head}</div><p class="f-msg">${esc(message)}</p>`;
  return `<li class="finding sev-${token(severity)}">${f}${hint ? `<p class="f-hint">${esc(hint)}</p>` : ''}</li>`;
}

export function findingsHtml(title: string, items: readonly string[]): string {
  if (items.length === 0) return '';
  return `<div class="block"><h3>${title} (${items.length})</h3><ul class="findings">${items.join('')}</ul></div>`;
}

export function violationHtml(v: ReportViolation, link: (id: string) => string): string {
  const where = `<span>line ${v.line}${v.column !== undefined ? `:${v.column}` : ''}</span>`;
  return finding(v.severity, `<span class="v-check">${esc(v.check)}</span>${link(v.id)}${where}`, v.message);
}

export function diagnosticHtml(d: Diagnostic): string {
  const where = `<code>${esc(`${d.file}:${d.line}:${d.column}`)}</code><span class="v-check">${esc(d.code)}</span>`;
  return finding(d.severity, where, d.message, d.hint);
}

export function fateText(fate: Fate | null): string {
  return fate
    ? `<span class="a-reason" title="${esc(reasonTitle(fate.action, fate.reason))}">${esc(fate.action)}: ${esc(reasonWords(fate.action, fate.reason).words)}</span> · ${plural(fate.tokens, 'token')}`
    : '<em>absent</em>';
}

export function diffHtml(diff: GoldenDiff, link: (id: string) => string): string {
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

export const SIDE_TAGS: Record<string, [string, string]> = {
  'only-stored': ['<span class="side-tag only">only here</span>', ''],
  'only-head': ['', '<span class="side-tag new">only here</span>'],
  changed: ['<span class="side-tag chg">changed</span>', '<span class="side-tag chg">changed</span>'],
  same: ['', ''],
};

export function sideItem(
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

export function sideBySideHtml(stored: Golden, head: Golden, changed: Set<string>, mask: Mask): string {
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
