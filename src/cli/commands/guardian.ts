// `guardian ensure|status|checkpoint|bundle|resume`: the context guardian's thin CLI (DESIGN §8). Each
// command reads the durable files, lets the pure core decide, performs the writes the decision
// asks for, and ends its output with the status signal. The clock and stdin are injected.
import { buildWorkingBundle, renderBundleMarkdown } from '../../core/guardian/bundle.js';
import { evaluateGate } from '../../core/guardian/gate.js';
import { haltRecord, latchHalt, resumeFromHalt } from '../../core/guardian/halt.js';
import { applyPatch } from '../../core/guardian/patch.js';
import {
  STATUS_COMPLETE,
  STATUS_HALT_CONTEXT_LIMIT,
  STATUS_MISSING_STATE,
  STATUS_OK,
} from '../../core/guardian/signals.js';
import { ARCHIVABLE_REASONS, decideStartup } from '../../core/guardian/startup.js';
import type { StartupDecision } from '../../core/guardian/startup.js';
import { initialState, isTerminalAction } from '../../core/guardian/state.js';
import type { TaskState } from '../../core/guardian/state.js';
import { renderSummary } from '../../core/guardian/summary.js';
import {
  GUARDIAN_LOCK,
  GuardianStoreError,
  LATEST_SUMMARY,
  STATE_FILE,
  archiveGuardianFiles,
  archiveStamp,
  readGuardianFiles,
  saveCheckpoint,
  withGuardianLock,
  writeSummary,
} from '../../io/guardian-store.js';
import { LockBusyError } from '../../io/lock.js';
import { diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import { UsageError, parseChoice, parseOptions } from '../args.js';
import type { CliIO, Command } from '../command.js';
import { BUNDLE_HELP, CHECKPOINT_HELP, ENSURE_HELP, RESUME_HELP, STATUS_HELP } from '../guardian/help.js';
import {
  ROOT_OPTION,
  THRESHOLD_OPTIONS,
  parseFraction,
  resolveRoot,
  resolveThresholds,
  GUARDIAN_EXIT,
  guardianCommandLine,
} from '../guardian/options.js';
import {
  conflictText,
  finish,
  gateAdvice,
  gateLines,
  haltLines,
  missingLines,
  printDiagnostics,
} from '../guardian/output.js';
import { GUARDIAN_BUNDLE_SCHEMA } from '../json-schemas.js';
import { PATCH_OPTIONS, readPatch, readProcessStdin } from '../guardian/patch-flags.js';

export interface GuardianDeps {
  /** Current time as ISO 8601 (the only clock the guardian uses). */
  now: () => string;
  readStdin: (maxBytes: number) => Promise<string>;
}

const FILES = { state: STATE_FILE, summary: LATEST_SUMMARY };

async function startup(root: string): Promise<StartupDecision> {
  const files = await readGuardianFiles(root);
  return decideStartup(files.state, files.summary, FILES);
}

function stateLines(root: string, state: TaskState): string[] {
  return [
    `root: ${root}`,
    `state: ${STATE_FILE} (turn ${state.turn}, updated ${state.updated_at})`,
    `phase: ${oneLine(state.current_phase)}`,
    `next_action: ${oneLine(state.next_action)}`,
  ];
}

function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat === '' ? '(none)' : flat;
}

/** No state file yet where one was expected: what to run first. */
function reportNoState(io: CliIO, head: string, root: string): number {
  return finish(
    io,
    [`${head}: no state`, `root: ${root}`, ...missingLines('no-state', false)],
    STATUS_MISSING_STATE,
  );
}

function reportMissing(
  io: CliIO,
  head: string,
  decision: Extract<StartupDecision, { kind: 'missing_state' }>,
): number {
  printDiagnostics(io, decision.diagnostics);
  return finish(io, [head, ...missingLines(decision.reason, true)], STATUS_MISSING_STATE);
}

/** The lock a command holds: `create` makes the root first (ensure); `existing` locks a root that exists. */
type LockMode = 'create' | 'existing';

/**
 * Store failures mean the host cannot provide the durable read/write path: MISSING_STATE. A
 * command that may write holds the root's lock from its read to its last write, so a concurrent
 * one waits for it and reads what it wrote; one that waited too long writes nothing and exits 2.
 */
