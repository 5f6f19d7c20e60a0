// Prompt-cache prefix replay (issue 17, docs/cache-prefix.md). Providers' prompt caches (OpenAI's
// automatic caching, Anthropic's cache_control) only pay off when each request starts with a
// byte-identical prefix of the previous one. This replays a transcript as the agent lived it: at
// each model call the history so far is stabilized under the same policy and tokenizer, written as
// the request the target API receives, and compared with the request of the call before it.
// Pure and deterministic: the same transcript, policy and tokenizer give the same figures.
import type { RE2JS } from 're2js';
import { resolveEmitFormat, emitContext } from '../emit/index.js';
import type { Policy } from '../policy/schema.js';
import { pairToolResults } from '../readers/pairing.js';
import { StabilizeMemo } from '../stabilize/memo.js';
import { createMasker, stabilizeTranscript } from '../stabilize/stabilize.js';
import type { StabilizeOptions } from '../stabilize/stabilize.js';
import { maskString } from '../stabilize/finalize.js';
import { emitOptionsOf } from '../emit/repair.js';
import type { Tokenizer } from '../tokens/tokenizer.js';
import type { Artifact, Transcript } from '../types.js';
import type { CheckResult, Violation } from '../validate/types.js';
import { percent } from './describe.js';

/**
 * Measured model calls per transcript at most: a replay stabilizes the history once per measured
 * call and once for the call before it, so a 10,000-message session costs at most
 * 2 × MAX_REPLAY_POINTS stabilizations instead of one per call.
 */
export const MAX_REPLAY_POINTS = 32;
/** Of those, the newest calls are always measured: they are what the next request builds on. */
export const REPLAY_TAIL = 8;

/** The request format the replay writes (a native document is no request: written as OpenAI's). */
export type CacheRequestFormat = 'openai' | 'anthropic' | 'responses';

/** A model call: the agent sends the history up to and including `artifact`. */
export interface CallPoint {
  /** Index in `transcript.artifacts` of the last artifact the call sends. */
  index: number;
  /** The user message that started the call's turn (absent before the first user message). */
  turn?: Artifact;
}

/** One measured call: how much of its request the previous call's request already held. */
export interface CachePoint {
  /** The last artifact the call sends (a user message or a tool result). */
  id: string;
  line: number;
  /** The user message that started the turn (the call's own artifact before any user message). */
  turn_id: string;
  turn_line: number;
  turn_column: number;
  /** Tokens of the longest byte-identical prefix shared with the previous request. */
  reused: number;
  /** Tokens of the previous request: what the provider cached. */
  cached: number;
  /** Tokens of this request. */
  tokens: number;
  /**
   * reused / cached: how much of the cached request this one still starts with (1 when it only
   * appends; growth is not a cache miss of the stabilizer's making). 1 for an empty previous request.
   */
  share: number;
}

/** The figure reports carry (`cache_prefix` of a transcript). Shares are rounded to 4 decimals. */
export interface CachePrefixSummary {
  format: CacheRequestFormat;
  /** Model calls in the transcript (the first has no previous request to share a prefix with). */
  calls: number;
  /** Calls measured (each against the call before it): all but the first, at most MAX_REPLAY_POINTS. */
  replayed: number;
  /** Turns (user messages) the measured calls belong to. */
  turns: number;
  /** Mean and minimum share over the measured calls; null when none was measured. */
  mean_share: number | null;
  min_share: number | null;
  /** The measured call with the lowest share (the earliest of equals). */
  lowest?: { id: string; line: number; turn_id: string; turn_line: number };
  /** Sums over the measured calls: tokens the cache could serve, tokens sent. */
  reused_tokens: number;
  sent_tokens: number;
}

export interface CachePrefixReplay {
  summary: CachePrefixSummary;
  points: CachePoint[];
}

export interface CachePrefixOptions {
  policy: Policy;
  tokenizer: Tokenizer;
  rules?: readonly { name: string; re: RE2JS }[];
  /** Measured calls at most (default MAX_REPLAY_POINTS); at least REPLAY_TAIL + 1 is used. */
  maxPoints?: number;
  /** The key of `pii.strategy: hash` (StabilizeOptions.piiKey). */
  piiKey?: string | undefined;
}

/**
 * What each call of a replay stabilizes with: the policy, tokenizer, rules and hash key of the run,
 * and one memo for all its calls (every call stabilizes almost the same history, so each old text
 * costs a lookup). Shared by this replay and the retention replay.
 */
