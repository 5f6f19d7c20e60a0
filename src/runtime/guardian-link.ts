// The context guardian inside the agent (DESIGN §8, issue 29): the stabilizer reports, at every
// call, the pressure measured from its own budget use (core/guardian/pressure.ts) to the guardian's
// gate. Every adapter gets it, since they all go through ContextStabilizer.stabilize:
// - below compress the call goes on; at warning and compress a fresh summary is due (seed 003
//   step 5), and at compress the link also warns (`fresh_summary`);
// - at critical (an escalated run is 1.0) the halt rule: the checkpoint with the halt record is
//   written under the root's lock as `guardian status` writes it, and ContextHaltedError stops the
//   call before the model sees it, and every later call until the halt is resumed.
// Without a root (or with no usable task state under it) the halt is kept in memory by the link.
import { diagnostic } from '../core/diagnostics.js';
import { evaluateGate, thresholdProblems } from '../core/guardian/gate.js';
import type { GuardianThresholds } from '../core/guardian/gate.js';
import { haltRecord, latchHalt, resumeFromHalt } from '../core/guardian/halt.js';
import { applyPatch } from '../core/guardian/patch.js';
import type { TaskStatePatch } from '../core/guardian/patch.js';
import { parseTaskState } from '../core/guardian/parse-state.js';
import { contextPressure } from '../core/guardian/pressure.js';
import type { ContextPressure } from '../core/guardian/pressure.js';
import type { HaltRecord, TaskState } from '../core/guardian/state.js';
import { renderSummary } from '../core/guardian/summary.js';
import type { StabilizeResult } from '../core/stabilize/types.js';
import {
  GuardianStoreError,
  STATE_FILE,
  readGuardianFiles,
  saveCheckpoint,
  withGuardianLock,
} from '../io/guardian-store.js';
import { LockBusyError } from '../io/lock.js';
import { ContextHaltedError } from './errors.js';
import type { HaltCheckpoint, RuntimeWarning } from './errors.js';

export interface GuardianLinkOptions {
  /**
   * The guardian root (the CLI's `--root`: task-state.json, summaries/). Without it the link is in
   * memory only: pressure, the fresh-summary warning and the halt work, nothing is written, and a
   * halt lasts until `resume` on the link (or the end of the process).
   */
  root?: string;
  /** Overrides of the policy's `guardian:` thresholds (default 0.55 / 0.70 / 0.85). */
  thresholds?: Partial<GuardianThresholds>;
  /** The clock of the halt and resume records (ISO 8601); default the system clock. */
  now?: () => string;
}

/** What the guardian made of one call that went on (`link.last` also holds the one that halted). */
export interface GuardianReport {
  session: string;
  pressure: ContextPressure;
  thresholds: GuardianThresholds;
  /** `fresh_summary` at warning and compress, `halt` at critical (that call threw). */
  action: 'continue' | 'fresh_summary' | 'halt';
  /** Write a fresh summary (a checkpoint) before the next major action: pressure at or above warning. */
  freshSummaryDue: boolean;
}

/** What the stabilizer hands the link about a call. */
export interface LinkCall {
  session: string;
  /** The session with PII masked, one line. */
  shown: string;
  /** The policy's masker over a text (the root is shown through it). */
  mask: (text: string) => string;
  warn: (warning: RuntimeWarning) => void;
}

export interface GuardedCall {
  pressure: ContextPressure;
  report?: GuardianReport;
  /** Set when the gate halted: the stabilizer throws it (after an escalation's own error). */
  halt?: ContextHaltedError;
}

type StateRead = { kind: 'state'; state: TaskState } | { kind: 'none'; why: string };

export interface GuardianResume {
  /** A halt was cleared (in the state file, in memory, or both). */
  resumed: boolean;
  /** The state as written, when there is a usable one. */
  state?: TaskState;
}

/** Store failures and a busy lock mean the durable path is unavailable: never a crash of the call. */
function storeProblem(e: unknown): string | undefined {
  if (e instanceof GuardianStoreError) return e.diagnostic.code;
  if (e instanceof LockBusyError) return 'lock-busy';
  return undefined;
}

export class GuardianLink {
  readonly root: string | undefined;
  private readonly overrides: Partial<GuardianThresholds>;
  private readonly now: () => string;
  /** A halt the state file could not hold; the file's own halt is read at every call. */
  private memoryHalt: HaltRecord | undefined;
  private lastReport: GuardianReport | undefined;
  private warnedNoState = false;

  constructor(opts: GuardianLinkOptions = {}) {
    this.root = opts.root;
    this.overrides = { ...opts.thresholds };
    this.now = opts.now ?? (() => new Date().toISOString());
  }

