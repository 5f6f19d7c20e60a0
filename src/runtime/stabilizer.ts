// The stabilizer inside the agent: one object per agent process that applies the repo's policy before
// each model call, keeps per-session state so a call costs in proportion to what is new, records
// the history when asked, and stops (or warns) on an escalated context. The framework adapters
// (src/adapters) are thin layers over `stabilize`.
import type { EmitFormat } from '../core/emit/index.js';
import { emitContext } from '../core/emit/index.js';
import { emitApis, repairedBefore } from '../core/emit/notes.js';
import { emitOptionsOf, leadingUserText } from '../core/emit/repair.js';
import { InputError, formatDiagnostic } from '../core/diagnostics.js';
import type { ParsedPolicy, Policy } from '../core/policy/index.js';
import type { EscalationChoice } from '../core/policy/schema.js';
import type { FormatOption } from '../core/readers/index.js';
import { sanitizeForPolicy, stabilizeTranscript } from '../core/stabilize/stabilize.js';
import type { Masker } from '../core/stabilize/finalize.js';
import { maskString } from '../core/stabilize/finalize.js';
import { COMPACTION_TAG } from '../core/stabilize/compaction.js';
import { textOf } from '../core/stabilize/work.js';
import { shownName } from '../core/text/shown-name.js';
import { StabilizeMemo } from '../core/stabilize/memo.js';
import type { StabilizeResult } from '../core/stabilize/types.js';
import type { Tokenizer } from '../core/tokens/tokenizer.js';
import type { Artifact, Diagnostic, Transcript } from '../core/types.js';
import { resolvePolicy } from '../api/policy.js';
import type { PolicyOption } from '../api/policy.js';
import { isTranscript, toTranscript } from '../api/input.js';
import { IncrementalReader } from '../api/incremental-read.js';
import type { TranscriptInput } from '../api/input.js';
import { loadPolicy } from '../io/load-policy.js';
import { loadPolicyTokenizer } from '../tokens/load.js';
import { ContextEscalatedError } from './errors.js';
import { GuardianLink, guardCall } from './guardian-link.js';
import type { GuardianLinkOptions, GuardianReport, LinkCall } from './guardian-link.js';
import type { ContextPressure } from '../core/guardian/pressure.js';
import type { RuntimeWarning } from './errors.js';
import { maskArtifact } from './record-lines.js';
import { SessionRecorder } from './recorder.js';
import type { RecordOptions } from './recorder.js';
import { checkPiiKey, nameMasker, refuseIfBlocked, restorer, sessionMasker } from './pii-session.js';
import type { Restore } from './pii-session.js';

export interface ContextStabilizerOptions {
  /**
   * The policy as an object (a Policy or a partial one such as `{ budget: 4000 }`). Without it the
   * policy file is used: `policyFile`, else `.github/context-policy.{yml,yaml,json}` under `cwd`,
   * else the built-in default.
   */
  policy?: PolicyOption;
  /** A policy file (YAML or JSON), relative to `cwd`. */
  policyFile?: string;
  /** Where the policy file is looked up; default process.cwd(). */
  cwd?: string;
  /**
   * The key of `pii.strategy: hash` (each value's alias is a keyed hash of it): required by such a
   * policy, e.g. `process.env.CONTEXT_STABILITY_PII_KEY`, the variable the CLI and the Action read.
   */
  piiKey?: string;
  /** Overrides the policy's `runtime.on_escalated` (default `stop`: throw ContextEscalatedError). */
  onEscalated?: EscalationChoice;
  /** Receives warnings (an escalated context sent anyway, excerpts, policy warnings, recording errors). Default: process.emitWarning. */
  onWarning?: (warning: RuntimeWarning) => void;
  /** Record each call's history, before stabilization, as native JSONL: a folder, or options. */
  record?: string | RecordOptions;
  /**
   * Summarizes with a model what compaction (`compaction.enabled`) takes out of the context. Called
   * when a call makes a new or refreshed compaction summary; its text becomes a summary artifact of
   * the session's history (recorded, so CI replays it without a model) and replaces the
   * deterministic text. If it throws, returns nothing or more than `compaction.max_tokens`, the
   * deterministic summary is used and a `summarizer` warning says why.
   */
  summarizer?: Summarizer;
  /**
   * The context guardian (docs/host-loop.md): a GuardianLink (createGuardianLink), or its options.
   * Each call's pressure goes through the gate; at critical the checkpoint is written and the call
   * throws ContextHaltedError, as does every later one until the halt is resumed.
   */
  guardian?: GuardianLink | GuardianLinkOptions;
}

