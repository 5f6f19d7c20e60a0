// Stage 3 (summaries): a summary stays only while it is valid (DESIGN §4): its provenance exists,
// its scope is the current scope, it claims no more authority than its sources, and its age (in user
// turns) is within its ttl. Everything else is expired and logged with its reasons.
import type { Artifact } from '../types.js';
import type { ScopeOutcome } from './scope.js';
import type { SummaryLog } from './types.js';
import type { Work, WorkSet } from './work.js';
import { remove } from './work.js';

export interface SummaryRules {
  ttl: number;
  /** Highest authority first, e.g. [system, policy, tool, retrieval, user]. */
  authority: readonly string[];
  /** Sources no longer in the transcript, by id → kind (see historySources). */
  history?: ReadonlyMap<string, string>;
}

/**
 * `meta.history` of a native document written from a stabilized context (emit/native.ts): the id and
 * kind of each artifact its summaries cite that the context left out. A summary's provenance was
 * checked against the full history when the context was made; those sources still count as existing.
 */
export const HISTORY_META_KEY = 'history';

export function historySources(meta: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  const list = meta[HISTORY_META_KEY];
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (entry === null || typeof entry !== 'object') continue;
    const { id, kind } = entry as Record<string, unknown>;
    if (typeof id === 'string' && typeof kind === 'string') out.set(id, kind);
  }
  return out;
}

/** Turn number of every artifact: the count of user messages up to and including it. */
export function turnNumbers(artifacts: readonly Artifact[]): number[] {
  const turns: number[] = [];
  let turn = 0;
  for (const a of artifacts) {
    if (a.kind === 'user') turn++;
    turns.push(turn);
  }
  return turns;
}

/** Rank of a kind in the authority model: 0 is highest; kinds not listed rank below every listed one. */
function rank(kind: string, authority: readonly string[]): number {
  const i = authority.indexOf(kind);
  return i === -1 ? authority.length : i;
}

export function validateSummary(
  w: Work,
  ws: WorkSet,
  scope: ScopeOutcome,
  rules: SummaryRules,
  turns: readonly number[],
  currentTurn: number,
): SummaryLog {
  const a = w.a;
  const reasons: string[] = [];
  const provenance = a.provenance ?? [];
  const sources = provenance.map((id) =>
    id === a.id ? undefined : (ws.byId.get(id)?.a.kind ?? rules.history?.get(id)),
  );
  if (provenance.length === 0 || sources.some((s) => s === undefined)) reasons.push('missing_provenance');
  const scopeMismatch =
    (w.task !== undefined && scope.task !== undefined && w.task !== scope.task) ||
    (w.phase !== undefined && scope.phase !== undefined && w.phase !== scope.phase);
  if (scopeMismatch) reasons.push('scope_mismatch');
  // A summary's claimed authority is the role it is delivered with; it may not outrank every source.
  const claimed = a.role !== undefined && rules.authority.includes(a.role) ? a.role : undefined;
  const known = sources.filter((s): s is string => s !== undefined);
  if (claimed !== undefined && known.length > 0) {
    const best = Math.min(...known.map((kind) => rank(kind, rules.authority)));
    if (rank(claimed, rules.authority) < best) reasons.push('authority_exceeds_sources');
  }
  const ttl = a.ttl ?? rules.ttl;
  const createdAt = a.created_at ?? turns[w.index] ?? 0;
  const age = Math.max(0, currentTurn - createdAt);
  const expired = age > ttl;
  if (expired) reasons.push('expired');
  const status = reasons.length === 0 ? 'valid' : reasons.length === 1 && expired ? 'expired' : 'invalid';
  return { id: a.id, status, reasons, age, ttl, provenance: [...provenance], line: a.source.line };
}

export function applySummaries(ws: WorkSet, scope: ScopeOutcome, rules: SummaryRules): SummaryLog[] {
  const turns = turnNumbers(ws.items.map((w) => w.a));
  const currentTurn = turns.length > 0 ? (turns[turns.length - 1] ?? 0) : 0;
  const logs: SummaryLog[] = [];
  for (const w of ws.items) {
    if (w.a.kind !== 'summary' || w.removed) continue;
    const log = validateSummary(w, ws, scope, rules, turns, currentTurn);
    logs.push(log);
    if (log.status === 'valid') continue;
    remove(w, {
      stage: 'summaries',
      action: 'expired',
      reason: log.status === 'expired' ? 'summary_expired' : 'summary_invalid',
      detail:
        log.status === 'expired'
          ? `age ${log.age} turns exceeds ttl ${log.ttl}`
          : `invalid: ${log.reasons.join(', ')}`,
    });
  }
  return logs;
}
