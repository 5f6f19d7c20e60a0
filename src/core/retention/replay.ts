// The `retention` replay (issue 28, docs/checks.md "retention"): a valid context can still have lost
// what the agent needs next. The transcript is replayed as the agent lived it: before each assistant
// turn that makes tool calls, the history so far is stabilized under the policy (one memo per
// session, as an agent keeps it) and read as the model reads it. Every argument value of those
// calls (facts.ts) that the history already held must be in what the model reads at that call; a
// value that is not is a lost fact, told with where it came from and where it was needed.
// Pure and deterministic: the same transcript, policy and tokenizer give the same facts.
import type { RE2JS } from 're2js';
import { callPoints, historyAt, pickMeasured, replayRun } from '../cache/prefix.js';
import type { CallPoint } from '../cache/prefix.js';
import type { Policy } from '../policy/schema.js';
import { onMainChain } from '../scope/main-chain.js';
import { maskString } from '../stabilize/finalize.js';
import type { StabilizeMemo } from '../stabilize/memo.js';
import { stabilizeTranscript } from '../stabilize/stabilize.js';
import type { LedgerEntry, StabilizeResult } from '../stabilize/types.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Artifact, Transcript } from '../types.js';
import { HistoryText, argumentValues, artifactText, factPiiMasker, holds, inHistory } from './facts.js';

/**
 * Replayed calls per transcript at most (the default bound): each costs one stabilization of the
 * history so far. The newest calls are always among them (RETENTION_TAIL); the rest are spread
 * evenly over the earlier ones.
 */
export const MAX_RETENTION_CALLS = 24;
export const RETENTION_TAIL = 8;

/** A fact the model no longer saw when it needed it. */
export interface LostFact {
  /** The argument value, shortened for display (values the PII detectors match are never facts). */
  value: string;
  /** Where it was needed: the assistant turn whose tool call used it. */
  needed: { id: string; line: number; column: number; tool: string };
  /** Where it came from: the first artifact of the history that holds it. */
  source: { id: string; line: number; kind: string };
  /**
   * Why the context lacked it: the final decision on the newest artifact that held it
   * (`dropped (budget)`, `collapsed (compacted_into)`, `excerpted (tool_output)` …).
   */
  cause: string;
}

/** The figures reports carry (`retention` of a transcript). */
export interface RetentionSummary {
  /** Assistant turns with tool calls (each one model call). */
  calls: number;
  /** Of those, replayed (the newest RETENTION_TAIL always). */
  replayed: number;
  /** Argument values of the replayed calls that the history already held, and those lost. */
  facts: number;
  lost: number;
}

export interface RetentionReplay {
  summary: RetentionSummary;
  lost: LostFact[];
}

export interface RetentionOptions {
  policy: Policy;
  tokenizer: Tokenizer;
  rules?: readonly { name: string; re: RE2JS }[];
  /** Replayed calls at most (default MAX_RETENTION_CALLS); at least RETENTION_TAIL is used. */
  maxCalls?: number | undefined;
  /** The key of `pii.strategy: hash` (StabilizeOptions.piiKey). */
  piiKey?: string | undefined;
  /**
   * The memo the whole transcript was stabilized with, if any: every replayed history is a prefix
   * of it, so its texts are counted and masked once for all calls.
   */
  memo?: StabilizeMemo | undefined;
}

/** A model call that the agent answered with tool calls: the history it saw, the turn it wrote. */
export interface ToolCallPoint {
  /** Index in `transcript.artifacts` of the last artifact the call sends. */
  index: number;
  /** The assistant turn that followed, with its tool calls. */
  next: Artifact;
}

/** Every model call answered with tool calls, oldest first (side chains are not the agent's). */
export function toolCallPoints(artifacts: readonly Artifact[]): ToolCallPoint[] {
  const out: ToolCallPoint[] = [];
  for (const call of callPoints(artifacts)) {
    const next = nextOnMainChain(artifacts, call);
    if (next?.kind === 'assistant' && (next.tool_calls?.length ?? 0) > 0)
      out.push({ index: call.index, next });
  }
  return out;
}

