// The call-by-call replay of the decisions bench: at each model call of a transcript the history
// so far is stabilized (one memo per transcript and policy, as an agent session would) and trimmed
// the naive way (naive.ts), both written as the target API's request, and each request is scored
// on the same five decisions (see bench/README.md, "Decisions").
import { emitContext } from '../../src/core/emit/index.js';
import {
  callPoints,
  historyAt,
  canonicalRequest,
  cacheRequestFormat,
  commonPrefixLength,
} from '../../src/core/cache/prefix.js';
import type { CacheRequestFormat, CallPoint } from '../../src/core/cache/prefix.js';
import { policyFromObject } from '../../src/core/policy/index.js';
import type { Policy } from '../../src/core/policy/index.js';
import { latestUserRequest, taskStatement } from '../../src/core/scope/task.js';
import { maskString } from '../../src/core/stabilize/finalize.js';
import { StabilizeMemo } from '../../src/core/stabilize/memo.js';
import { createMasker, stabilizeTranscript } from '../../src/core/stabilize/stabilize.js';
import type { ContextItem, LedgerEntry, StabilizeResult } from '../../src/core/stabilize/types.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Artifact, Transcript } from '../../src/core/types.js';
import { HistoryText, argumentValues, holds } from '../../src/core/retention/facts.js';
import { artifactCost, inHistory, naiveTrim } from './naive.js';

export const TARGETS = ['openai', 'anthropic'] as const;
export type Target = (typeof TARGETS)[number];
export const STRATEGIES = ['stabilizer', 'naive'] as const;
export type Strategy = (typeof STRATEGIES)[number];
/** Calls replayed per transcript at most: the newest ones. */
export const MAX_CALLS = 400;

/** The tallies of one strategy; the shares are num / den. */
export interface Counts {
  calls: number;
  /** Calls in an open tool loop, and those at which every fresh result reached the request whole. */
  fresh_calls: number;
  fresh_whole: number;
  /** Argument values of the next tool calls seen in the history, and those the request holds. */
  arg_values: number;
  args_kept: number;
  /** Consecutive call pairs measured, and the sum of their prefix shares. */
  prefix_pairs: number;
  prefix_sum: number;
  over_budget: number;
  escalated: number;
  /** Escalated although system + policy + task statement + latest request fit the budget. */
  escalated_fits: number;
}

export function emptyCounts(): Counts {
  return {
    calls: 0,
    fresh_calls: 0,
    fresh_whole: 0,
    arg_values: 0,
    args_kept: 0,
    prefix_pairs: 0,
    prefix_sum: 0,
    over_budget: 0,
    escalated: 0,
    escalated_fits: 0,
  };
}

export function addCounts(into: Counts, c: Counts): void {
  for (const k of Object.keys(into) as (keyof Counts)[]) into[k] += c[k];
}

/** A call worth a look: where the stabilizer did worse than the naive trim, or broke a promise. */
export interface Note {
  file: string;
  budget: number;
  target: Target;
  /** Position of the call among the transcript's model calls (0-based), and its last artifact. */
  call: number;
  id: string;
  line: number;
  what: 'escalated_fits' | 'over_budget' | 'fresh_lost' | 'fewer_args';
  detail: string;
}

export interface ReplayResult {
  counts: Record<Strategy, Counts>;
  notes: Note[];
  /** Model calls in the transcript; `replayed` of them (the newest) were replayed. */
  total_calls: number;
  replayed: number;
}

export interface ReplayOptions {
  budget: number;
  target: Target;
  tokenizer: Tokenizer;
  maxCalls?: number;
}

/** The default policy with `budget` and `target` set. */
export function benchPolicy(budget: number, target: Target): Policy {
  const parsed = policyFromObject({ budget, target }, { file: 'decisions-bench' });
  if (!parsed.ok) throw new Error(`decisions: budget ${budget} / target ${target} is not a valid policy`);
  return parsed.policy;
}

/** The history as the agent had it at a call: the cache replay's, shared by every replay. */
export { historyAt };

/**
 * The tool results that end the history and answer calls (the open tool loop): the trailing run of
 * tool artifacts of the agent's history, those paired with a call. Empty when the history ends
 * otherwise.
 */
export function freshResults(history: Transcript): Artifact[] {
  const main = history.artifacts.filter(inHistory);
  const out: Artifact[] = [];
  for (let i = main.length - 1; i >= 0; i--) {
    const a = main[i] as Artifact;
    if (a.kind !== 'tool') break;
    if (history.pairing.resultToCall[a.id] !== undefined) out.push(a);
  }
  return out.reverse();
}

/** The stabilizer's decision on a result: in the context whole (kept, or with PII masked only). */
export function reachesWhole(item: ContextItem | undefined, entry: LedgerEntry | undefined): boolean {
  if (item === undefined || item.excerpt === true || item.placeholder === true) return false;
  if (entry === undefined) return true;
  return entry.action === 'kept' || (entry.action === 'masked' && entry.reason.startsWith('pii'));
}

/** The next assistant message after the call, when it makes tool calls. */
function nextCalls(transcript: Transcript, index: number): Artifact | undefined {
  for (let i = index + 1; i < transcript.artifacts.length; i++) {
    const a = transcript.artifacts[i] as Artifact;
    if (!inHistory(a)) continue;
    return a.kind === 'assistant' && (a.tool_calls?.length ?? 0) > 0 ? a : undefined;
  }
  return undefined;
}

/** Tokens of the previous request's longest prefix this one repeats, over its tokens (1 when empty). */
export function prefixShare(previous: string, current: string, tokenizer: Tokenizer): number {
  const cached = tokenizer.count(previous);
  if (cached === 0) return 1;
  const same = commonPrefixLength(current, previous);
  const reused =
    same === previous.length ? cached : Math.min(cached, tokenizer.count(previous.slice(0, same)));
  return reused / cached;
}