export function replayRun(opts: {
  policy: Policy;
  tokenizer: Tokenizer;
  rules?: readonly { name: string; re: RE2JS }[] | undefined;
  piiKey?: string | undefined;
  /** The session's memo, when the caller has one already (the run that stabilized the whole transcript). */
  memo?: StabilizeMemo | undefined;
}): StabilizeOptions & { memo: StabilizeMemo } {
  return {
    policy: opts.policy,
    tokenizer: opts.tokenizer,
    memo: opts.memo ?? new StabilizeMemo(),
    ...(opts.rules ? { rules: opts.rules } : {}),
    ...(opts.piiKey !== undefined ? { piiKey: opts.piiKey } : {}),
  };
}

function onMainLine(a: Artifact): boolean {
  return a.sidechain !== true && a.offChain === undefined;
}

/**
 * Every model call of the transcript: the agent calls the model whenever its history ends with
 * something other than an assistant message and an assistant message follows (after a user message,
 * after a batch of tool results), and once more at the end when the history ends waiting for one.
 * Side-chain and off-chain records are not the main agent's calls.
 */
export function callPoints(artifacts: readonly Artifact[]): CallPoint[] {
  const main: number[] = [];
  for (let i = 0; i < artifacts.length; i++) if (onMainLine(artifacts[i] as Artifact)) main.push(i);
  const out: CallPoint[] = [];
  let turn: Artifact | undefined;
  for (let k = 0; k < main.length; k++) {
    const a = artifacts[main[k] as number] as Artifact;
    if (a.kind === 'user') turn = a;
    if (a.kind === 'assistant') continue;
    const next = k + 1 < main.length ? artifacts[main[k + 1] as number] : undefined;
    if (next === undefined || next.kind === 'assistant') {
      out.push(turn ? { index: main[k] as number, turn } : { index: main[k] as number });
    }
  }
  return out;
}

/**
 * Which calls are measured (positions in `points`, each ≥ 1): all when they fit, else the newest
 * `tail` and the rest spread evenly over the earlier ones, ascending.
 */
export function pickMeasured(count: number, max: number, tail = REPLAY_TAIL): number[] {
  const candidates = count - 1;
  if (candidates <= 0) return [];
  if (candidates <= max) return Array.from({ length: candidates }, (_, i) => i + 1);
  const picked = new Set<number>();
  for (let i = count - tail; i < count; i++) picked.add(i);
  const spread = max - tail;
  const span = count - tail - 1;
  for (let k = 0; k < spread; k++) picked.add(1 + Math.floor((k * span) / spread));
  return [...picked].sort((a, b) => a - b);
}

/** The request format: the policy's target, else the API the transcript's format talks to. */
export function cacheRequestFormat(transcript: Transcript, policy: Policy): CacheRequestFormat {
  if (policy.target !== 'same') return policy.target;
  const format = resolveEmitFormat('same', transcript.format);
  return format === 'native' ? 'openai' : format;
}

/** The history as the agent had it at a call: the artifacts so far, paired among themselves. */
export function historyAt(transcript: Transcript, index: number): Transcript {
  const artifacts = transcript.artifacts.slice(0, index + 1);
  return { ...transcript, artifacts, pairing: pairToolResults(artifacts), diagnostics: [] };
}

/**
 * The request as the provider's cache reads it: one JSON line per message (item), in the order the
 * prompt is rendered, so that a history that only grows gives the previous text as an exact prefix.
 * Anthropic's system prompt comes first (its cache prefix is tools, system, messages, whatever the
 * key order of the body); OpenAI messages and Responses items are in order already.
 */
export function canonicalRequest(format: CacheRequestFormat, request: unknown): string {
  const body = request as {
    system?: unknown;
    messages?: unknown[];
    input?: unknown[];
    instructions?: unknown;
  };
  const head = format === 'anthropic' ? body.system : format === 'responses' ? body.instructions : undefined;
  const items = (format === 'responses' ? body.input : body.messages) ?? [];
  let text = head === undefined ? '' : `${JSON.stringify(head)}\n`;
  for (const item of items) text += `${JSON.stringify(item)}\n`;
  return text;
}

/** Length of the longest common prefix, never ending inside a surrogate pair. */
export function commonPrefixLength(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i > 0) {
    const c = a.charCodeAt(i - 1);
    if (c >= 0xd800 && c <= 0xdbff) i--;
  }
  return i;
}

function round4(x: number): number {
  return Math.round(x * 10_000) / 10_000;
}

/**
 * Replays the transcript's model calls and measures, for each measured call, the share of its
 * request (in tokens of the policy tokenizer) that is a byte-identical prefix of the previous
 * call's request. The requests are serialized as the SDKs send them (JSON, the emitter's key order).
 */
