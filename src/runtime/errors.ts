// What an in-agent adapter throws or reports instead of sending a context the policy cannot honour.
import type { StabilizeEvent, StabilizeResult } from '../core/stabilize/types.js';

/** How much of a safety event's sentence the message carries (the whole one is on `reasons`). */
const REASON_CHARS = 240;

function shorten(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= REASON_CHARS ? line : `${line.slice(0, REASON_CHARS - 1)}…`;
}

/**
 * The stabilizer could not honour the policy (DESIGN §4: a system, policy or task artifact or the
 * latest request would have to go, or the scope reset is ambiguous) and the policy says to stop
 * (`runtime.on_escalated: stop`, the default): seed 000's "stop and escalate". Thrown before the
 * model is called.
 *
 * The message is three lines: what failed with the numbers, the first reason, and how to
 * investigate. The details are properties that an uncaught error does not print (they are not
 * enumerable): Node prints an uncaught error's enumerable fields, and `result` holds the whole
 * context (issue 29: 3,000 lines on stderr), `session` the host's id, which may be an address.
 */
export class ContextEscalatedError extends Error {
  readonly code = 'context_escalated';
  declare readonly session: string;
  declare readonly result: StabilizeResult;
  /** The safety events, in plain words that never quote the history. */
  declare readonly reasons: readonly StabilizeEvent[];
  /** The session's recording (the `record` option), when there is one: what to investigate. */
  declare readonly recording: string | undefined;

  /** `shown`: the session as messages may show it (PII masked, one line); `session` stays the host's id. */
  constructor(session: string, result: StabilizeResult, shown: string = session, recording?: string) {
    const reasons = result.events.filter((e) => e.level === 'safety');
    const codes = [...new Set(reasons.map((e) => e.code))].join(', ') || 'escalated';
    const { used, limit } = result.budget;
    const first = reasons[0];
    const investigate =
      recording !== undefined
        ? `Investigate: npx context-stability stabilize ${recording} --policy <your policy> (error.result has the context, ledger and events).`
        : 'Investigate: error.result has the context, ledger and events; record the session (option `record`) and run npx context-stability stabilize <recording> --policy <your policy>.';
    super(
      [
        `context-stability: the context of session ${shown} is escalated (${codes}): ${used} of ${limit} tokens, ${result.context.length} of ${result.ledger.length} artifacts kept.`,
        first
          ? `${shorten(first.message)}${reasons.length > 1 ? ` (+${reasons.length - 1} more in error.reasons)` : ''}`
          : 'The policy cannot be honoured.',
        investigate,
      ].join('\n'),
    );
    const hidden = (value: unknown): PropertyDescriptor => ({ value, enumerable: false });
    Object.defineProperties(this, {
      session: hidden(session),
      result: hidden(result),
      reasons: hidden(reasons),
      recording: hidden(recording),
    });
  }
}

// On the prototype, so that the stack's first line names the class and no own field is printed.
Object.defineProperty(ContextEscalatedError.prototype, 'name', {
  value: 'ContextEscalatedError',
  enumerable: false,
});

/** A warning an adapter reports through `onWarning` (default: process.emitWarning). */
export interface RuntimeWarning {
  /** `escalated` (sent anyway, `on_escalated: continue`), `excerpted`, `policy`, `recording`, `summarizer`. */
  code: string;
  /** The host's session id; the message shows it with PII masked. */
  session: string;
  message: string;
  result?: StabilizeResult;
}
