// The durable task state (DESIGN §8): the one record a long-running agent resumes from. Every
// field is required so that "safe recovery" (state present, fields present, next_action set)
// can be checked mechanically; lists start empty rather than absent.
import { z } from 'zod';

/**
 * Marks a state file written by this module. A JSON object without it is a legacy or foreign
 * shape: it is never mutated, only archived on explicit request.
 */
export const TASK_STATE_SCHEMA_ID = 'context-guardian/task-state@1';

/** `next_action` value of a freshly initialized task (the seed's startup branch). */
export const START_ACTION = 'START';

/** `next_action` values that end the task with STATUS:COMPLETE (compared trimmed, case-insensitively). */
export const TERMINAL_ACTIONS = ['DONE', 'COMPLETE', 'FINISH'] as const;

export const OUTCOMES = ['success', 'failure', 'none'] as const;
export type Outcome = (typeof OUTCOMES)[number];

/** Bounds that keep one state file small enough to read before every major action. */
export const STATE_LIMITS = { maxTextChars: 20_000, maxListItems: 2_000 } as const;

const text = () => z.string().max(STATE_LIMITS.maxTextChars);
const textList = () => z.array(text()).max(STATE_LIMITS.maxListItems);

export const ArtifactRefSchema = z.strictObject({
  path: z.string().min(1).max(4_096),
  note: text().optional(),
});
export type ArtifactRef = z.infer<typeof ArtifactRefSchema>;

export const LastActionSchema = z.strictObject({
  summary: text(),
  outcome: z.enum(OUTCOMES),
});
export type LastAction = z.infer<typeof LastActionSchema>;

/**
 * A latched halt (the seed's halt rule "overrides everything"): set when the gate first reaches
 * critical, cleared only by `guardian resume`. Absent means not halted, so state files written
 * before the latch existed still load unchanged.
 */
export const HaltRecordSchema = z.strictObject({
  /** When the halt was first signalled (ISO 8601, supplied by the caller). */
  at: z.iso.datetime({ offset: true }),
  /** The pressure that halted; null when the pressure was missing after the first turn. */
  pressure: z.number().min(0).max(1).nullable(),
  /** The critical threshold in force. */
  threshold: z.number().min(0).max(1),
  reason: text(),
});
export type HaltRecord = z.infer<typeof HaltRecordSchema>;

/** One explicit human or system override of a halt (`guardian resume`). */
export const ResumeRecordSchema = z.strictObject({
  at: z.iso.datetime({ offset: true }),
  by: text().min(1),
  why: text().min(1),
  /** The `at` of the halt this override cleared. */
  halted_at: z.iso.datetime({ offset: true }),
});
export type ResumeRecord = z.infer<typeof ResumeRecordSchema>;

export const TaskStateSchema = z.strictObject({
  schema: z.literal(TASK_STATE_SCHEMA_ID),
  goal: text(),
  current_phase: text(),
  next_action: text(),
  last_action: LastActionSchema,
  constraints: textList(),
  /** Files the task touched or needs (the seed's touched_files / relevant_artifacts). */
  artifacts: z.array(ArtifactRefSchema).max(STATE_LIMITS.maxListItems),
  completed_steps: textList(),
  failed_attempts: textList(),
  decisions: textList(),
  /** Tool outputs worth keeping across a context reset (the summary rule preserves them). */
  tool_outputs: textList(),
  blockers: textList(),
  invariants: textList(),
  /** Checkpoints written since initialization: turn 0 is the first turn of the pressure fallback rule. */
  turn: z.number().int().min(0),
  /** ISO 8601 time of the last durable write, supplied by the caller (the core has no clock). */
  updated_at: z.iso.datetime({ offset: true }),
  /** Optional: present while the task is halted. */
  halt: HaltRecordSchema.optional(),
  /** Optional: every halt override, oldest first (absent until the first `guardian resume`). */
  resumes: z.array(ResumeRecordSchema).max(STATE_LIMITS.maxListItems).optional(),
});
export type TaskState = z.infer<typeof TaskStateSchema>;

/** Every top-level field in file order; all but `halt` and `resumes` are required. */
export const TASK_STATE_FIELDS = Object.keys(TaskStateSchema.shape) as (keyof TaskState)[];

export interface InitialStateInput {
  updated_at: string;
  goal?: string;
  current_phase?: string;
  constraints?: readonly string[];
  invariants?: readonly string[];
}

/** A new task: next_action START, nothing done yet, turn 0. */
export function initialState(input: InitialStateInput): TaskState {
  return TaskStateSchema.parse({
    schema: TASK_STATE_SCHEMA_ID,
    goal: input.goal ?? '',
    current_phase: input.current_phase ?? '',
    next_action: START_ACTION,
    last_action: { summary: '', outcome: 'none' },
    constraints: [...(input.constraints ?? [])],
    artifacts: [],
    completed_steps: [],
    failed_attempts: [],
    decisions: [],
    tool_outputs: [],
    blockers: [],
    invariants: [...(input.invariants ?? [])],
    turn: 0,
    updated_at: input.updated_at,
  });
}

/** DONE, COMPLETE or FINISH (trimmed, any case): the task is finished. */
export function isTerminalAction(nextAction: string): boolean {
  const word = nextAction.trim().toUpperCase();
  return (TERMINAL_ACTIONS as readonly string[]).includes(word);
}

/** The state file as written: 2-space JSON, fields in schema order, LF, trailing newline. */
export function serializeState(state: TaskState): string {
  const ordered = Object.fromEntries(
    TASK_STATE_FIELDS.filter((key) => state[key] !== undefined).map((key) => [key, state[key]]),
  );
  return `${JSON.stringify(ordered, null, 2)}\n`;
}
