// The job summary of a check run, and the report layout it shares with the sticky PR comment:
// a headline, a run table, a table of transcripts (what broke first: displayOrder), a collapsible
// section per failing transcript and per drift reported as a warning, with its semantic diff, the
// policy impact table and the obsolete goldens. Each surface has a
// size limit (1 MiB per step summary, 65,536 characters per comment); when the report does not
// fit, the least telling parts go first (passing rows, then unified diffs, then details) and a
// note says what was left out. Every transcript-derived string is HTML-escaped (escapeText).
import { formatDiagnostic } from '../core/diagnostics.js';
import { exitCodeFor, outcomeFails } from '../core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../core/golden/check-report.js';
import { DRIFT_WARNING, describeDiff, describeSummary, describeViolation } from '../core/golden/describe.js';
import {
  IMPACT_COLUMNS,
  cappedDiff,
  hasDetails,
  impactCells,
  outcomeCell,
  violationsCell,
} from '../core/golden/render-markdown.js';
import { displayOrder, isWarningDrift } from '../core/golden/report-order.js';
import { codeBlock, details, escapeText, fitLayout, link, tableHead, tableRow, utf8Bytes } from './html.js';
import type { Part, Section } from './html.js';
import { pushAll } from '../core/collections.js';

/** GitHub's limit is 1 MiB per step summary; keep a margin. */
export const SUMMARY_LIMIT_BYTES = 1_000_000;

/** Annotations GitHub did not show (it shows at most 10 of each level per step). */
export interface HiddenAnnotations {
  error: number;
  warning: number;
  notice: number;
}

export interface SurfaceOptions {
  /** `summary` lists every transcript with its unified diff; `comment` only the failing ones, semantic diff only. */
  kind: 'summary' | 'comment';
  /** Largest size of the result, in `measure` units. */
  limit: number;
  measure: (text: string) => number;
  /** Names the limit in the cut note, e.g. "GitHub's 1 MiB step summary limit". */
  limitName: string;
  /** Lines put first, verbatim (the comment's hidden marker). */
  prefix?: string[];
  /** Messages from the action itself (e.g. why no PR comment was posted); escaped. */
  notices?: readonly string[];
  hiddenAnnotations?: HiddenAnnotations;
  /** Link to the run page (http(s) only). */
  runUrl?: string;
}

type CutKey = 'rows' | 'unified' | 'details' | 'warnings' | 'impact' | 'obsolete';

/** Tiers: what is kept first when the report does not fit. */
const TIER = {
  fixed: 0,
  failingRow: 1,
  details: 2,
  impact: 3,
  obsolete: 4,
  unified: 5,
  passingRow: 6,
} as const;

function block(lines: readonly string[]): string {
  return `${lines.join('\n')}\n`;
}

