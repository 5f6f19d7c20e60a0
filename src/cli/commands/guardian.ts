// `guardian ensure|status|checkpoint|bundle`: the context guardian's thin CLI (DESIGN §8). Each
// command reads the durable files, lets the pure core decide, performs the writes the decision
// asks for, and ends its output with the status signal. The clock and stdin are injected.
import { buildWorkingBundle, renderBundleMarkdown } from '../../core/guardian/bundle.js';
import { evaluateGate } from '../../core/guardian/gate.js';
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
  GuardianStoreError,
  LATEST_SUMMARY,
  STATE_FILE,
  archiveGuardianFiles,
  archiveStamp,
  readGuardianFiles,
  saveCheckpoint,
  writeSummary,
} from '../../io/guardian-store.js';
import { UsageError, parseChoice, parseOptions } from '../args.js';
import type { CliIO, Command } from '../command.js';
import { BUNDLE_HELP, CHECKPOINT_HELP, ENSURE_HELP, STATUS_HELP } from '../guardian/help.js';
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
  missingLines,
  printDiagnostics,
} from '../guardian/output.js';
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

function reportMissing(
  io: CliIO,
  head: string,
  decision: Extract<StartupDecision, { kind: 'missing_state' }>,
): number {
  printDiagnostics(io, decision.diagnostics);
  return finish(io, [head, ...missingLines(decision.reason, true)], STATUS_MISSING_STATE);
}

/** Store failures mean the host cannot provide the durable read/write path: MISSING_STATE. */
async function guarded(io: CliIO, head: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body();
  } catch (error) {
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
  return guarded(io, head, async () => {
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

async function status(args: string[], io: CliIO): Promise<number> {
  const { values } = parseOptions(args, STATUS_OPTIONS, false);
  const root = resolveRoot(values.root, io);
  const pressure = values.pressure === undefined ? undefined : parseFraction('--pressure', values.pressure);
  const thresholds = await resolveThresholds(values, io);
  if (thresholds === null) return GUARDIAN_EXIT.usage;
  const head = 'guardian status';
  const decision = await startup(root);
  if (decision.kind === 'initialize')
    return finish(
      io,
      [`${head}: no state`, `root: ${root}`, ...missingLines('no-state', false)],
      STATUS_MISSING_STATE,
    );
  if (decision.kind === 'missing_state') return reportMissing(io, `${head}: missing state`, decision);
  if (decision.kind === 'complete') {
    return finish(
      io,
      [`${head}: complete`, ...stateLines(root, decision.state), 'do: stop; the task is finished.'],
      STATUS_COMPLETE,
    );
  }
  const { state, summary } = decision;
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
  return finish(
    io,
    [
      `${head}: ${gate.halt ? 'halt' : 'ready'}`,
      ...stateLines(root, state),
      summary.rewrite
        ? `summary: conflicts with the durable state (${conflictText(summary.conflicts)})`
        : 'summary: matches the state',
      ...gateLines(gate),
      gateAdvice(gate),
    ],
    gate.halt ? STATUS_HALT_CONTEXT_LIMIT : STATUS_OK,
  );
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
  return guarded(io, head, async () => {
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
    const state = applied.state;
    const written = await saveCheckpoint(root, state, renderSummary(state));
    const lines = [`${head}: written`, ...stateLines(root, state), `summary: ${LATEST_SUMMARY} (${written})`];
    if (isTerminalAction(state.next_action))
      return finish(io, [...lines, 'do: stop; the task is finished.'], STATUS_COMPLETE);
    if (state.next_action.trim() === '')
      return finish(io, [...lines, ...missingLines('empty-next-action', false)], STATUS_MISSING_STATE);
    if (thresholds === undefined || pressure === undefined) {
      return finish(
        io,
        [...lines, `do: run \`${guardianCommandLine('status --pressure P')}\` before the next major action.`],
        STATUS_OK,
      );
    }
    // The checkpoint and summary were just written, so only the pressure itself can still require something.
    const gate = evaluateGate({ pressure, first_turn: false }, thresholds);
    const advice = gate.halt ? gateAdvice(gate) : 'do: continue with the next action.';
    return finish(
      io,
      [...lines, ...gateLines(gate).filter((l) => !l.startsWith('required:')), advice],
      gate.halt ? STATUS_HALT_CONTEXT_LIMIT : STATUS_OK,
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
  if (decision.kind === 'initialize')
    return finish(
      io,
      [`${head}: no state`, `root: ${root}`, ...missingLines('no-state', false)],
      STATUS_MISSING_STATE,
    );
  if (decision.kind === 'missing_state') return reportMissing(io, `${head}: missing state`, decision);
  if (decision.kind === 'complete')
    return finish(io, [`${head}: complete`, 'do: stop; the task is finished.'], STATUS_COMPLETE);
  const built = buildWorkingBundle(decision.state);
  const body = format === 'json' ? JSON.stringify(built, null, 2) : renderBundleMarkdown(built).trimEnd();
  return finish(io, [body], STATUS_OK);
}

function defaultDeps(): GuardianDeps {
  return { now: () => new Date().toISOString(), readStdin: readProcessStdin };
}

/** The four commands with injected clock and stdin (tests pass their own). */
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
      summary: 'pressure gate before each major action (read-only)',
      help: STATUS_HELP,
      run: (args, io) => status(args, io),
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
  ];
}

export const guardianCommands: Command[] = createGuardianCommands();
