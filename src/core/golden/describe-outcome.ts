// What every report says of one transcript beyond its outcome, in the same words on every surface
// (text, Markdown, job summary, PR comment, annotations): the headline of totals, what fills the
// budget, the first artifact that changed, and the exact command that accepts a change. Only ids,
// kinds, lines, counts and paths: never content.
import type { CheckReport, TranscriptOutcome } from './check-report.js';
import { describeCheckChange, describeFateChange } from './describe.js';
import { totals } from './report-order.js';
import type { Consumer } from './picture.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `2 with violations · 1 drifted · 0 new · 0 errors · 6 passed`: the first line of every report. */
export function describeTotals(report: CheckReport): string {
  const t = totals(report);
  return [
    `${t.violations} with violations`,
    `${t.drifted} drifted`,
    `${t.new} new`,
    plural(t.errors, 'error'),
    `${t.passed} passed`,
  ].join(' · ');
}

export function describeConsumer(c: Consumer): string {
  return `${c.id} (${c.kind}, line ${c.line}) ${thousands(c.tokens)} tokens, ${c.percent}% of the budget`;
}

/** `fills the budget: t7 (tool, line 12) 3,120 tokens, 39% of the budget; …`, or nothing. */
export function describeConsumers(o: TranscriptOutcome): string | undefined {
  const consumers = o.picture?.consumers ?? [];
  if (consumers.length === 0) return undefined;
  return `what fills the budget: ${consumers.map(describeConsumer).join('; ')}`;
}

/** The first changed artifact of a drift with its line and what happened to it. */
export function describeFirstChange(o: TranscriptOutcome): string | undefined {
  const first = o.diff?.first;
  if (!o.diff || o.diff.equal || !first) return undefined;
  const fate = o.diff.fates.find((f) => f.id === first.id && f.line === first.line);
  const what = fate ? describeFateChange(fate) : `${first.id} (line ${first.line}): content changed`;
  return `first change: ${what}`;
}

/** A path as one shell word: bare when it holds only safe characters, else single-quoted. */
export function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command that accepts this transcript's change (writes its golden from the current result):
 * `npx context-stability update <path>`, with `--session N` for one session of an aider history.
 * Undefined when there is nothing to accept (a pass, an unreadable transcript).
 */
export function acceptCommand(o: TranscriptOutcome, policySource?: string): string | undefined {
  if (o.outcome !== 'drift' && o.outcome !== 'new') return undefined;
  // This run wrote the golden already (a new transcript outside CI): nothing left to accept.
  if (o.written) return undefined;
  const m = /^(.+)#([1-9]\d*)$/.exec(o.transcript);
  const file = m ? (m[1] as string) : o.transcript;
  const session = m ? ` --session ${m[2] as string}` : '';
  // Without --policy, update takes the conventional file (or the built-in default) as check did.
  const conventional = policySource === 'default' || /^\.github\/context-policy\.(ya?ml|json)$/.test(policySource ?? '');
  const policy = policySource && !conventional ? ` --policy ${shellWord(policySource)}` : '';
  return `npx context-stability update ${shellWord(file)}${session}${policy}`;
}

/**
 * A drift in one annotation: at the first artifact that changed (line 1 when only the order, the
 * status or a verdict changed), what changed first, how much changed, the cause, and the command
 * that accepts the change.
 */
export function describeDrift(
  o: TranscriptOutcome,
  policySource: string,
): { line: number; id?: string; message: string } {
  const accept = acceptCommand(o, policySource);
  const hint = accept
    ? `If the change is intended, accept it: ${accept}`
    : 'If the change is intended, run `context-stability update` and commit the golden.';
  const diff = o.diff;
  if (!diff) return { line: 1, message: `The result differs from the golden. ${hint}` };
  const parts: string[] = [];
  const first = diff.first;
  const fate = first ? diff.fates.find((f) => f.id === first.id && f.line === first.line) : undefined;
  if (fate) parts.push(`First change: ${describeFateChange(fate)}.`);
  else if (first) parts.push(`First change: ${first.id} (line ${first.line}): the content in the context changed.`);
  const counts = [
    diff.fates.length > 0 ? `${diff.fates.length} changed fate` : '',
    diff.contentChanged.length > 0 ? `${diff.contentChanged.length} changed content` : '',
  ].filter((c) => c !== '');
  if (counts.length > 0) parts.push(`Artifacts: ${counts.join(', ')}.`);
  if (diff.status) parts.push(`Status ${diff.status.before} → ${diff.status.after}.`);
  parts.push(`Tokens ${diff.tokens.before} → ${diff.tokens.after}.`);
  for (const c of diff.checks) parts.push(`${describeCheckChange(c)}.`);
  if (diff.causes.length > 0) parts.push(`Cause: ${diff.causes.join('; ')}.`);
  return {
    line: first?.line ?? 1,
    ...(first ? { id: first.id } : {}),
    message: `${parts.join(' ')} ${hint}`,
  };
}
