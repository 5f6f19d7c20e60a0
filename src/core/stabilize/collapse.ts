// Stage 7 (collapse, aggressive mode only): failed invocations of one command family with no success
// of that family between them form a retry run, whatever ran in between (edit → test → fail → edit →
// test → fail is one run). All but the latest failure become one compact artifact; the latest
// actionable error stays verbatim (seed 002, "aggressive").
import { isCollapsible, liftTagProtection } from './protect.js';
import type { Work, WorkSet } from './work.js';
import { isAlive, isFailure, isPlaceholder, releaseHeld, removeResult, textOf } from './work.js';

const ERROR_LINE = /error|fail|exception|traceback|fatal|panic|denied|not found|cannot|refused/i;

/** The first line that names the problem, or the first non-empty line; capped so it stays compact. */
export function firstErrorLine(text: string): string {
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  const line = lines.find((l) => ERROR_LINE.test(l)) ?? lines.find((l) => l.length > 0) ?? '';
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}

function familyCommand(family: string): string {
  const i = family.indexOf(':');
  return i === -1 ? family : family.slice(i + 1);
}

/** Retry runs per family: consecutive failures (within the family) of two or more. */
export function retryRuns(ws: WorkSet): Work[][] {
  const open = new Map<string, Work[]>();
  const runs: Work[][] = [];
  for (const w of ws.items) {
    if (!isAlive(w) || w.family === undefined || w.a.kind !== 'tool') continue;
    const run = open.get(w.family) ?? [];
    if (isFailure(w)) {
      run.push(w);
      open.set(w.family, run);
    } else {
      if (run.length >= 2) runs.push(run);
      open.delete(w.family);
    }
  }
  for (const run of open.values()) if (run.length >= 2) runs.push(run);
  return runs.sort((a, b) => (a[0] as Work).index - (b[0] as Work).index);
}

const SUMMARY = /^\[\d+ failed attempts of `[^]*` collapsed; first error: [^]*\]$/;

/**
 * A retry summary or a placeholder, made in this run or read back from a stabilized context: the
 * stabilizer's own compact note, which no stage shortens again (collapsing it would nest summaries,
 * and a summary longer than tool_output.max_tokens is still the compact form of its run).
 */
export function isCompacted(w: Work): boolean {
  if (isPlaceholder(w) || w.changed?.reason === 'retry_run') return true;
  return typeof w.content === 'string' && SUMMARY.test(w.content);
}

/**
 * `mask` is the policy's PII masker: the first error is masked before it is cut, so a value the
 * cut would halve is still recognised (a halved e-mail no longer matches) and never leaks its head.
 */
export function applyCollapse(ws: WorkSet, mask: (text: string) => string): number {
  let collapsed = 0;
  // Lifting a tag can release results held as placeholders (work.ts, releaseHeld); a released
  // success no longer splits its family's failures, which may form a run now: collapse again.
  do {
    collapsed += collapseRuns(ws, mask);
  } while (releaseHeld(ws) > 0);
  return collapsed;
}

function collapseRuns(ws: WorkSet, mask: (text: string) => string): number {
  let collapsed = 0;
  for (const run of retryRuns(ws)) {
    const older = run.slice(0, -1).filter((w) => isCollapsible(w) && !isCompacted(w));
    if (older.length === 0) continue;
    const [head, ...rest] = older as [Work, ...Work[]];
    const family = head.family ?? '';
    for (const w of older) liftTagProtection(w);
    head.content = `[${older.length} failed attempts of \`${familyCommand(family)}\` collapsed; first error: ${firstErrorLine(mask(textOf(head.content)))}]`;
    head.changed = {
      stage: 'collapse',
      action: 'collapsed',
      reason: 'retry_run',
      detail: `${older.length} failed attempts collapsed into this one; the latest failure ${(run[run.length - 1] as Work).a.id} stays verbatim`,
    };
    for (const w of rest) {
      removeResult(w, {
        stage: 'collapse',
        action: 'collapsed',
        reason: 'retry_run',
        detail: `collapsed into ${head.a.id}`,
      });
      collapsed++;
    }
    collapsed++;
  }
  return collapsed;
}
