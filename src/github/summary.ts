// The job summary of a check run, and the report layout it shares with the sticky PR comment and
// `check --format markdown`: it leads with what broke. A headline (verdict and totals), the policy
// impact table of a policy review (changed transcripts, totals; the full table folded), then one
// group per kind of failure in displayOrder (violations by severity, drift, drift warnings,
// unreadable input, new goldens), each transcript with its budget bar, session map, violations,
// first change, what fills the budget and the command that accepts the change; then the passes,
// folded; obsolete goldens. Each surface has a size limit (1 MiB per step summary, 65,536
// characters per comment); when the report does not fit, the least telling parts go first (passing
// rows, unified diffs, obsolete goldens, impact rows, details; the title of every failing
// transcript last) and a note says what was left out. Every transcript-derived string is
// HTML-escaped (escapeText).
import { exitCodeFor, outcomeFails } from '../core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../core/golden/check-report.js';
import { describeSummary } from '../core/golden/describe.js';
import { describeTotals } from '../core/golden/describe-outcome.js';
import { legend } from '../core/golden/render-picture.js';
import { displayOrder, isWarningDrift, listingGroup } from '../core/golden/report-order.js';
import { escapeText, fitLayout, link, utf8Bytes } from './html.js';
import type { Part, Section } from './html.js';
import {
  PASS_TABLE_HEAD,
  impactColumns,
  impactFullHead,
  impactHead,
  impactFullRow,
  impactRow,
  impactChanged,
  impactTotals,
  blockTitle,
  outcomeBody,
  passRow,
} from './report-blocks.js';

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
  /** Where the full report is, as the reader would name it: `report-path` (the action), `--report` (the CLI). */
  fullReport?: string;
}

type CutKey =
  'failing' | 'warnings' | 'rows' | 'unified' | 'details' | 'warningDetails' | 'impact' | 'obsolete';