  /** The last call's report (undefined before the first call): what a host behind an adapter reads. */
  get last(): GuardianReport | undefined {
    return this.lastReport;
  }

  /** The thresholds in force: the policy's `guardian:` block, then this link's overrides. */
  thresholds(policy: GuardianThresholds): GuardianThresholds {
    const t = { ...policy, ...this.overrides };
    const problems = thresholdProblems(t);
    if (problems.length > 0)
      throw new TypeError(`context-stability: guardian thresholds: ${problems.join(' ')}`);
    return t;
  }

  /** The halt in force: the state file's, else one kept in memory; undefined when not halted. */
  async halted(): Promise<HaltRecord | undefined> {
    const read = await this.readState();
    return (read.kind === 'state' ? read.state.halt : undefined) ?? this.memoryHalt;
  }

  /**
   * The explicit override of a halt (what `guardian resume --by --why` does, under the same lock):
   * clears the halt and records who and why in the state's `resumes`.
   */
  async resume(input: { by: string; why: string }): Promise<GuardianResume> {
    const by = input.by.trim();
    const why = input.why.trim();
    if (by === '' || why === '')
      throw new TypeError('context-stability: resume needs `by` and `why`: the override is recorded.');
    const resumed = this.memoryHalt !== undefined;
    this.memoryHalt = undefined;
    const root = this.root;
    if (root === undefined) return { resumed };
    return withGuardianLock(root, 'guardian resume (link)', false, async () => {
      const read = await this.readState();
      if (read.kind === 'none') return { resumed };
      const out = resumeFromHalt(read.state, { by, why, at: this.now() });
      if (!out.ok && out.reason === 'not-halted') return { resumed, state: read.state };
      if (!out.ok) throw new TypeError(`context-stability: resume: ${out.problems.join(' ')}`);
      await saveCheckpoint(root, out.state, renderSummary(out.state));
      return { resumed: true, state: out.state };
    });
  }

  /**
   * A checkpoint after a state-changing action (what `guardian checkpoint` does, under the same
   * lock): the patch applied to the state on disk, written with a fresh summary. A halt stays.
   */
  async checkpoint(patch: TaskStatePatch = {}): Promise<TaskState> {
    const root = this.root;
    if (root === undefined) throw new TypeError('context-stability: checkpoint needs a guardian root.');
    return withGuardianLock(root, 'guardian checkpoint (link)', false, async () => {
      const read = await this.readState();
      if (read.kind === 'none') {
        throw new GuardianStoreError(
          diagnostic(
            'error',
            'guardian-state-missing',
            { file: STATE_FILE, line: 1, column: 1 },
            `no usable task state (${read.why}); nothing was written.`,
            'Run the startup branch first (`context-stability guardian ensure`).',
          ),
        );
      }
      const applied = applyPatch(read.state, patch, this.now());
      if (!applied.ok) throw new TypeError(`context-stability: checkpoint: ${applied.problems.join(' ')}`);
      await saveCheckpoint(root, applied.state, renderSummary(applied.state));
      return applied.state;
    });
  }

  /** Before a call is stabilized: a latched halt stops it (nothing is recorded or sent). */
  async beforeCall(call: LinkCall): Promise<void> {
    const read = await this.readState();
    if (read.kind === 'none') this.noState(call, read.why);
    const fromFile = read.kind === 'state' ? read.state.halt : undefined;
    const halt = fromFile ?? this.memoryHalt;
    if (halt === undefined) return;
    throw this.error(call, halt, fromFile !== undefined ? 'latched' : 'memory');
  }

  /** After the run: the pressure through the gate; at critical, the checkpoint and the error to throw. */
  async afterCall(
    call: LinkCall,
    result: StabilizeResult,
    policyThresholds: GuardianThresholds,
  ): Promise<GuardedCall> {
    const thresholds = this.thresholds(policyThresholds);
    const pressure = contextPressure(result, thresholds);
    // The pressure is always measured, so the gate's missing-pressure fallback never applies.
    const gate = evaluateGate({ pressure: pressure.value, first_turn: false }, thresholds);
    const action = gate.halt ? 'halt' : gate.summary ? 'fresh_summary' : 'continue';
    const report: GuardianReport = {
      session: call.session,
      pressure,
      thresholds,
      action,
      freshSummaryDue: gate.summary,
    };
    this.lastReport = report;
    if (!gate.halt) {
      if (pressure.level === 'compress') {
        call.warn({
          code: 'fresh_summary',
          session: call.session,
          message: `context-stability: session ${call.shown}: context pressure ${pressure.value} is at or above compress (${thresholds.compress}): write a fresh summary before the next major action (must-keep ${pressure.mustKeepTokens} of ${pressure.budget} tokens)`,
          result,
        });
      }
      return { pressure, report };
    }
    const codes = [...new Set(result.events.filter((e) => e.level === 'safety').map((e) => e.code))];
    const record: HaltRecord = {
      ...haltRecord(gate, thresholds, this.now()),
      ...(pressure.escalated
        ? {
            reason: `the context is escalated (${codes.join(', ') || 'escalated'}), which counts as pressure 1`,
          }
        : {}),
    };
    const latched = await this.latch(call, record);
    return { pressure, report, halt: this.error(call, latched.halt, latched.checkpoint, pressure, result) };
  }