function fixed(lines: readonly string[]): Part {
  return { forms: [{ text: block(lines), tier: TIER.fixed }] };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function headline(report: CheckReport): string {
  const s = report.summary;
  const failing = report.transcripts.filter((o) => outcomeFails(o, report.ci)).length;
  const code = exitCodeFor(report);
  if (code === 2) return `**⚠️ Incomplete: ${plural(s.errors, 'transcript')} could not be checked**`;
  if (code === 1) return `**❌ ${failing} of ${plural(s.checked, 'transcript')} fail the check**`;
  if (s.checked === 0) return '**⚠️ No transcript was checked**';
  const warnings = report.transcripts.filter(isWarningDrift).length;
  const note = warnings > 0 ? `; ${plural(warnings, 'drift')} reported as a warning` : '';
  return `**✅ No transcript fails (${s.checked} checked${note})**`;
}

function metaLine(report: CheckReport): string {
  const parts = [`Policy ${escapeText(report.policy.source)} (${escapeText(report.policy.hash)})`];
  if (report.base_policy) {
    parts.push(
      `base policy ${escapeText(report.base_policy.source)} (${escapeText(report.base_policy.hash)})`,
    );
  }
  parts.push(`tokenizer ${escapeText(`${report.tokenizer.name} ${report.tokenizer.version}`)}`);
  if (report.shard) parts.push(`shard ${report.shard.index}/${report.shard.total}`);
  if (report.ci) parts.push('CI mode');
  return parts.join(' · ');
}

function runTable(report: CheckReport): string[] {
  const s = report.summary;
  let used = 0;
  let limit = 0;
  for (const o of report.transcripts) {
    used += o.budget?.used ?? 0;
    limit += o.budget?.limit ?? 0;
  }
  const columns = [
    'Transcripts',
    'Pass',
    'Drift',
    'New',
    'Violations',
    'Errors',
    'Obsolete',
    'Tokens (used / budget)',
  ];
  return [
    ...tableHead(columns.map((title) => ({ title, right: true }))),
    tableRow([
      s.checked,
      s.pass,
      s.drift,
      s.new,
      s.violations,
      s.errors,
      report.obsolete === null ? '—' : s.obsolete,
      `${used} / ${limit}`,
    ]),
  ];
}

function hiddenLine(hidden: HiddenAnnotations | undefined): string[] {
  if (!hidden) return [];
  const more = [
    hidden.error > 0 ? plural(hidden.error, 'more error') : '',
    hidden.warning > 0 ? plural(hidden.warning, 'more warning') : '',
    hidden.notice > 0 ? plural(hidden.notice, 'more notice') : '',
  ].filter((m) => m !== '');
  if (more.length === 0) return [];
  return [
    `GitHub shows at most 10 error, 10 warning and 10 notice annotations per step: ${more.join(', ')} ` +
      'not annotated. Every finding is in the JSON report (`report-path`).',
    '',
  ];
}

function detailItems(o: TranscriptOutcome, ci: boolean): string[] {
  const items = (o.diagnostics ?? []).map(formatDiagnostic);
  for (const v of o.violations) items.push(describeViolation(v));
  if (isWarningDrift(o)) items.push(DRIFT_WARNING);
  if (o.diff && !o.diff.equal) pushAll(items, describeDiff(o.diff));
  const lines = items.map((item) => `- ${escapeText(item)}`);
  if (o.outcome === 'new' && ci) {
    lines.push(
      '- no golden: in CI nothing is written; run `context-stability update` locally and commit the golden',
    );
  }
  return lines;
}

function failurePart(o: TranscriptOutcome, ci: boolean, withUnified: boolean): Part {
  const summary = `${escapeText(o.transcript)}: ${outcomeCell(o, ci)}`;
  const items = detailItems(o, ci);
  const semantic = { text: block(details(summary, items)), tier: TIER.details };
  const omitted: CutKey = outcomeFails(o, ci) ? 'details' : 'warnings';
  if (!withUnified || !o.unified) return { forms: [semantic], omitted };
  const full = block(
    details(summary, [...items, '', ...codeBlock(cappedDiff(o.unified, 'report-path'), 'diff')]),
  );
  return { forms: [semantic, { text: full, tier: TIER.unified }], omitted, shortened: 'unified' };
}

function impactSection(report: CheckReport): Section {
  const parts = report.transcripts.flatMap((o): Part[] => {
    const i = o.impact;
    if (!i) return [];
    const cells = impactCells(i, escapeText);
    return [{ forms: [{ text: block([tableRow(cells)]), tier: TIER.impact }], omitted: 'impact' }];
  });
  const columns = IMPACT_COLUMNS;
  const right = new Set(['Tokens', 'Kept', 'Masked']);
  return {
    head: block([
      '### Policy impact (base → head)',
      '',
      ...tableHead(columns.map((t) => ({ title: t, right: right.has(t) }))),
    ]),
    tail: '\n',
    parts,
  };
}

/** The heading of the collapsible sections: failing transcripts, drift warnings, or both. */
function detailsHeading(shown: readonly TranscriptOutcome[], ci: boolean): string {
  const failing = shown.some((o) => outcomeFails(o, ci));
  const warnings = shown.some((o) => !outcomeFails(o, ci));
  if (failing && warnings) return '### Failing transcripts and drift warnings';
  return warnings ? '### Drift warnings' : '### Failing transcripts';
}

function sections(report: CheckReport, opts: SurfaceOptions): Section[] {
  const comment = opts.kind === 'comment';
  const top: Part[] = [
    fixed([
      ...(opts.prefix ?? []),
      '## context-stability check',
      '',
      headline(report),
      '',
      metaLine(report),
      '',
    ]),
  ];
  for (const n of opts.notices ?? []) top.push(fixed([`> ⚠️ ${escapeText(n)}`, '']));
  top.push(fixed([...runTable(report), '']));
  if (comment && report.summary.pass > 0) {
    top.push(
      fixed([
        `${plural(report.summary.pass, 'passing transcript')} not listed here: see the job summary.`,
        '',
      ]),
    );
  }

  const rows = report.transcripts.flatMap((o): Part[] => {
    const fails = outcomeFails(o, report.ci);
    if (comment && o.outcome === 'pass' && !fails) return [];
    const tokens = o.budget ? `${o.budget.used} / ${o.budget.limit}` : '—';
    const row = tableRow([escapeText(o.transcript), outcomeCell(o, report.ci), tokens, violationsCell(o)]);
    return [
      {
        forms: [
          { text: block([row]), tier: o.outcome === 'pass' && !fails ? TIER.passingRow : TIER.failingRow },
        ],
        omitted: 'rows',
      },
    ];
  });
  const rowsHead = block([
    '### Transcripts',
    '',
    ...tableHead([
      { title: 'Transcript' },
      { title: 'Outcome' },
      { title: 'Tokens (used / budget)', right: true },
      { title: 'Violations', right: true },
    ]),
  ]);
  const withDetails = report.transcripts.filter((o) => hasDetails(o, report.ci));
  const failures = withDetails.map((o) => failurePart(o, report.ci, !comment));

  const obsolete = (report.obsolete ?? []).map((g): Part => ({
    forms: [{ text: block([`- ${escapeText(g)}`]), tier: TIER.obsolete }],
    omitted: 'obsolete',
  }));
  const end: Part[] = [fixed([escapeText(describeSummary(report)), ''])];
  const hidden = hiddenLine(opts.hiddenAnnotations);
  if (hidden.length > 0) end.push(fixed(hidden));
  if (opts.runUrl) end.push(fixed([link('Details of this run', opts.runUrl), '']));

  return [
    { parts: top },
    // The cut note goes below the run table, where a reader looks first.
    { head: rowsHead, tail: '\n', parts: rows, note: true },
    { head: block([detailsHeading(withDetails, report.ci), '']), parts: failures },
    impactSection(report),
    {
      head: block([
        '### Obsolete goldens',
        '',
        'No checked transcript has these goldens; `context-stability update --prune-obsolete` removes them.',
        '',
      ]),
      tail: '\n',
      parts: obsolete,
    },
    { parts: end },
  ];
}

const CUT_WORDS: Record<CutKey, (n: number) => string> = {
  rows: (n) => plural(n, 'transcript row'),
  unified: (n) => plural(n, 'unified diff'),
  details: (n) => `the details of ${plural(n, 'failing transcript')}`,
  warnings: (n) => `the details of ${plural(n, 'drift warning')}`,
  impact: (n) => plural(n, 'policy impact row'),
  obsolete: (n) => plural(n, 'obsolete golden'),
};

function cutNote(counts: ReadonlyMap<string, number>, limitName: string): string {
  const what = (Object.keys(CUT_WORDS) as CutKey[]).flatMap((key) => {
    const n = counts.get(key) ?? 0;
    return n > 0 ? [CUT_WORDS[key](n)] : [];
  });
  return block([
    `> ✂️ Cut to fit ${limitName}; not shown: ${what.join(', ')}. The JSON report (\`report-path\`) holds everything.`,
    '',
  ]);
}

/**
 * Lays the report out for one surface within opts.limit: everything when it fits; otherwise the
 * always-shown parts (headline, run table, notices, totals), then by tier while they fit: failing
 * rows, semantic diffs, impact rows, obsolete goldens, unified diffs, passing rows; with the note.
 */
export function renderReportSurface(report: CheckReport, opts: SurfaceOptions): string {
  return fitLayout(sections(displayOrder(report), opts), {
    limit: opts.limit,
    measure: opts.measure,
    note: (counts) => cutNote(counts, opts.limitName),
  });
}

/**
 * The job summary (markdown with HTML details) to write with core.summary, under maxBytes of
 * UTF-8 (default SUMMARY_LIMIT_BYTES). `hiddenAnnotations` adds the line saying how many
 * annotations GitHub did not show; `notices` are the action's own messages, shown on top.
 */
export function buildJobSummary(
  report: CheckReport,
  opts: { maxBytes?: number; hiddenAnnotations?: HiddenAnnotations; notices?: string[] } = {},
): string {
  return renderReportSurface(report, {
    kind: 'summary',
    limit: opts.maxBytes ?? SUMMARY_LIMIT_BYTES,
    measure: utf8Bytes,
    limitName: "GitHub's 1 MiB step summary limit",
    ...(opts.notices ? { notices: opts.notices } : {}),
    ...(opts.hiddenAnnotations ? { hiddenAnnotations: opts.hiddenAnnotations } : {}),
  });
}
