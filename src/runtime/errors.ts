// What an in-agent adapter throws or reports instead of sending a context the policy cannot honour.
import type { StabilizeEvent, StabilizeResult } from '../core/stabilize/types.js';

/**
 * The stabilizer could not honour the policy (DESIGN §4: a system, policy or task artifact or the
 * latest request would have to go, or the scope reset is ambiguous) and the policy says to stop
 * (`runtime.on_escalated: stop`, the default): seed 000's "stop and escalate". Thrown before the
 * model is called. `reasons` are the safety events, in plain words that never quote the history.
 */
export class ContextEscalatedError extends Error {
  readonly code = 'context_escalated';
  readonly session: string;
  readonly result: StabilizeResult;
  readonly reasons: readonly StabilizeEvent[];
  /** `shown`: the session as messages may show it (PII masked, one line); `session` stays the host's id. */
  constructor(session: string, result: StabilizeResult, shown: string = session) {
    const reasons = result.events.filter((e) => e.level === 'safety');
    const why = reasons.map((e) => e.message).join('; ') || 'the policy cannot be honoured';
    super(`context-stability: the context of session ${shown} is escalated: ${why}`);
    this.name = 'ContextEscalatedError';
    this.session = session;
    this.result = result;
    this.reasons = reasons;
  }
}

/** A warning an adapter reports through `onWarning` (default: process.emitWarning). */
export interface RuntimeWarning {
  /** `escalated` (sent anyway, `on_escalated: continue`), `excerpted`, `policy`, `recording`, `summarizer`. */
  code: string;
  /** The host's session id; the message shows it with PII masked. */
  session: string;
  message: string;
  result?: StabilizeResult;
}