  /** The halt rule's checkpoint: the state with the halt record and a fresh summary, under the lock. */
  private async latch(
    call: LinkCall,
    record: HaltRecord,
  ): Promise<{ halt: HaltRecord; checkpoint: HaltCheckpoint }> {
    const inMemory = (checkpoint: HaltCheckpoint) => {
      this.memoryHalt ??= record;
      return { halt: this.memoryHalt, checkpoint };
    };
    const root = this.root;
    if (root === undefined) return inMemory('memory');
    try {
      return await withGuardianLock(root, 'guardian halt (link)', false, async () => {
        const read = await this.readState();
        if (read.kind === 'none') return inMemory('memory');
        // Latched meanwhile (another process): the first halt stays the one on record.
        if (read.state.halt !== undefined) return { halt: read.state.halt, checkpoint: 'latched' as const };
        const latched = latchHalt(read.state, record);
        if (!latched.ok) throw new TypeError(`context-stability: halt: ${latched.problems.join(' ')}`);
        await saveCheckpoint(root, latched.state, renderSummary(latched.state));
        return { halt: record, checkpoint: 'written' as const };
      });
    } catch (e) {
      const problem = storeProblem(e);
      if (problem === undefined) throw e;
      call.warn({
        code: 'guardian',
        session: call.session,
        message: `context-stability: session ${call.shown}: the halt checkpoint could not be written (${problem}); the halt is kept in memory`,
      });
      return inMemory('failed');
    }
  }

  private error(
    call: LinkCall,
    halt: HaltRecord,
    checkpoint: HaltCheckpoint,
    pressure?: ContextPressure,
    result?: StabilizeResult,
  ): ContextHaltedError {
    return new ContextHaltedError({
      session: call.session,
      shown: call.shown,
      halt,
      checkpoint,
      ...(pressure ? { pressure } : {}),
      ...(result ? { result } : {}),
      ...(this.root !== undefined ? { root: this.root, shownRoot: call.mask(this.root) } : {}),
    });
  }

  /** Once per link: a root without a usable task state keeps halts in memory only. */
  private noState(call: LinkCall, why: string): void {
    if (this.root === undefined || this.warnedNoState) return;
    this.warnedNoState = true;
    call.warn({
      code: 'guardian',
      session: call.session,
      message: `context-stability: the guardian root has no usable task state (${why}): a halt is kept in memory only; run the startup branch (context-stability guardian ensure) first`,
    });
  }

  private async readState(): Promise<StateRead> {
    if (this.root === undefined) return { kind: 'none', why: 'no root' };
    const files = await readGuardianFiles(this.root);
    if (files.state.kind === 'absent') return { kind: 'none', why: 'no task state yet' };
    if (files.state.kind === 'unusable') return { kind: 'none', why: files.state.diagnostic.code };
    const parsed = parseTaskState(files.state.text, STATE_FILE);
    if (parsed.kind !== 'valid') return { kind: 'none', why: `${parsed.kind} task state` };
    // A usable state again: a later loss of it is worth a new warning.
    this.warnedNoState = false;
    return { kind: 'state', state: parsed.state };
  }
}

/** `new GuardianLink(options)`: pass it as the stabilizer's `guardian` option, keep it to resume or checkpoint. */
export function createGuardianLink(opts: GuardianLinkOptions = {}): GuardianLink {
  return new GuardianLink(opts);
}

/**
 * One call through the link (or, without one, the pressure alone against the policy's thresholds,
 * so that every StabilizedCall carries it).
 */
export async function guardCall(
  link: GuardianLink | undefined,
  call: LinkCall,
  result: StabilizeResult,
  policyThresholds: GuardianThresholds,
): Promise<GuardedCall> {
  if (link === undefined) return { pressure: contextPressure(result, policyThresholds) };
  return link.afterCall(call, result, policyThresholds);
}