export function replayCachePrefix(transcript: Transcript, opts: CachePrefixOptions): CachePrefixReplay {
  const { policy, tokenizer } = opts;
  const format = cacheRequestFormat(transcript, policy);
  const calls = callPoints(transcript.artifacts);
  const max = Math.max(REPLAY_TAIL + 1, opts.maxPoints ?? MAX_REPLAY_POINTS);
  const measured = pickMeasured(calls.length, max);
  const run = replayRun(opts);
  const { memo } = run;
  // The replay's numbering table is its memo's: the repair text is numbered with it too.
  const masker = createMasker(policy, opts.rules, { aliases: memo.for(policy).aliases, key: opts.piiKey });
  const repair = emitOptionsOf(policy, (t) => maskString(t, masker, {}));
  const requests = new Map<number, string>();
  const requestAt = (pos: number): string => {
    let text = requests.get(pos);
    if (text === undefined) {
      const call = calls[pos] as CallPoint;
      const history = historyAt(transcript, call.index);
      const result = stabilizeTranscript(history, run);
      text = canonicalRequest(format, emitContext(result.context, format, history, repair));
      requests.set(pos, text);
      // Only the previous call's request is ever needed again.
      requests.delete(pos - 2);
    }
    return text;
  };

  const points: CachePoint[] = [];
  for (const pos of measured) {
    const previous = requestAt(pos - 1);
    const current = requestAt(pos);
    const same = commonPrefixLength(current, previous);
    const tokens = tokenizer.count(current);
    const cached = tokenizer.count(previous);
    const reused =
      same === previous.length ? cached : Math.min(cached, tokenizer.count(previous.slice(0, same)));
    const call = calls[pos] as CallPoint;
    const last = transcript.artifacts[call.index] as Artifact;
    const turn = call.turn ?? last;
    points.push({
      id: last.id,
      line: last.source.line,
      turn_id: turn.id,
      turn_line: turn.source.line,
      turn_column: turn.source.column,
      reused,
      cached,
      tokens,
      share: cached === 0 ? 1 : reused / cached,
    });
  }
  return { summary: summarize(format, calls.length, points), points };
}

function summarize(
  format: CacheRequestFormat,
  calls: number,
  points: readonly CachePoint[],
): CachePrefixSummary {
  let lowest: CachePoint | undefined;
  let sum = 0;
  let reused = 0;
  let sent = 0;
  for (const p of points) {
    if (lowest === undefined || p.share < lowest.share) lowest = p;
    sum += p.share;
    reused += p.reused;
    sent += p.tokens;
  }
  const summary: CachePrefixSummary = {
    format,
    calls,
    replayed: points.length,
    turns: new Set(points.map((p) => p.turn_id)).size,
    mean_share: points.length > 0 ? round4(sum / points.length) : null,
    min_share: lowest ? round4(lowest.share) : null,
    reused_tokens: reused,
    sent_tokens: sent,
  };
  if (lowest) {
    summary.lowest = {
      id: lowest.id,
      line: lowest.line,
      turn_id: lowest.turn_id,
      turn_line: lowest.turn_line,
    };
  }
  return summary;
}

/**
 * The `cache_prefix` check: one violation per turn in which a measured call repeats less than
 * `min_share` of the previous request, at the user message that started the turn (its worst call).
 */
export function cachePrefixCheck(
  points: readonly CachePoint[],
  severity: 'error' | 'warning',
  minShare: number,
): CheckResult {
  const worst = new Map<string, CachePoint>();
  for (const p of points) {
    if (p.share >= minShare) continue;
    const seen = worst.get(p.turn_id);
    if (seen === undefined || p.share < seen.share) worst.set(p.turn_id, p);
  }
  const violations: Violation[] = [...worst.values()]
    .sort((a, b) => a.turn_line - b.turn_line || a.line - b.line)
    .map((p) => ({
      id: p.turn_id,
      line: p.turn_line,
      column: p.turn_column,
      message:
        `the model call after ${p.id} (line ${p.line}) starts with only ${percent(p.share)} of the previous ` +
        `request as a byte-identical prefix (${p.reused} of its ${p.cached} tokens; this request has ${p.tokens}); ` +
        `cache_prefix.min_share is ${percent(minShare)}: the rest misses the provider's prompt cache`,
    }));
  return { name: 'cache_prefix', ok: violations.length === 0, severity, violations };
}

/** The `cache_prefix` check severity of a policy: error or warning when enabled, else undefined. */
export function cachePrefixSeverity(policy: Policy): 'error' | 'warning' | undefined {
  const s = policy.checks.cache_prefix;
  return s === 'error' || s === 'warning' ? s : undefined;
}

/** `cache_prefix.min_share`, 0.5 when the policy leaves the mapping out. */
export function cachePrefixMinShare(policy: Policy): number {
  return policy.cache_prefix?.min_share ?? 0.5;
}
