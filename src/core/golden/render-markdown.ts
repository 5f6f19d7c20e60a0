// Markdown building blocks shared by the report surfaces (src/github/summary.ts lays out the job
// summary, the PR comment and `check --format markdown`): escaping, outcome cells, fenced and capped
// diffs, the impact columns. Transcript names, ids and messages are escaped everywhere so that no
// name can break a table, inject HTML or open a code span.
import type { Outcome, TranscriptOutcome } from './check-report.js';
import type { PolicyImpact } from './impact.js';
import { outcomeFails } from './check-report.js';
import { describeDropped } from './describe.js';
import { isWarningDrift } from './report-order.js';

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

/**
 * A start that would open a block where the text begins a line (a list item's text, a paragraph):
 * `# ` heading, `- `/`+ ` list, `---`/`===` rule or setext underline, `1. `/`1) ` ordered list,
 * leading blanks (indented code). Its first character becomes an entity: block syntax is read before entities are
 * decoded, so the text renders as written and opens nothing. The other markers (`>`, `|`, `` ` ``,
 * `~`, `*`, `<`) are entities wherever they stand.
 */
const BLOCK_START = /^(?:\s|#{1,6}(?:\s|$)|[-+](?:\s|$)|\d{1,9}[.)](?:\s|$)|[-=][-=\s]*$)/;

/** Text safe in a table cell, list item or `<summary>`: markup characters as entities, one line. */
export function escapeMarkdown(text: string): string {
  const escaped = text.replace(/[&<>|`\\*_[\]~]/g, (ch) => ENTITIES[ch] ?? ch).replace(/\r\n|\r|\n/g, ' ');
  if (!BLOCK_START.test(escaped)) return escaped;
  const first = escaped.codePointAt(0) as number;
  return `&#${first};${escaped.slice(1)}`;
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

/** Whether a transcript gets a collapsed section: it fails, or it drifted at severity warning. */
export function hasDetails(o: TranscriptOutcome, ci: boolean): boolean {
  return outcomeFails(o, ci) || isWarningDrift(o);
}