async function guarded(
  io: CliIO,
  head: string,
  lock: { root: string; mode: LockMode },
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await withGuardianLock(lock.root, head, lock.mode === 'create', body, { env: io.env });
  } catch (error) {
    if (error instanceof LockBusyError) return reportBusy(io, head, error);
    if (!(error instanceof GuardianStoreError)) throw error;
    printDiagnostics(io, [error.diagnostic]);
    return finish(
      io,
      [
        head,
        'missing: the durable files cannot be written (details on stderr)',
        'do: stop and wait for a human.',
      ],
      STATUS_MISSING_STATE,
    );
  }
}

/**
 * Another guardian command holds the lock: nothing was read or written; run this one again. The
 * state could not be read now, so the status is MISSING_STATE (a host that reads only the last
 * line stops rather than going on unsaved); exit 2, not 3, tells a retry apart from a real gap.
 */
function reportBusy(io: CliIO, head: string, error: LockBusyError): number {
  io.stderr(
    `${formatDiagnostic(
      diagnostic(
        'error',
        'lock-busy',
        { file: GUARDIAN_LOCK, line: 1, column: 1 },
        `${error.message}, and did not let go within ${Math.round(error.waitedMs / 1000)} s; nothing was written.`,
        'Run the command again once the other one has finished. If no such process runs, remove the lock file.',
      ),
    )}\n`,
  );
  finish(
    io,
    [
      `${head}: busy (another guardian command is writing the state; nothing was written)`,
      'do: run the same command again in a moment.',
    ],
    STATUS_MISSING_STATE,
  );
  return GUARDIAN_EXIT.usage;
}

const ENSURE_OPTIONS = {
  ...ROOT_OPTION,
  goal: { type: 'string' },
  phase: { type: 'string' },
  constraint: { type: 'string', multiple: true },
  invariant: { type: 'string', multiple: true },
  archive: { type: 'boolean' },
} as const;

