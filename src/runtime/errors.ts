// What an in-agent adapter throws or reports instead of sending a context the policy cannot honour.
import type { StabilizeEvent, StabilizeResult } from '../core/stabilize/types.js';
import type { ContextPressure } from '../core/guardian/pressure.js';
import { STATUS_HALT_CONTEXT_LIMIT } from '../core/guardian/signals.js';
import type { HaltRecord } from '../core/guardian/state.js';

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

/**
 * `pii.strategy: block` (issue 29): the context of a call holds PII, so the call is refused before
 * the model is called. Like ContextEscalatedError: a message of three lines (what, counts by type,
 * what to do) that never holds a value, and the details on properties an uncaught error does not
 * print. `counts` are by type; `result` holds the context masked as redact masks it.
 */
export class ContextBlockedError extends Error {
  readonly code = 'context_blocked';
  declare readonly session: string;
  declare readonly result: StabilizeResult;
  /** PII found in what would have been sent, by type: counts only. */
  declare readonly counts: Readonly<Record<string, number>>;
  /** Ids of the artifacts holding it (PII in an id is aliased before anything sees it). */
  declare readonly ids: readonly string[];

  constructor(
    session: string,
    result: StabilizeResult,
    found: { counts: Readonly<Record<string, number>>; ids: readonly string[] },
    shown: string = session,
  ) {
    const kinds = Object.keys(found.counts)
      .sort()
      .map((type) => `${found.counts[type]} ${type}`)
      .join(', ');
    super(
      [
        `context-stability: the call of session ${shown} is blocked: its context holds PII (${kinds}) and pii.strategy is block.`,
        `${found.ids.length} of ${result.context.length} artifacts hold it; nothing was sent to the model.`,
        'Remove the PII from the history before the call, or choose another pii.strategy (numbered, redact, hash): docs/pii.md.',
      ].join('\n'),
    );
    const hidden = (value: unknown): PropertyDescriptor => ({ value, enumerable: false });
    Object.defineProperties(this, {
      session: hidden(session),
      result: hidden(result),
      counts: hidden({ ...found.counts }),
      ids: hidden([...found.ids]),
    });
  }
}

Object.defineProperty(ContextBlockedError.prototype, 'name', {
  value: 'ContextBlockedError',
  enumerable: false,
});

/**
 * Where the halt that stopped a call is recorded:
 * - `written`: this call wrote the checkpoint (state with the halt record, and a fresh summary);
 * - `latched`: the state file held the halt already (an earlier call, or `guardian status`);
 * - `memory`: no root, or no usable task state under it: the link keeps the halt in memory;
 * - `failed`: the checkpoint could not be written (the warning `guardian` says why): in memory.
 */
export type HaltCheckpoint = 'written' | 'latched' | 'memory' | 'failed';

export interface ContextHaltDetails {
  session: string;
  /** The session as messages may show it (PII masked, one line). */
  shown: string;
  halt: HaltRecord;
  checkpoint: HaltCheckpoint;
  /** This call's pressure; absent when the call stopped on a halt latched before it. */
  pressure?: ContextPressure;
  /** The guardian root as the host gave it, and as messages show it (PII masked). */
  root?: string;
  shownRoot?: string;
  result?: StabilizeResult;
}

function shellWord(text: string): string {
  return /^[\w./@:+-]+$/.test(text) ? text : `'${text.replace(/'/g, `'\\''`)}'`;
}

/**
 * The context guardian's halt rule reached through an adapter (seed 003: at or above the critical
 * pressure, write checkpoint + summary, emit STATUS:HALT_CONTEXT_LIMIT, stop autonomous execution
 * and wait for an explicit override). Thrown before the model is called, by the call that reached
 * critical and by every later one until the halt is resumed. `status` is the signal to emit.
 *
 * Like ContextEscalatedError: a message of three lines (what, the numbers; where the checkpoint
 * is; how to resume), the details on properties an uncaught error does not print.
 */
export class ContextHaltedError extends Error {
  readonly code = 'context_halted';
  readonly status = STATUS_HALT_CONTEXT_LIMIT;
  declare readonly session: string;
  declare readonly halt: HaltRecord;
  declare readonly checkpoint: HaltCheckpoint;
  declare readonly pressure: ContextPressure | undefined;
  declare readonly root: string | undefined;
  declare readonly result: StabilizeResult | undefined;

  constructor(d: ContextHaltDetails) {
    const p = d.pressure;
    const what = p
      ? `context pressure ${p.value} is at or above critical (${d.halt.threshold}): must-keep ${p.mustKeepTokens} of ${p.budget} tokens${p.escalated ? ', escalated' : ''}.`
      : `the task is halted since ${d.halt.at} (pressure ${d.halt.pressure ?? 'missing'}, critical ${d.halt.threshold}); no call goes out until it is resumed.`;
    const where = d.shownRoot ?? '(the guardian root)';
    const checkpoint = {
      written: `Checkpoint written: task-state.json (with the halt) and summaries/latest-summary.md under ${where}.`,
      latched: `The halt is recorded in task-state.json under ${where}.`,
      memory:
        d.root === undefined
          ? 'No guardian root: the halt is kept in memory by this stabilizer.'
          : `No usable task state under ${where}: the halt is kept in memory by this stabilizer.`,
      failed: 'The checkpoint could not be written (see the `guardian` warning): the halt is kept in memory.',
    }[d.checkpoint];
    const onFile = d.checkpoint === 'written' || d.checkpoint === 'latched';
    const resume = onFile
      ? `Resume after review: npx context-stability guardian resume --root ${shellWord(where)} --by WHO --why TEXT (or guardianLink.resume({ by, why })).`
      : 'Resume after review: guardianLink.resume({ by, why }).';
    super(
      [
        `context-stability: ${STATUS_HALT_CONTEXT_LIMIT} for session ${d.shown}: ${what}`,
        checkpoint,
        resume,
      ].join('\n'),
    );
    const hidden = (value: unknown): PropertyDescriptor => ({ value, enumerable: false });
    Object.defineProperties(this, {
      session: hidden(d.session),
      halt: hidden(d.halt),
      checkpoint: hidden(d.checkpoint),
      pressure: hidden(p),
      root: hidden(d.root),
      result: hidden(d.result),
    });
  }
}

Object.defineProperty(ContextHaltedError.prototype, 'name', {
  value: 'ContextHaltedError',
  enumerable: false,
});

/** A warning an adapter reports through `onWarning` (default: process.emitWarning). */
export interface RuntimeWarning {
  /**
   * `escalated` (sent anyway, `on_escalated: continue`), `excerpted`, `policy`, `recording`,
   * `summarizer`; with a guardian link, `fresh_summary` (pressure at or above compress) and
   * `guardian` (no usable task state, or the halt checkpoint could not be written).
   */
  code: string;
  /** The host's session id; the message shows it with PII masked. */
  session: string;
  message: string;
  result?: StabilizeResult;
}
