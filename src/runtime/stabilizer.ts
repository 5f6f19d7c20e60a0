// The stabilizer inside the agent: one object per agent process that applies the repo's policy before
// each model call, keeps per-session state so a call costs in proportion to what is new, records
// the history when asked, and stops (or warns) on an escalated context. The framework adapters
// (src/adapters) are thin layers over `stabilize`.
import type { EmitFormat } from '../core/emit/index.js';
import { emitContext } from '../core/emit/index.js';
import { InputError, formatDiagnostic } from '../core/diagnostics.js';
import type { ParsedPolicy, Policy } from '../core/policy/index.js';
import type { EscalationChoice } from '../core/policy/schema.js';
import type { FormatOption } from '../core/readers/index.js';
import { createMasker, sanitizeForPolicy, stabilizeTranscript } from '../core/stabilize/stabilize.js';
import type { Masker } from '../core/stabilize/finalize.js';
import { StabilizeMemo } from '../core/stabilize/memo.js';
import type { StabilizeResult } from '../core/stabilize/types.js';
import type { Tokenizer } from '../core/tokens/tokenizer.js';
import type { Diagnostic, Transcript } from '../core/types.js';
import { resolvePolicy } from '../api/policy.js';
import type { PolicyOption } from '../api/policy.js';
import { isTranscript, toTranscript } from '../api/input.js';
import { IncrementalReader } from '../api/incremental-read.js';
import type { TranscriptInput } from '../api/input.js';
import { loadPolicy } from '../io/load-policy.js';
import { loadPolicyTokenizer } from '../tokens/load.js';
import { ContextEscalatedError } from './errors.js';
import type { RuntimeWarning } from './errors.js';
import { SessionRecorder } from './recorder.js';
import type { RecordOptions } from './recorder.js';

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
  /** Overrides the policy's `runtime.on_escalated` (default `stop`: throw ContextEscalatedError). */
  onEscalated?: EscalationChoice;
  /** Receives warnings (an escalated context sent anyway, excerpts, policy warnings, recording errors). Default: process.emitWarning. */
  onWarning?: (warning: RuntimeWarning) => void;
  /** Record each call's history, before stabilization, as native JSONL: a folder, or options. */
  record?: string | RecordOptions;
}

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
}

interface Ready {
  parsed: ParsedPolicy;
  tokenizer: Tokenizer;
  masker: Masker;
}

interface SessionState {
  memo: StabilizeMemo;
  reader: IncrementalReader;
  calls: number;
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

  constructor(opts: ContextStabilizerOptions = {}) {
    this.opts = opts;
    const rec = opts.record;
    this.recorder =
      rec === undefined ? undefined : new SessionRecorder(typeof rec === 'string' ? { dir: rec } : rec);
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
    const file = `<session ${session}>`;
    const format = call.format ?? 'auto';
    // A payload in a message format is read message by message, each message once per session.
    const read =
      (format !== 'auto' && !isTranscript(input) ? state.reader.read(input, format, file) : undefined) ??
      toTranscript(input, { file, format });
    const { policy, rules } = ready.parsed;
    const transcript = sanitizeForPolicy(read, policy, rules);
    if (this.recorder) await this.record(session, transcript, ready.masker);
    const result = stabilizeTranscript(transcript, {
      policy,
      tokenizer: ready.tokenizer,
      rules,
      memo: state.memo,
      emit,
    });
    state.calls++;
    this.verdict(session, result, policy);
    const payload = emitContext(result.context, emit, transcript) as P;
    return { payload, result, transcript };
  }

  /** Forgets a session's state (counts, recording file); call it when a conversation ends. */
  endSession(session: string): void {
    this.sessions.delete(session);
    this.recorder?.forget(session);
  }

  private state(session: string): SessionState {
    let s = this.sessions.get(session);
    if (s) {
      // Map order is insertion order: re-inserting keeps the most recently used last.
      this.sessions.delete(session);
    } else {
      s = { memo: new StabilizeMemo(), reader: new IncrementalReader(), calls: 0 };
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

  private verdict(session: string, result: StabilizeResult, policy: Policy): void {
    if (result.status === 'escalated') {
      const choice = this.opts.onEscalated ?? policy.runtime?.on_escalated ?? 'stop';
      const error = new ContextEscalatedError(session, result);
      if (choice === 'stop') throw error;
      this.warn({
        code: 'escalated',
        session,
        message: `${error.message} (sent anyway: on_escalated is continue)`,
        result,
      });
    } else if (result.status === 'warning') {
      const n = result.ledger.filter((e) => e.action === 'excerpted').length;
      this.warn({
        code: 'excerpted',
        session,
        message: `context-stability: session ${session}: ${n} protected artifacts were cut to excerpts to fit the budget`,
        result,
      });
    }
  }

  private async record(session: string, transcript: Transcript, masker: Masker): Promise<void> {
    try {
      await this.recorder!.record(session, transcript, masker);
    } catch (e) {
      // A full disk must not stop the agent; the message names the error code, never the history.
      const code = (e as NodeJS.ErrnoException).code ?? 'error';
      this.warn({
        code: 'recording',
        session,
        message: `context-stability: could not record session ${session} (${code})`,
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
    return { parsed, tokenizer, masker: createMasker(parsed.policy, parsed.rules) };
  }

  private async loadPolicy(): Promise<ParsedPolicy> {
    if (this.opts.policy !== undefined) return resolvePolicy(this.opts.policy);
    const loaded = await loadPolicy(this.opts.policyFile, { cwd: this.opts.cwd ?? process.cwd() });
    if (!loaded.ok) throw new InputError(loaded.diagnostics as Diagnostic[]);
    return loaded;
  }
}

/** `new ContextStabilizer(options)`. */
export function createContextStabilizer(opts: ContextStabilizerOptions = {}): ContextStabilizer {
  return new ContextStabilizer(opts);
}