async function ensure(args: string[], io: CliIO, deps: GuardianDeps): Promise<number> {
  const { values } = parseOptions(args, ENSURE_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const head = 'guardian ensure';
  return guarded(io, head, { root, mode: 'create' }, async () => {
    const lines: string[] = [];
    let decision = await startup(root);
    if (decision.kind === 'missing_state' && values.archive && ARCHIVABLE_REASONS.has(decision.reason)) {
      printDiagnostics(io, decision.diagnostics);
      for (const move of await archiveGuardianFiles(root, archiveStamp(deps.now())))
        lines.push(`archived: ${move}`);
      decision = await startup(root);
    } else if (values.archive && decision.kind !== 'missing_state') {
      lines.push('archive: nothing to archive (the state is usable)');
    }

    if (decision.kind === 'missing_state') {
      printDiagnostics(io, decision.diagnostics);
      return finish(
        io,
        [`${head}: missing state`, ...lines, ...missingLines(decision.reason, true)],
        STATUS_MISSING_STATE,
      );
    }
    if (decision.kind === 'initialize') {
      const state = initialState({
        updated_at: deps.now(),
        ...(values.goal !== undefined ? { goal: values.goal } : {}),
        ...(values.phase !== undefined ? { current_phase: values.phase } : {}),
        constraints: values.constraint ?? [],
        invariants: values.invariant ?? [],
      });
      const written = await saveCheckpoint(root, state, renderSummary(state));
      return finish(
        io,
        [
          `${head}: initialized`,
          ...lines,
          ...stateLines(root, state),
          `summary: ${LATEST_SUMMARY} (written, ${written})`,
        ],
        STATUS_OK,
      );
    }
    const { state, summary } = decision;
    const given = ['goal', 'phase', 'constraint', 'invariant'].filter(
      (k) => values[k as keyof typeof values] !== undefined,
    );
    if (given.length > 0)
      lines.push(`note: a task state exists; --${given.join(', --')} ignored (use guardian checkpoint)`);
    let summaryLine = `summary: ${LATEST_SUMMARY} (matches the state)`;
    if (summary.rewrite) {
      const written = await writeSummary(root, renderSummary(state));
      summaryLine = summary.present
        ? `summary: rewritten from the durable state (conflicts: ${conflictText(summary.conflicts)}; ${written})`
        : `summary: written (${written})`;
    }
    if (decision.kind === 'complete') {
      return finish(
        io,
        [
          `${head}: complete`,
          ...lines,
          ...stateLines(root, state),
          summaryLine,
          'do: stop; the task is finished.',
        ],
        STATUS_COMPLETE,
      );
    }
    if (state.halt !== undefined) {
      return finish(
        io,
        [`${head}: halted`, ...lines, ...stateLines(root, state), summaryLine, ...haltLines(state.halt)],
        STATUS_HALT_CONTEXT_LIMIT,
      );
    }
    return finish(io, [`${head}: ready`, ...lines, ...stateLines(root, state), summaryLine], STATUS_OK);
  });
}

const STATUS_OPTIONS = {
  ...ROOT_OPTION,
  ...THRESHOLD_OPTIONS,
  pressure: { type: 'string' },
  'changed-state': { type: 'boolean' },
  'phase-changed': { type: 'boolean' },
} as const;

async function status(args: string[], io: CliIO, deps: GuardianDeps): Promise<number> {
  const { values } = parseOptions(args, STATUS_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const pressure = values.pressure === undefined ? undefined : parseFraction('--pressure', values.pressure);
  const thresholds = await resolveThresholds(values, io);
  if (thresholds === null) return GUARDIAN_EXIT.usage;
  const head = 'guardian status';
  const decision = await startup(root);
  if (decision.kind === 'initialize') return reportNoState(io, head, root);
  if (decision.kind === 'missing_state') return reportMissing(io, `${head}: missing state`, decision);
  if (decision.kind === 'complete') {
    return finish(
      io,
      [`${head}: complete`, ...stateLines(root, decision.state), 'do: stop; the task is finished.'],
      STATUS_COMPLETE,
    );
  }
  const { state, summary } = decision;
  if (state.halt !== undefined) {
    // The latched halt overrides everything, the pressure included.
    return finish(
      io,
      [`${head}: halted`, ...stateLines(root, state), ...haltLines(state.halt)],
      STATUS_HALT_CONTEXT_LIMIT,
    );
  }
  const gate = evaluateGate(
    {
      ...(pressure !== undefined ? { pressure } : {}),
      first_turn: state.turn === 0,
      action_changed_state: values['changed-state'] === true,
      phase_or_goal_changed: values['phase-changed'] === true,
      summary_conflict: summary.rewrite,
    },
    thresholds,
  );
  if (!gate.halt) {
    return finish(
      io,
      [
        `${head}: ready`,
        ...stateLines(root, state),
        summary.rewrite
          ? `summary: conflicts with the durable state (${conflictText(summary.conflicts)})`
          : 'summary: matches the state',
        ...gateLines(gate),
        gateAdvice(gate),
      ],
      STATUS_OK,
    );
  }
  // First signal of a halt: write the checkpoint and summary (the halt rule), latching the halt.
  return guarded(io, head, { root, mode: 'existing' }, async () => {
    const halt = haltRecord(gate, thresholds, deps.now());
    const latched = latchHalt(state, halt);
    if (!latched.ok) throw new Error(`guardian: cannot record the halt: ${latched.problems.join(' ')}`);
    const halted = latched.state;
    const written = await saveCheckpoint(root, halted, renderSummary(halted));
    return finish(
      io,
      [
        `${head}: halt`,
        ...stateLines(root, halted),
        `summary: ${LATEST_SUMMARY} (${written})`,
        ...gateLines(gate).filter((l) => !l.startsWith('reason:')),
        ...haltLines(halt),
      ],
      STATUS_HALT_CONTEXT_LIMIT,
    );
  });
}

const CHECKPOINT_OPTIONS = {
  ...ROOT_OPTION,
  ...THRESHOLD_OPTIONS,
  ...PATCH_OPTIONS,
  pressure: { type: 'string' },
} as const;

/** The state a checkpoint may update: any that parses, even with an empty next_action or no summary. */
function writableState(decision: StartupDecision): TaskState | undefined {
  if (decision.kind === 'ready' || decision.kind === 'complete') return decision.state;
  if (decision.kind === 'missing_state') return decision.state;
  return undefined;
}

async function checkpoint(args: string[], io: CliIO, deps: GuardianDeps): Promise<number> {
  const { values } = parseOptions(args, CHECKPOINT_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const pressure = values.pressure === undefined ? undefined : parseFraction('--pressure', values.pressure);
  const thresholds = pressure === undefined ? undefined : await resolveThresholds(values, io);
  if (thresholds === null) return GUARDIAN_EXIT.usage;
  const input = await readPatch(values, io, deps.readStdin);
  if (!input.ok) {
    printDiagnostics(io, input.diagnostics);
    return GUARDIAN_EXIT.usage;
  }
  const head = 'guardian checkpoint';
  return guarded(io, head, { root, mode: 'existing' }, async () => {
    const decision = await startup(root);
    if (decision.kind === 'initialize') {
      return finish(
        io,
        [`${head}: not written`, `root: ${root}`, ...missingLines('no-state', false)],
        STATUS_MISSING_STATE,
      );
    }
    const current = writableState(decision);
    if (current === undefined && decision.kind === 'missing_state') {
      return reportMissing(io, `${head}: not written (the state file is left untouched)`, decision);
    }
    if (current === undefined) throw new UsageError('no task state to update.');
    const applied = applyPatch(current, input.patch, deps.now());
    if (!applied.ok) {
      for (const p of applied.problems) io.stderr(`${STATE_FILE}: error[guardian-patch]: ${p}\n`);
      io.stderr('Nothing was written. Fix the update and run the checkpoint again.\n');
      return GUARDIAN_EXIT.usage;
    }
    // The checkpoint and summary are written here, so only the pressure itself can still require something.
    const gate =
      thresholds === undefined || pressure === undefined
        ? undefined
        : evaluateGate({ pressure, first_turn: false }, thresholds);
    const state =
      gate?.halt === true && thresholds !== undefined && applied.state.halt === undefined
        ? { ...applied.state, halt: haltRecord(gate, thresholds, applied.state.updated_at) }
        : applied.state;
    const written = await saveCheckpoint(root, state, renderSummary(state));
    const lines = [`${head}: written`, ...stateLines(root, state), `summary: ${LATEST_SUMMARY} (${written})`];
    if (isTerminalAction(state.next_action))
      return finish(io, [...lines, 'do: stop; the task is finished.'], STATUS_COMPLETE);
    if (state.next_action.trim() === '')
      return finish(io, [...lines, ...missingLines('empty-next-action', false)], STATUS_MISSING_STATE);
    if (state.halt !== undefined) {
      const pressureLines =
        gate === undefined ? [] : gateLines(gate).filter((l) => !l.startsWith('required:'));
      return finish(io, [...lines, ...pressureLines, ...haltLines(state.halt)], STATUS_HALT_CONTEXT_LIMIT);
    }
    if (gate === undefined) {
      return finish(
        io,
        [...lines, `do: run \`${guardianCommandLine('status --pressure P')}\` before the next major action.`],
        STATUS_OK,
      );
    }
    return finish(
      io,
      [
        ...lines,
        ...gateLines(gate).filter((l) => !l.startsWith('required:')),
        'do: continue with the next action.',
      ],
      STATUS_OK,
    );
  });
}

const BUNDLE_OPTIONS = { ...ROOT_OPTION, format: { type: 'string' } } as const;

async function bundle(args: string[], io: CliIO): Promise<number> {
  const { values } = parseOptions(args, BUNDLE_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const format = parseChoice('--format', values.format ?? 'json', ['json', 'md'] as const);
  const decision = await startup(root);
  const head = 'guardian bundle';
  if (decision.kind === 'initialize') return reportNoState(io, head, root);
  if (decision.kind === 'missing_state') return reportMissing(io, `${head}: missing state`, decision);
  if (decision.kind === 'complete')
    return finish(io, [`${head}: complete`, 'do: stop; the task is finished.'], STATUS_COMPLETE);
  if (decision.state.halt !== undefined)
    return finish(io, [`${head}: halted`, ...haltLines(decision.state.halt)], STATUS_HALT_CONTEXT_LIMIT);
  const built = buildWorkingBundle(decision.state);
  const body =
    format === 'json'
      ? JSON.stringify({ schema_version: GUARDIAN_BUNDLE_SCHEMA, ...built }, null, 2)
      : renderBundleMarkdown(built).trimEnd();
  return finish(io, [body], STATUS_OK);
}

const RESUME_OPTIONS = { ...ROOT_OPTION, by: { type: 'string' }, why: { type: 'string' } } as const;

/** The explicit human or system override of a latched halt. */
async function resume(args: string[], io: CliIO, deps: GuardianDeps): Promise<number> {
  const { values } = parseOptions(args, RESUME_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const by = values.by?.trim() ?? '';
  const why = values.why?.trim() ?? '';
  if (by === '' || why === '')
    throw new UsageError(
      'guardian resume needs --by WHO and --why TEXT: the override is recorded in the state.',
    );
  const head = 'guardian resume';
  return guarded(io, head, { root, mode: 'existing' }, async () => {
    const decision = await startup(root);
    if (decision.kind === 'initialize') return reportNoState(io, head, root);
    if (decision.kind === 'missing_state') return reportMissing(io, `${head}: not written`, decision);
    const { state } = decision;
    const resumed = resumeFromHalt(state, { by, why, at: deps.now() });
    if (!resumed.ok && resumed.reason === 'not-halted') {
      const lines = [`${head}: not halted (nothing written)`, ...stateLines(root, state)];
      if (decision.kind === 'complete')
        return finish(io, [...lines, 'do: stop; the task is finished.'], STATUS_COMPLETE);
      return finish(
        io,
        [...lines, `do: run \`${guardianCommandLine('status --pressure P')}\` before the next major action.`],
        STATUS_OK,
      );
    }
    if (!resumed.ok) {
      for (const p of resumed.problems) io.stderr(`${STATE_FILE}: error[guardian-resume]: ${p}\n`);
      io.stderr('Nothing was written.\n');
      return GUARDIAN_EXIT.usage;
    }
    const next = resumed.state;
    const written = await saveCheckpoint(root, next, renderSummary(next));
    const lines = [
      `${head}: resumed`,
      ...stateLines(root, next),
      `summary: ${LATEST_SUMMARY} (${written})`,
      `halt: cleared the halt from ${state.halt?.at ?? '(unknown)'} (the override is recorded in ${STATE_FILE})`,
    ];
    if (decision.kind === 'complete')
      return finish(io, [...lines, 'do: stop; the task is finished.'], STATUS_COMPLETE);
    return finish(
      io,
      [...lines, `do: run \`${guardianCommandLine('status --pressure P')}\` before the next major action.`],
      STATUS_OK,
    );
  });
}

function defaultDeps(): GuardianDeps {
  return { now: () => new Date().toISOString(), readStdin: readProcessStdin };
}

/** The five commands with injected clock and stdin (tests pass their own). */
export function createGuardianCommands(deps: GuardianDeps = defaultDeps()): Command[] {
  return [
    {
      path: ['guardian', 'ensure'],
      summary: 'startup: create the task state, or check state and summary',
      help: ENSURE_HELP,
      run: (args, io) => ensure(args, io, deps),
    },
    {
      path: ['guardian', 'status'],
      summary: 'pressure gate before each major action (writes only to latch a halt)',
      help: STATUS_HELP,
      run: (args, io) => status(args, io, deps),
    },
    {
      path: ['guardian', 'checkpoint'],
      summary: 'write the task state and a fresh summary, atomically',
      help: CHECKPOINT_HELP,
      run: (args, io) => checkpoint(args, io, deps),
    },
    {
      path: ['guardian', 'bundle'],
      summary: 'print the working bundle for the next major action',
      help: BUNDLE_HELP,
      run: (args, io) => bundle(args, io),
    },
    {
      path: ['guardian', 'resume'],
      summary: 'clear a latched halt: the explicit human or system override',
      help: RESUME_HELP,
      run: (args, io) => resume(args, io, deps),
    },
  ];
}

export const guardianCommands: Command[] = createGuardianCommands();
