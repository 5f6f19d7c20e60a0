// The context guardian's pure core (DESIGN §8): durable state schema, summaries, the pressure
// gate, the startup branch, the working bundle and the CI replay.
export {
  ArtifactRefSchema,
  HaltRecordSchema,
  LastActionSchema,
  OUTCOMES,
  START_ACTION,
  STATE_LIMITS,
  TASK_STATE_FIELDS,
  TASK_STATE_SCHEMA_ID,
  ResumeRecordSchema,
  TERMINAL_ACTIONS,
  TaskStateSchema,
  initialState,
  isTerminalAction,
  serializeState,
} from './state.js';
export type {
  ArtifactRef,
  HaltRecord,
  InitialStateInput,
  LastAction,
  Outcome,
  ResumeRecord,
  TaskState,
} from './state.js';
export { haltRecord, isHalted, latchHalt, resumeFromHalt } from './halt.js';
export type { ResumeInput, ResumeResult } from './halt.js';
export { parseTaskState } from './parse-state.js';
export type { ParsedState, StateProblem } from './parse-state.js';
export {
  TEXT_LIST_FIELDS,
  TaskStatePatchSchema,
  applyPatch,
  mergePatches,
  parseStatePatch,
} from './patch.js';
export type { ApplyPatchResult, ParsePatchResult, TaskStatePatch, TextListField } from './patch.js';
export { SUMMARY_SECTIONS, renderSummary, summarySections } from './summary.js';
export type { SummarySection } from './summary.js';
export { parseSummarySections, summaryConflicts } from './summary-parse.js';
export type { SectionProblem, SummaryConflict } from './summary-parse.js';
export {
  DEFAULT_THRESHOLDS,
  evaluateGate,
  isValidPressure,
  pressureLevel,
  thresholdProblems,
} from './gate.js';
export type {
  GateAction,
  GateDecision,
  GateInput,
  GuardianThresholds,
  PressureLevel,
  PressureSource,
} from './gate.js';
export { contextPressure, mustKeepTokens } from './pressure.js';
export type { ContextPressure } from './pressure.js';
export { ARCHIVABLE_REASONS, decideStartup } from './startup.js';
export type { FileRead, MissingReason, StartupDecision, StartupFiles, SummaryStatus } from './startup.js';
export { buildWorkingBundle, pathsNamedIn, renderBundleMarkdown } from './bundle.js';
export type { WorkingBundle } from './bundle.js';
export { replayGuardian } from './replay.js';
export {
  CHECKPOINT_TOOLS,
  SHELL_TOOLS,
  STATE_CHANGING_TOOLS,
  normalizeToolName,
  shellCommandWrites,
} from './replay-rules.js';
export { STATUS_COMPLETE, STATUS_HALT_CONTEXT_LIMIT, STATUS_MISSING_STATE, STATUS_OK } from './signals.js';
export type { GuardianSignal } from './signals.js';
