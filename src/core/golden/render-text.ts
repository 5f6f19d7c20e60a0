// Terminal output of `check`: one line per transcript that needs reading, what broke first
// (displayOrder: violations most severe first, then drift, then unreadable input and missing
// goldens), then for each failure what went wrong — for a drift the semantic diff first (what it
// does) and the unified diff second (exact bytes). A clean pass is one line of nothing to do: a run
// of 1,000 transcripts would bury its one failure, so passes are counted, and listed only when
// asked (`verbose`).
import { formatDiagnostic } from '../diagnostics.js';
import { inertJson, shownName } from '../text/shown-name.js';
import { labelledName } from '../text/session-name.js';
import type { CheckReport, Outcome, TranscriptOutcome } from './check-report.js';
import { DRIFT_WARNING, describeDiff, describeImpact, describeRetention, describeSummary } from './describe.js';
import { acceptCommand, describeConsumers, describeFirstChange, describeTotals } from './describe-outcome.js';
import { displayOrder, isWarningDrift } from './report-order.js';
import { pushAll } from '../collections.js';
import { describeCachePrefix } from '../cache/describe.js';

const LABELS: Record<Outcome, string> = {
  pass: 'PASS',
  drift: 'DRIFT',
  new: 'NEW',
  violations: 'VIOLATIONS',
  error: 'ERROR',
};
const LABEL_WIDTH = 11;

function label(o: TranscriptOutcome): string {
  return isWarningDrift(o) ? 'DRIFT WARN' : LABELS[o.outcome];
}

function headline(o: TranscriptOutcome, ci: boolean): string {
  const parts = [label(o).padEnd(LABEL_WIDTH), labelledName(o.transcript, o.session_label)];
  if (o.budget) parts.push(`  ${o.budget.used}/${o.budget.limit} tokens`);
  if (o.status && o.status !== 'ok') parts.push(`  status ${o.status}`);
  if (o.outcome === 'new') {
    if (o.written) parts.push(`  golden written: ${o.golden}`);
    else if (ci) parts.push('  no golden (CI: nothing is written; run `context-stability update` and commit)');
    else parts.push(`  no golden: ${o.golden}`);
  }
  return shownName(parts.join(''));
}

function details(o: TranscriptOutcome, report: CheckReport): string[] {
  const lines: string[] = [];
  for (const note of o.notes ?? []) lines.push(`  note: ${note} (\`update\` refreshes the golden)`);
  for (const d of o.diagnostics ?? []) lines.push(`  ${formatDiagnostic(d)}`);
  for (const v of o.violations) {
    const column = v.column !== undefined && v.column > 0 ? `:${v.column}` : '';
    lines.push(`  ${o.transcript}:${v.line}${column}: ${v.severity}[${v.check}] ${v.id}: ${v.message}`);
  }
  if (isWarningDrift(o)) lines.push(`  ${DRIFT_WARNING}`);
  const first = describeFirstChange(o);
  if (first) lines.push(`  ${first}`);
  // What fills the budget and the retention figures are told of a transcript that failed or has
  // findings: retention runs by default, and every clean pass growing a line would bury the rest.
  const told = o.outcome !== 'pass' || o.violations.length > 0;
  const consumers = told ? describeConsumers(o) : undefined;
  if (consumers) lines.push(`  ${consumers}`);
  if (o.cache_prefix) lines.push(`  ${describeCachePrefix(o.cache_prefix)}`);
  const retention = told && o.retention ? describeRetention(o.retention) : undefined;
  if (retention) lines.push(`  ${retention}`);
  const accept = acceptCommand(o, report.policy.source);
  if (accept) lines.push(`  ${o.outcome === 'new' ? 'write the golden' : 'accept the change'}: ${accept}`);
  if (o.diff && !o.diff.equal) {
    lines.push(`  semantic diff of ${o.golden}:`);
    for (const line of describeDiff(o.diff)) lines.push(`    ${line}`);
  }
  // Names, ids and messages are shown escaped, one line each; the unified diff is lines of JSON.
  const shown = lines.map(shownName);
  if (o.unified) {
    shown.push('  unified diff (golden → actual):');
    shown.push(inertJson(o.unified.replace(/\n$/, '')));
  }
  if (o.impact) {
    shown.push('  policy impact (base → head):');
    for (const line of describeImpact(o.impact)) shown.push(shownName(`    ${line}`));
  }
  return shown;
}

export interface TextOptions {
  /** List every transcript, clean passes too (`--verbose`). */
  verbose?: boolean;
}

/**
 * A pass with nothing to tell: no warning, note or diagnostic, and no per-transcript figure the run
 * was asked for (a policy impact, a cache-prefix line). A pass that has one is listed.
 */
function isCleanPass(o: TranscriptOutcome): boolean {
  return (
    o.outcome === 'pass' &&
    o.violations.length === 0 &&
    (o.notes ?? []).length === 0 &&
    (o.diagnostics ?? []).length === 0 &&
    o.impact === undefined &&
    o.cache_prefix === undefined
  );
}

export function renderText(given: CheckReport, opts: TextOptions = {}): string {
  const report = displayOrder(given);
  const lines: string[] = [];
  const shard = report.shard ? ` (shard ${report.shard.index}/${report.shard.total})` : '';
  const base = report.base_policy ? `, base policy ${report.base_policy.source} (${report.base_policy.hash})` : '';
  lines.push(
    shownName(
      `context-stability check${shard}: policy ${report.policy.source} (${report.policy.hash})${base}, ` +
      `tokenizer ${report.tokenizer.name} ${report.tokenizer.version}${report.ci ? ', CI mode' : ''}`,
    ),
  );
  lines.push(describeTotals(report));
  let unlisted = 0;
  for (const o of report.transcripts) {
    if (opts.verbose !== true && isCleanPass(o)) {
      unlisted++;
      continue;
    }
    lines.push(headline(o, report.ci));
    pushAll(lines, details(o, report));
  }
  if (unlisted > 0)
    lines.push(
      `${unlisted === 1 ? '1 clean pass' : `${unlisted} clean passes`} not listed (--verbose lists every transcript).`,
    );
  if (report.obsolete && report.obsolete.length > 0) {
    lines.push('Obsolete goldens (no transcript checked; `update --prune-obsolete` removes them):');
    for (const g of report.obsolete) lines.push(`  ${shownName(g)}`);
  }
  lines.push(describeSummary(report));
  return `${lines.join('\n')}\n`;
}