/** What a summarizer gets: PII masked with the policy's detectors, like everything the model sees. */
export interface SummarizerInput {
  session: string;
  /** Ids of the artifacts the summary stands for (a refreshed summary's sources included). */
  covers: readonly string[];
  /** The artifacts newly taken out of the context, content and tool arguments masked. */
  artifacts: readonly Artifact[];
  /** The summary the stabilizer built from them (deterministic; the earlier summary included). */
  deterministic: string;
  /** The text of the summary this one refreshes, when it refreshes one. */
  previous?: string;
  /** The most tokens the text may have (compaction.max_tokens). */
  maxTokens: number;
}

export type Summarizer = (input: SummarizerInput) => Promise<string>;

export interface CallOptions {
  /** One agent conversation; state and recordings are kept per session. Default `default`. */
  session?: string;
  /** The reader for the history; default: detected from its shape. */
  format?: FormatOption;
}

export interface StabilizedCall<P = unknown> {
  /** The request to send, in the emit format. */
  payload: P;
  result: StabilizeResult;
  /** The history as read (PII aliases applied to ids and names, content as given). */
  transcript: Transcript;
  /**
   * Set when the context starts with an assistant turn and a request the policy checks it for
   * requires a user turn first (Anthropic Messages): the placeholder user turn to put before item
   * `before`, with `text` (the policy's `repair.leading_user_text`, masked). An `anthropic`
   * payload holds it already; an adapter that rebuilds its framework's messages puts it in itself.
   */
  repair?: { before: string; text: string };
  /**
   * The restore map (pii.strategy numbered or hash; docs/pii.md): `value` with every alias of this
   * session (`[EMAIL_1]`) in its strings, at any depth and inside JSON texts, replaced by the value
   * it stands for, for a tool call's arguments before the tool runs. Never secrets; under redact
   * and block the value comes back unchanged. Host-side only: never record or log what it returns.
   */
  restore: Restore;
  /** Must-keep tokens ÷ budget (1 when escalated), with its level against the thresholds in force. */
  pressure: ContextPressure;
  /** With a guardian link: what the gate made of the call (a fresh summary due…). */
  guardian?: GuardianReport;
}

interface Ready {
  parsed: ParsedPolicy;
  tokenizer: Tokenizer;
  masker: Masker;
}

interface SessionState {
  memo: StabilizeMemo;
  reader: IncrementalReader;
  /** Summaries a summarizer wrote, each after the artifact that ended the history it was made in. */
  summaries: { after: string; artifact: Artifact }[];
  /** The file the session was last recorded to (the `record` option), named by an escalation. */
  recording?: string;
  /** The session's masker (its numbering table is the memo's) and restore map, made on first use. */
  pii?: { masker: Masker; restore: Restore };
}

/** Sessions kept at once; the least recently used is forgotten beyond this. */
const MAX_SESSIONS = 256;

function defaultWarning(w: RuntimeWarning): void {
  process.emitWarning(w.message, { code: `CONTEXT_STABILITY_${w.code.toUpperCase()}` });
}