function nextOnMainChain(artifacts: readonly Artifact[], call: CallPoint): Artifact | undefined {
  for (let i = call.index + 1; i < artifacts.length; i++) {
    const a = artifacts[i] as Artifact;
    if (onMainChain(a)) return a;
  }
  return undefined;
}

/**
 * Which of `count` calls are replayed (positions, ascending): all, or the newest `tail` and an even
 * spread over the rest. The cache replay's pick over one more call, shifted: it measures each call
 * against the one before, so its first call is never a pick.
 */
export function pickReplayed(count: number, max: number, tail = RETENTION_TAIL): number[] {
  return pickMeasured(count + 1, max, tail).map((p) => p - 1);
}

const SHOWN_CHARS = 60;

/** A value as a report shows it: one line, at most SHOWN_CHARS characters. */
export function shownValue(value: string): string {
  const line = value.replace(/\s+/g, ' ');
  return line.length <= SHOWN_CHARS ? line : `${line.slice(0, SHOWN_CHARS - 1)}…`;
}

/** How a report quotes a value: shown, in backticks, which the value itself never holds. */
export function quotedValue(value: string): string {
  return `\`${shownValue(value).replace(/`/g, "'")}\``;
}

/**
 * Why the context lacked a value: the final decision on the newest artifact that held it (whose loss
 * lost it), with its line when that is not the first holder: `dropped (budget)`,
 * `dropped (pair_unit) at line 20`.
 */
function causeOf(ledger: ReadonlyMap<string, LedgerEntry>, first: Artifact, newest: Artifact): string {
  const e = ledger.get(newest.id);
  const fate = e === undefined ? 'left out' : `${e.action} (${e.reason})`;
  return newest === first ? fate : `${fate} at line ${newest.source.line}`;
}

/**
 * Replays the transcript's tool-calling model calls (at most `maxCalls`, the newest always) and
 * lists every argument value the history held but the context at that call did not.
 */
export function replayRetention(transcript: Transcript, opts: RetentionOptions): RetentionReplay {
  const { policy } = opts;
  const points = toolCallPoints(transcript.artifacts);
  const max = Math.max(RETENTION_TAIL, opts.maxCalls ?? MAX_RETENTION_CALLS);
  const replayed = pickReplayed(points.length, max);
  // Only the context and the ledger's decisions are read of each replayed call.
  const run = { ...replayRun(opts), decisionsOnly: true };
  const pii = factPiiMasker(policy, opts.rules);
  const text = new HistoryText(transcript.artifacts, inHistory);
  const lost: LostFact[] = [];
  let facts = 0;
  for (const pos of replayed) {
    const point = points[pos] as ToolCallPoint;
    const values = new Map<string, string>();
    for (const call of point.next.tool_calls ?? []) {
      for (const v of argumentValues(call)) if (!values.has(v)) values.set(v, call.name);
    }
    const known = [...values].filter(([v]) => text.seenBy(point.index, v) && maskString(v, pii, {}) === v);
    if (known.length === 0) continue;
    const history = historyAt(transcript, point.index);
    const result: StabilizeResult = stabilizeTranscript(history, run);
    // What the model reads, as the history holds it (item texts and raw call arguments): a request
    // body escapes call arguments twice, which would hide a value that is there.
    const seen = result.context.map(artifactText).join('\n\u0000\n');
    const ledger = new Map(result.ledger.map((e) => [e.id, e]));
    for (const [value, tool] of known) {
      facts++;
      if (holds(seen, value)) continue;
      const first = transcript.artifacts[text.firstHolder(point.index, value)] as Artifact;
      lost.push({
        value: shownValue(value),
        needed: { id: point.next.id, line: point.next.source.line, column: point.next.source.column, tool },
        source: { id: first.id, line: first.source.line, kind: first.kind },
        // The newest holder is the one whose loss lost the value.
        cause: causeOf(ledger, first, transcript.artifacts[text.lastHolder(point.index, value)] ?? first),
      });
    }
  }
  return {
    summary: { calls: points.length, replayed: replayed.length, facts, lost: lost.length },
    lost,
  };
}
