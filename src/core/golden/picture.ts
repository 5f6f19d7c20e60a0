// The picture of one transcript's context, small enough to travel in the check report: the fate of
// every artifact along the session (as runs of equal fates, in transcript order), what fills the
// budget (tokens in the context by artifact kind) and the three largest consumers. The Markdown map,
// the budget bar and "what fills the budget" are drawn from it; the HTML viewer draws the full
// golden instead. Only ids, kinds, lines and counts: never content.
import type { ContextItem, LedgerEntry } from '../stabilize/types.js';

/** How an artifact fared, as a reviewer reads it at a glance (from the ledger's action). */
export const MAP_FATES = ['kept', 'protected', 'masked', 'excerpt', 'dropped'] as const;
export type MapFate = (typeof MAP_FATES)[number];

export interface MapRun {
  fate: MapFate;
  /** Artifacts in the run (consecutive in the transcript, all with this fate). */
  count: number;
  /** Transcript line of the first artifact of the run. */
  line: number;
  /** Id of the first artifact of the run. */
  id: string;
  /** Tokens the run has in the context (0 for dropped runs). */
  tokens: number;
}

export interface Consumer {
  id: string;
  kind: string;
  line: number;
  tokens: number;
  /** tokens ÷ budget limit, rounded to a whole percent (may exceed 100 when over budget). */
  percent: number;
}

export interface SessionPicture {
  runs: MapRun[];
  /** Tokens in the context by artifact kind, kinds sorted by name. */
  by_kind: Record<string, number>;
  /** The largest artifacts in the context, largest first (ties by line, then id): at most three. */
  consumers: Consumer[];
}

/** The picture keeps the three largest consumers. */
export const CONSUMERS_SHOWN = 3;

/**
 * kept / protected (kept because a protection rule holds it) / masked / excerpt (cut to head and
 * tail, or replaced by a placeholder) / dropped (dropped, deduplicated, expired, collapsed).
 */
export function mapFate(entry: Pick<LedgerEntry, 'action' | 'protected_by'>): MapFate {
  switch (entry.action) {
    case 'masked':
      return 'masked';
    case 'excerpted':
    case 'compressed':
      return 'excerpt';
    case 'kept':
      return entry.protected_by && entry.protected_by.length > 0 ? 'protected' : 'kept';
    default:
      return 'dropped';
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Ledger entries in transcript order (line, then the order the ledger gives). */
function inTranscriptOrder(ledger: readonly LedgerEntry[]): LedgerEntry[] {
  return ledger
    .map((entry, index) => ({ entry, index }))
    .sort((a, b) => a.entry.line - b.entry.line || a.index - b.index)
    .map(({ entry }) => entry);
}

export function buildPicture(
  ledger: readonly LedgerEntry[],
  context: readonly ContextItem[],
  limit: number,
): SessionPicture {
  const runs: MapRun[] = [];
  for (const entry of inTranscriptOrder(ledger)) {
    const fate = mapFate(entry);
    const last = runs[runs.length - 1];
    if (last && last.fate === fate) {
      last.count++;
      last.tokens += entry.tokens_after;
    } else {
      runs.push({ fate, count: 1, line: entry.line, id: entry.id, tokens: entry.tokens_after });
    }
  }
  const kinds: Record<string, number> = {};
  for (const item of context) kinds[item.kind] = (kinds[item.kind] ?? 0) + item.tokens;
  const byKind: Record<string, number> = {};
  for (const kind of Object.keys(kinds).sort(compareText)) byKind[kind] = kinds[kind] ?? 0;
  const consumers = [...context]
    .sort((a, b) => b.tokens - a.tokens || a.line - b.line || compareText(a.id, b.id))
    .slice(0, CONSUMERS_SHOWN)
    .filter((item) => item.tokens > 0)
    .map((item) => ({
      id: item.id,
      kind: item.kind,
      line: item.line,
      tokens: item.tokens,
      percent: limit > 0 ? Math.round((item.tokens / limit) * 100) : 0,
    }));
  return { runs, by_kind: byKind, consumers };
}