export class ContextStabilizer {
  private readonly opts: ContextStabilizerOptions;
  private ready: Promise<Ready> | undefined;
  private readonly sessions = new Map<string, SessionState>();
  private readonly recorder: SessionRecorder | undefined;
  /** The guardian link; also reachable to resume or checkpoint through it. */
  readonly guardian: GuardianLink | undefined;

  constructor(opts: ContextStabilizerOptions = {}) {
    this.opts = opts;
    const rec = opts.record;
    this.recorder =
      rec === undefined ? undefined : new SessionRecorder(typeof rec === 'string' ? { dir: rec } : rec);
    const g = opts.guardian;
    this.guardian = g === undefined || g instanceof GuardianLink ? g : new GuardianLink(g);
  }

  /** The policy in force (loaded on first use). */
  async policy(): Promise<Policy> {
    return (await this.load()).parsed.policy;
  }

  /**
   * Stabilizes one call's history (any format the readers accept, or a Transcript) and returns the
   * request in `emit`. Throws ContextEscalatedError when escalated and the policy says stop; an
   * InputError (file:line:column diagnostics that never quote the history) when it is not a history.
   */
  async stabilize<P = unknown>(
    input: TranscriptInput,
    emit: Exclude<EmitFormat, 'same'>,
    call: CallOptions = {},
  ): Promise<StabilizedCall<P>> {
    const ready = await this.load();
    const session = call.session ?? 'default';
    const state = this.state(session);
    // Messages, ledger lines and the file label show the session with PII masked: a thread id may be an address.
    const shown = shownName(maskString(session, ready.masker, {}));
    const file = `<session ${shown}>`;
    const link: LinkCall = {
      session,
      shown,
      mask: (t) => shownName(maskString(t, ready.masker, {})),
      warn: (w) => this.warn(w),
    };
    // A latched halt stops the call before anything is read, recorded or sent.
    await this.guardian?.beforeCall(link);
    const format = call.format ?? 'auto';
    // A payload in a message format is read message by message, each message once per session.
    const read =
      (format !== 'auto' && !isTranscript(input) ? state.reader.read(input, format, file) : undefined) ??
      toTranscript(input, { file, format });
    const { policy, rules } = ready.parsed;
    let transcript = withSummaries(sanitizeForPolicy(read, policy, rules), state.summaries);
    // The session's masker numbers with its memo's table: recordings show the aliases the model sees.
    const pii = (state.pii ??= {
      masker: sessionMasker(policy, rules, state.memo, this.opts.piiKey),
      restore: restorer(policy, state.memo.aliases),
    });
    if (this.recorder) await this.record(session, shown, transcript, pii.masker);
    const piiKey = this.opts.piiKey;
    const run = (t: Transcript): StabilizeResult =>
      stabilizeTranscript(t, { policy, tokenizer: ready.tokenizer, rules, memo: state.memo, emit, piiKey });
    let result = run(transcript);
    const summarized = await this.summarize(session, shown, transcript, result, ready, state);
    if (summarized) {
      transcript = summarized;
      if (this.recorder) await this.record(session, shown, transcript, pii.masker);
      result = run(transcript);
    }
    // The recording's name holds the session's stem: masked like `shown` when the recorder does not mask.
    const recording =
      state.recording === undefined ? undefined : maskString(state.recording, ready.masker, {});
    // pii.strategy block: a context holding PII is not sent (ContextBlockedError, counts only).
    refuseIfBlocked(session, shown, result, policy);
    const guard = await guardCall(this.guardian, link, result, policy.guardian);
    if (guard.halt && result.status !== 'escalated') throw guard.halt;
    this.verdict(session, shown, result, policy, recording, guard.halt);
    const opts = emitOptionsOf(policy, (t) => maskString(t, pii.masker, {}));
    const payload = emitContext(result.context, emit, transcript, opts) as P;
    const before = repairedBefore(result.context, emitApis(transcript.format, policy.target, emit), opts);
    return {
      payload,
      result,
      transcript,
      restore: pii.restore,
      ...(before !== undefined ? { repair: { before, text: leadingUserText(opts) } } : {}),
      pressure: guard.pressure,
      ...(guard.report ? { guardian: guard.report } : {}),
    };
  }