/** Tokens of what a context must hold: system and policy artifacts, the task statement, the latest request. */
export function mustHoldCost(history: Transcript, tokenizer: Tokenizer, policy: Policy): number {
  const must = new Map<string, Artifact>();
  for (const a of history.artifacts)
    if (inHistory(a) && (a.kind === 'system' || a.kind === 'policy')) must.set(a.id, a);
  for (const a of taskStatement(history.artifacts).artifacts) must.set(a.id, a);
  const latest = latestUserRequest(history.artifacts);
  if (latest) must.set(latest.id, latest);
  let n = 0;
  for (const a of must.values()) n += artifactCost(a, tokenizer, policy);
  return n;
}

interface Request {
  canonical: string;
  json: string;
}

function requestOf(
  context: readonly ContextItem[],
  format: CacheRequestFormat,
  history: Transcript,
): Request {
  const body = emitContext(context, format, history);
  return { canonical: canonicalRequest(format, body), json: JSON.stringify(body) };
}

/** Replays the transcript's model calls (the newest `maxCalls`) under one budget and target. */
export function replayDecisions(transcript: Transcript, opts: ReplayOptions): ReplayResult {
  const { budget, target, tokenizer } = opts;
  const policy = benchPolicy(budget, target);
  const format = cacheRequestFormat(transcript, policy);
  const memo = new StabilizeMemo();
  const masker = createMasker(policy);
  const all = callPoints(transcript.artifacts);
  const first = Math.max(0, all.length - (opts.maxCalls ?? MAX_CALLS));
  const text = new HistoryText(transcript.artifacts, inHistory);
  const counts: Record<Strategy, Counts> = { stabilizer: emptyCounts(), naive: emptyCounts() };
  const notes: Note[] = [];
  const previous: Partial<Record<Strategy, string>> = {};

  for (let k = first; k < all.length; k++) {
    const call = all[k] as CallPoint;
    const last = transcript.artifacts[call.index] as Artifact;
    const note = (what: Note['what'], detail: string): void => {
      notes.push({
        file: transcript.file,
        budget,
        target,
        call: k,
        id: last.id,
        line: last.source.line,
        what,
        detail,
      });
    };
    const history = historyAt(transcript, call.index);
    const result: StabilizeResult = stabilizeTranscript(history, { policy, tokenizer, memo });
    const naive = naiveTrim(history, { tokenizer, cost: policy, budget });
    const requests: Record<Strategy, Request> = {
      stabilizer: requestOf(result.context, format, history),
      naive: requestOf(naive.context, format, history),
    };
    for (const s of STRATEGIES) {
      const c = counts[s];
      c.calls++;
      const prev = previous[s];
      if (prev !== undefined) {
        c.prefix_pairs++;
        c.prefix_sum += prefixShare(prev, requests[s].canonical, tokenizer);
      }
      previous[s] = requests[s].canonical;
    }

    // 4. over budget
    if (result.budget.used > budget) {
      counts.stabilizer.over_budget++;
      note('over_budget', `${result.budget.used} tokens of ${budget}`);
    }
    if (naive.used > budget) counts.naive.over_budget++;

    // 5. escalated although what must be held fits
    if (result.status === 'escalated') {
      counts.stabilizer.escalated++;
      const must = mustHoldCost(history, tokenizer, policy);
      if (must <= budget) {
        counts.stabilizer.escalated_fits++;
        const why = result.events.find((e) => e.level === 'safety')?.code ?? 'no safety event';
        note('escalated_fits', `must-hold ${must} tokens; ${why}`);
      }
    }

    // 1. fresh results whole
    const fresh = freshResults(history);
    if (fresh.length > 0) {
      const items = new Map(result.context.map((i) => [i.id, i]));
      const ledger = new Map(result.ledger.map((e) => [e.id, e]));
      const sWhole = fresh.every((r) => reachesWhole(items.get(r.id), ledger.get(r.id)));
      const nWhole = fresh.every((r) => naive.kept.has(r.id));
      for (const s of STRATEGIES) counts[s].fresh_calls++;
      if (sWhole) counts.stabilizer.fresh_whole++;
      if (nWhole) counts.naive.fresh_whole++;
      if (!sWhole && nWhole) {
        const lost = fresh.find((r) => !reachesWhole(items.get(r.id), ledger.get(r.id))) as Artifact;
        const e = ledger.get(lost.id);
        note('fresh_lost', `${lost.id}: ${e ? `${e.action} ${e.reason}` : 'not in the ledger'}`);
      }
    }

    // 2. argument values of the next tool calls
    const next = nextCalls(transcript, call.index);
    if (next) {
      const values = new Set<string>();
      for (const c of next.tool_calls ?? []) for (const v of argumentValues(c)) values.add(v);
      let sKept = 0;
      let nKept = 0;
      let n = 0;
      for (const v of values) {
        if (!text.seenBy(call.index, v) || maskString(v, masker, {}) !== v) continue;
        n++;
        if (holds(requests.stabilizer.json, v)) sKept++;
        if (holds(requests.naive.json, v)) nKept++;
      }
      for (const s of STRATEGIES) counts[s].arg_values += n;
      counts.stabilizer.args_kept += sKept;
      counts.naive.args_kept += nKept;
      if (sKept < nKept) note('fewer_args', `${sKept} of ${n} values vs naive ${nKept}`);
    }
  }
  return { counts, notes, total_calls: all.length, replayed: all.length - first };
}
