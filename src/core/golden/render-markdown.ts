// Markdown output of `check` (job summary, PR comment): a table of every transcript, what broke
// first (displayOrder), then a collapsed section per failing one and per drift reported as a
// warning. Transcript names, ids and messages are escaped everywhere so
// that no name can break the table, inject HTML or open a code span.
import type { CheckReport, Outcome, TranscriptOutcome } from './check-report.js';
import type { PolicyImpact } from './impact.js';
import { outcomeFails } from './check-report.js';
import {
  DRIFT_WARNING,
  describeDiff,
  describeDropped,
  describeImpact,
  describeSummary,
  describeViolation,
} from './describe.js';
import { displayOrder, isWarningDrift } from './report-order.js';
import { inertJson, shownName } from '../text/shown-name.js';
import { pushAll } from '../collections.js';

/** Longest unified diff shown per transcript; the JSON report always holds all of it. */
export const MARKDOWN_DIFF_LINES = 300;

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '|': '&#124;',
  '`': '&#96;',
  '\\': '&#92;',
  '*': '&#42;',
  _: '&#95;',
  '[': '&#91;',
  ']': '&#93;',
  '~': '&#126;',
};

/** Text safe in a table cell, list item or `<summary>`: markup characters as entities, one line. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[&<>|`\\*_[\]~]/g, (ch) => ENTITIES[ch] ?? ch).replace(/\r\n|\r|\n/g, ' ');
}

/** A name (or a line of our words and names) for the markdown output: shown escaped, then markup-safe. */
function shown(text: string): string {
  return escapeMarkdown(shownName(text));
}

const OUTCOME_WORDS: Record<Outcome, string> = {
  pass: '✅ pass',
  drift: '❌ drift',
  new: '🆕 new',
  violations: '❌ violations',
  error: '⚠️ error',
};

/** The outcome as a table cell (shared with the job summary and the PR comment). */
export function outcomeCell(o: TranscriptOutcome, ci: boolean): string {
  if (o.outcome === 'new' && ci) return '❌ missing golden';
  if (isWarningDrift(o)) return '⚠️ drift (warning)';
  return OUTCOME_WORDS[o.outcome];
}

export function violationsCell(o: TranscriptOutcome): string {
  const errors = o.violations.filter((v) => v.severity === 'error').length;
  const warnings = o.violations.length - errors;
  if (o.violations.length === 0) return '0';
  return warnings > 0 ? `${errors} (+${warnings} warning${warnings === 1 ? '' : 's'})` : String(errors);
}

function row(cells: readonly string[]): string {
  return `| ${cells.join(' | ')} |`;
}

/** A fence longer than any backtick run inside, so the diff cannot close it early. */
export function fenced(text: string, info: string): string[] {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return [`${fence}${info}`, text, fence];
}

/** The first MARKDOWN_DIFF_LINES lines, then where the rest is (`--report`, or the action's `report-path`). */
export function cappedDiff(unified: string, fullReport = '--report'): string {
  const lines = unified.replace(/\n$/, '').split('\n');
  if (lines.length <= MARKDOWN_DIFF_LINES) return lines.join('\n');
  const rest = lines.length - MARKDOWN_DIFF_LINES;
  return [...lines.slice(0, MARKDOWN_DIFF_LINES), `… ${rest} more lines in the JSON report (${fullReport})`].join(
    '\n',
  );
}

function failureDetails(o: TranscriptOutcome, ci: boolean): string[] {
  const items: string[] = [];
  for (const d of o.diagnostics ?? []) {
    items.push(`${d.file}:${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message} ${d.hint}`);
  }
  for (const v of o.violations) items.push(describeViolation(v));
  if (isWarningDrift(o)) items.push(DRIFT_WARNING);
  if (o.diff && !o.diff.equal) pushAll(items, describeDiff(o.diff));
  const out = [
    `<details><summary>${shown(o.transcript)}: ${escapeMarkdown(outcomeCell(o, ci))}</summary>`,
    '',
    ...items.map((item) => `- ${shown(item)}`),
  ];
  if (o.outcome === 'new' && ci) {
    out.push('- no golden: in CI nothing is written; run `context-stability update` locally and commit the golden');
  }
  if (o.unified) out.push('', ...fenced(inertJson(cappedDiff(o.unified)), 'diff'));
  out.push('', '</details>', '');
  return out;
}

export const IMPACT_COLUMNS = [
  'Transcript',
  'Status',
  'Tokens',
  'Kept',
  'Masked',
  'Removed by reason',
  'Newly failing',
  'Fixed',
] as const;

/** One policy-impact row, base → head, each cell through the surface's own escaper. */
export function impactCells(i: PolicyImpact, escape: (text: string) => string): string[] {
  const arrow = (a: string | number, b: string | number): string => `${a} → ${b}`;
  return [
    escape(i.transcript),
    arrow(escape(i.base.status), escape(i.head.status)),
    arrow(i.base.tokens, i.head.tokens),
    arrow(i.base.kept, i.head.kept),
    arrow(i.base.masked, i.head.masked),
    describeDropped(i).map(escape).join('<br>') || '—',
    escape(i.newlyFailing.join(', ')) || '—',
    escape(i.fixed.join(', ')) || '—',
  ];
}

function impactTable(report: CheckReport): string[] {
  const rows = report.transcripts.flatMap((o) => (o.impact ? [o.impact] : []));
  if (rows.length === 0) return [];
  const out = [
    '### Policy impact (base → head)',
    '',
    row([...IMPACT_COLUMNS]),
    row(['---', '---', '---:', '---:', '---:', '---', '---', '---']),
  ];
  for (const i of rows) out.push(row(impactCells(i, shown)));
  out.push('');
  for (const i of rows.filter((r) => r.newlyFailing.length > 0)) {
    out.push(`- ${shown(i.transcript)}: ${shown(describeImpact(i).join('; '))}`);
  }
  return out;
}

/** Whether a transcript gets a collapsed section: it fails, or it drifted at severity warning. */
export function hasDetails(o: TranscriptOutcome, ci: boolean): boolean {
  return outcomeFails(o, ci) || isWarningDrift(o);
}

export function renderMarkdown(given: CheckReport): string {
  const report = displayOrder(given);
  const out = ['## context-stability check', ''];
  const shard = report.shard ? ` · shard ${report.shard.index}/${report.shard.total}` : '';
  out.push(
    `Policy ${shown(report.policy.source)} (${escapeMarkdown(report.policy.hash)}) · tokenizer ` +
      `${escapeMarkdown(`${report.tokenizer.name} ${report.tokenizer.version}`)}${shard}`,
    '',
  );
  out.push(row(['Transcript', 'Outcome', 'Tokens (used / budget)', 'Violations']));
  out.push(row(['---', '---', '---:', '---:']));
  for (const o of report.transcripts) {
    const tokens = o.budget ? `${o.budget.used} / ${o.budget.limit}` : '—';
    out.push(row([shown(o.transcript), outcomeCell(o, report.ci), tokens, violationsCell(o)]));
  }
  out.push('');
  for (const o of report.transcripts) if (hasDetails(o, report.ci)) pushAll(out, failureDetails(o, report.ci));
  out.push(...impactTable(report));
  if (report.obsolete && report.obsolete.length > 0) {
    out.push('Obsolete goldens (no transcript; `update --prune-obsolete` removes them):', '');
    for (const g of report.obsolete) out.push(`- ${shown(g)}`);
    out.push('');
  }
  out.push(escapeMarkdown(describeSummary(report)));
  return `${out.join('\n')}\n`;
}