  /**
   * When this call made a new or refreshed compaction summary and a summarizer is set: the
   * summarizer's text as a summary artifact at the end of the history (kept for later calls), and
   * the history with it. Undefined when there is nothing to summarize or the summarizer failed.
   */
  private async summarize(
    session: string,
    shown: string,
    transcript: Transcript,
    result: StabilizeResult,
    ready: Ready,
    state: SessionState,
  ): Promise<Transcript | undefined> {
    const summarizer = this.opts.summarizer;
    const log = result.compaction?.[0];
    const maxTokens = ready.parsed.policy.compaction?.max_tokens;
    if (!summarizer || !log || maxTokens === undefined) return undefined;
    const byId = new Map(transcript.artifacts.map((a) => [a.id, a]));
    const previous = log.refreshed_from === undefined ? undefined : byId.get(log.refreshed_from);
    const earlier = new Set(previous?.provenance ?? []);
    const artifacts = log.covers
      .filter((id) => !earlier.has(id))
      .flatMap((id) => byId.get(id) ?? [])
      .map((a) => maskArtifact(a, state.pii?.masker ?? ready.masker));
    const deterministic = textOf(result.context.find((c) => c.id === log.id)?.content ?? '');
    const fail = (why: string): undefined => {
      this.warn({
        code: 'summarizer',
        session,
        message: `context-stability: session ${shown}: the summarizer ${why}; the deterministic compaction summary is used`,
      });
      return undefined;
    };
    let text: string;
    try {
      text = await summarizer({
        session,
        covers: log.covers,
        artifacts,
        deterministic,
        ...(previous ? { previous: textOf(previous.content) } : {}),
        maxTokens,
      });
    } catch (e) {
      return fail(`threw ${e instanceof Error ? e.name : 'a value'}`);
    }
    if (typeof text !== 'string' || text.trim() === '') return fail('returned no text');
    const tokens = ready.tokenizer.count(text);
    if (tokens > maxTokens)
      return fail(`returned ${tokens} tokens, over compaction.max_tokens (${maxTokens})`);
    const last = transcript.artifacts[transcript.artifacts.length - 1];
    if (!last) return undefined;
    const artifact: Artifact = {
      id: `cs-summary-${state.summaries.length + 1}`,
      kind: 'summary',
      content: text,
      tags: [COMPACTION_TAG],
      provenance: [...log.covers],
      created_at: log.created_at,
      ...(log.scope.task !== undefined || log.scope.phase !== undefined ? { scope: log.scope } : {}),
      source: { ...last.source },
    };
    state.summaries.push({ after: last.id, artifact });
    return withSummaries(transcript, [{ after: last.id, artifact }]);
  }

  /** Forgets a session's state (counts, recording file, restore map); call it when a conversation ends. */
  endSession(session: string): void {
    this.sessions.delete(session);
    this.recorder?.forget(session);
  }

  /**
   * `value` with the session's aliases (`[EMAIL_1]`) replaced by the values they stand for: a tool
   * call's arguments before the tool runs (docs/pii.md). Numbered and hash only, never secrets; a
   * session that made no call yet (or was ended) restores nothing. Host-side only.
   */
  restore<T>(session: string, value: T): T {
    const restore = this.sessions.get(session)?.pii?.restore;
    return restore ? restore(value) : value;
  }

  private state(session: string): SessionState {
    let s = this.sessions.get(session);
    if (s) {
      // Map order is insertion order: re-inserting keeps the most recently used last.
      this.sessions.delete(session);
    } else {
      s = { memo: new StabilizeMemo(), reader: new IncrementalReader(), summaries: [] };
      if (this.sessions.size >= MAX_SESSIONS) {
        const oldest = this.sessions.keys().next().value;
        if (oldest !== undefined) this.sessions.delete(oldest);
      }
    }
    this.sessions.set(session, s);
    return s;
  }