/** Tiers: what is kept first when the report does not fit. */
const TIER = {
  fixed: 0,
  title: 1,
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

/** The verdict, then the totals: the one line a reader sees first. */
function headline(report: CheckReport): string {
  const s = report.summary;
  const failing = report.transcripts.filter((o) => outcomeFails(o, report.ci)).length;
  const code = exitCodeFor(report);
  const totals = escapeText(describeTotals(report));
  if (code === 2)
    return `**⚠️ Incomplete: ${plural(s.errors, 'transcript')} could not be checked** — ${totals}`;
  if (code === 1) {
    return `**❌ ${failing} of ${plural(s.checked, 'transcript')} ${failing === 1 ? 'fails' : 'fail'}** — ${totals}`;
  }
  if (s.checked === 0) return '**⚠️ No transcript was checked**';
  const warnings = report.transcripts.filter(isWarningDrift).length;
  const note = warnings > 0 ? `; ${plural(warnings, 'drift')} reported as a warning` : '';
  return `**✅ No transcript fails${note}** — ${totals}`;
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

/**
 * A failing transcript as two parts: its title line, kept before anything else that can be cut (so
 * every failing transcript is named), and its body (picture, findings, diffs).
 */
function outcomeParts(
  o: TranscriptOutcome,
  report: CheckReport,
  withUnified: boolean,
  fullReport: string,
): Part[] {
  const fails = outcomeFails(o, report.ci);
  const title: Part = {
    forms: [{ text: block([blockTitle(o, report.ci), '']), tier: TIER.title }],
    omitted: fails ? 'failing' : 'warnings',
  };
  const omitted: CutKey = fails ? 'details' : 'warningDetails';
  const semantic = {
    text: block(outcomeBody(o, report, { unified: false, fullReport })),
    tier: TIER.details,
  };
  if (!withUnified || !o.unified) return [title, { forms: [semantic], omitted }];
  const full = block(outcomeBody(o, report, { unified: true, fullReport }));
  return [title, { forms: [semantic, { text: full, tier: TIER.unified }], omitted, shortened: 'unified' }];
}

/** The groups a report lists, in order: what broke first (displayOrder), passes last. */
const GROUPS: { title: (n: number) => string; has: (o: TranscriptOutcome, ci: boolean) => boolean }[] = [
  { title: (n) => `❌ Violations (${n})`, has: (o) => listingGroup(o) === 0 },
  { title: (n) => `❌ Drift (${n})`, has: (o) => listingGroup(o) === 1 },
  { title: (n) => `⚠️ Drift reported as a warning (${n})`, has: (o) => listingGroup(o) === 2 },
  { title: (n) => `⚠️ Could not be checked (${n})`, has: (o) => listingGroup(o) === 3 },
  { title: (n) => `🆕 New (${n})`, has: (o) => listingGroup(o) === 4 },
];

function impactSections(report: CheckReport): Section[] {
  const impacts = report.transcripts.flatMap((o) => (o.impact ? [o.impact] : []));
  if (impacts.length === 0) return [];
  // The prompt-cache column only when the replay ran (`--cache-report`, checks.cache_prefix), facts
  // lost only when the retention check ran under either policy.
  const cols = impactColumns(impacts);
  const row = (text: string): Part => ({
    forms: [{ text: block([text]), tier: TIER.impact }],
    omitted: 'impact',
  });
  return [
    {
      head: block(['### Policy impact (base → head)', '', ...impactHead(cols)]),
      tail: '\n',
      // Only the transcripts the edit changes; the totals row counts every one, the full table lists them all.
      parts: [
        ...impacts.filter(impactChanged).map((i) => row(impactRow(i, cols))),
        fixed([impactTotals(impacts, cols)]),
      ],
    },
    {
      head: block([
        '<details><summary>Policy impact in detail: status, kept, masked, removed by reason</summary>',
        '',
        ...impactFullHead(cols),
      ]),
      tail: block(['', '</details>', '']),
      parts: impacts.map((i) => row(impactFullRow(i, cols))),
    },
  ];
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

  // The cut note goes right below the headline, where a reader looks first.
  const out: Section[] = [{ parts: top }, { parts: [], note: true }];
  // A policy review answers "what does this edit do" first.
  out.push(...impactSections(report));
  for (const group of GROUPS) {
    const members = report.transcripts.filter((o) => group.has(o, report.ci));
    if (members.length === 0) continue;
    out.push({
      head: block([`### ${group.title(members.length)}`, '']),
      parts: members.flatMap((o) => outcomeParts(o, report, !comment, opts.fullReport ?? 'report-path')),
    });
  }

  const passes = report.transcripts.filter((o) => listingGroup(o) === 5);
  if (comment && passes.length > 0) {
    out.push({
      parts: [fixed([`✅ ${plural(passes.length, 'passing transcript')}: see the job summary.`, ''])],
    });
  } else if (passes.length > 0) {
    const noted = passes.filter((o) => (o.notes ?? []).length > 0).length;
    const note = noted > 0 ? `, ${noted} with a note (metadata changed; the context did not)` : '';
    out.push({
      head: block([
        `<details><summary>✅ ${plural(passes.length, 'transcript')} ${passes.length === 1 ? 'passes' : 'pass'}${note}</summary>`,
        '',
        ...PASS_TABLE_HEAD,
      ]),
      tail: block(['', `<sub>${legend()}</sub>`, '', '</details>', '']),
      parts: passes.map((o) => ({
        forms: [{ text: block([passRow(o)]), tier: TIER.passingRow }],
        omitted: 'rows',
      })),
    });
  }

  const obsolete = (report.obsolete ?? []).map((g): Part => ({
    forms: [{ text: block([`- ${escapeText(g)}`]), tier: TIER.obsolete }],
    omitted: 'obsolete',
  }));
  out.push({
    head: block([
      '### Obsolete goldens',
      '',
      'No checked transcript has these goldens; `context-stability update --prune-obsolete` removes them.',
      '',
    ]),
    tail: '\n',
    parts: obsolete,
  });

  const end: Part[] = [fixed([escapeText(describeSummary(report)), ''])];
  const hidden = hiddenLine(opts.hiddenAnnotations);
  if (hidden.length > 0) end.push(fixed(hidden));
  if (opts.runUrl) end.push(fixed([link('Details of this run', opts.runUrl), '']));
  out.push({ parts: end });
  return out;
}

const CUT_WORDS: Record<CutKey, (n: number) => string> = {
  failing: (n) => plural(n, 'failing transcript'),
  warnings: (n) => plural(n, 'drift warning'),
  rows: (n) => plural(n, 'passing transcript row'),
  unified: (n) => plural(n, 'unified diff'),
  details: (n) => `the details of ${plural(n, 'failing transcript')}`,
  warningDetails: (n) => `the details of ${plural(n, 'drift warning')}`,
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

/** `check --format markdown`: the job summary's layout, whole (no size limit). */
export function renderMarkdownReport(report: CheckReport): string {
  return renderReportSurface(report, {
    kind: 'summary',
    limit: Number.POSITIVE_INFINITY,
    measure: (text) => text.length,
    limitName: 'no limit',
    fullReport: '--report',
  });
}