  private warn(w: RuntimeWarning): void {
    (this.opts.onWarning ?? defaultWarning)(w);
  }

  private verdict(
    session: string,
    shown: string,
    result: StabilizeResult,
    policy: Policy,
    recording: string | undefined,
    halt?: Error,
  ): void {
    if (result.status === 'escalated') {
      const choice = this.opts.onEscalated ?? policy.runtime?.on_escalated ?? 'stop';
      const error = new ContextEscalatedError(session, result, shown, recording);
      if (choice === 'stop') throw error;
      // With a guardian, an escalated context is pressure 1.0: the halt overrides `continue`.
      if (halt) throw halt;
      this.warn({
        code: 'escalated',
        session,
        message: `${error.message.split('\n')[0] ?? error.message} (sent anyway: on_escalated is continue)`,
        result,
      });
    } else if (result.status === 'warning') {
      const n = result.ledger.filter((e) => e.action === 'excerpted').length;
      this.warn({
        code: 'excerpted',
        session,
        message: `context-stability: session ${shown}: ${n} protected artifacts were cut to excerpts to fit the budget`,
        result,
      });
    }
  }

  private async record(
    session: string,
    shown: string,
    transcript: Transcript,
    masker: Masker,
  ): Promise<void> {
    try {
      const file = await this.recorder!.record(session, transcript, masker);
      const state = this.sessions.get(session);
      if (state) state.recording = file;
    } catch (e) {
      // A full disk must not stop the agent; the message names the error code, never the history.
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      this.warn({
        code: 'recording',
        session,
        message: `context-stability: could not record session ${shown} (${code})`,
      });
    }
  }

  private load(): Promise<Ready> {
    this.ready ??= this.loadOnce();
    return this.ready;
  }

  private async loadOnce(): Promise<Ready> {
    const parsed = await this.loadPolicy();
    for (const d of parsed.diagnostics)
      this.warn({ code: 'policy', session: '', message: formatDiagnostic(d) });
    const tokenizer = await loadPolicyTokenizer(parsed.policy);
    checkPiiKey(parsed, this.opts.piiKey);
    // Session ids and file names are masked outside any session's numbering (the label form).
    return { parsed, tokenizer, masker: nameMasker(parsed.policy, parsed.rules) };
  }

  private async loadPolicy(): Promise<ParsedPolicy> {
    if (this.opts.policy !== undefined) return resolvePolicy(this.opts.policy);
    const loaded = await loadPolicy(this.opts.policyFile, { cwd: this.opts.cwd ?? process.cwd() });
    if (!loaded.ok) throw new InputError(loaded.diagnostics as Diagnostic[]);
    return loaded;
  }
}

/**
 * The history with the summaries a summarizer wrote, each right after the artifact that ended the
 * history it was made in (so the history keeps extending what was recorded). A summary whose
 * place is gone (the host rewrote its history) is left out.
 */
function withSummaries(
  t: Transcript,
  summaries: readonly { after: string; artifact: Artifact }[],
): Transcript {
  if (summaries.length === 0) return t;
  const after = new Map<string, Artifact[]>();
  for (const s of summaries) after.set(s.after, [...(after.get(s.after) ?? []), s.artifact]);
  const artifacts: Artifact[] = [];
  for (const a of t.artifacts) {
    artifacts.push(a);
    for (const s of after.get(a.id) ?? []) artifacts.push(s);
  }
  return artifacts.length === t.artifacts.length ? t : { ...t, artifacts };
}

/** `new ContextStabilizer(options)`. */
export function createContextStabilizer(opts: ContextStabilizerOptions = {}): ContextStabilizer {
  return new ContextStabilizer(opts);
}
