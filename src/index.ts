// Library entry (`import … from 'context-stability'`): the model types, reading transcripts,
// parsing policies, counting tokens, and the stabilizer with its checks, emitters and report.

// Model
export { ARTIFACT_KINDS, TRANSCRIPT_FORMATS } from './core/types.js';
export type {
  Artifact,
  ArtifactKind,
  Content,
  ContentPart,
  Diagnostic,
  OpaquePart,
  Pairing,
  Severity,
  SourcePos,
  TextPart,
  ToolCall,
  Transcript,
  TranscriptFormat,
} from './core/types.js';
export { InputError, diagnostic, formatDiagnostic, hasErrors } from './core/diagnostics.js';

// Transcripts
export { detectFormat, pairToolResults, readTranscript } from './core/readers/index.js';
export type { FormatOption, ReadOptions, ReadResult } from './core/readers/index.js';
export { loadTranscript } from './io/load-transcript.js';
export { DEFAULT_MAX_FILE_BYTES } from './io/read-input.js';
export { DEFAULT_MAX_RECORDS } from './core/text/jsonl.js';
export type { LoadTranscriptOptions, LoadTranscriptResult } from './io/load-transcript.js';
export { expandInputs, TRANSCRIPT_EXTENSIONS } from './io/expand-inputs.js';
export type { ExpandOptions, ExpandResult } from './io/expand-inputs.js';

// Policy
export {
  AUTHORITY_KINDS,
  CHECK_NAMES,
  CHECK_SEVERITIES,
  DEFAULT_POLICY,
  DEFAULT_POLICY_YAML,
  MODEL_FAMILIES,
  NOTIFICATION_LEVELS,
  ORDER_SECTIONS,
  PART_TOKEN_KINDS,
  PII_DETECTORS,
  POLICY_VERSION,
  TRUNCATION_MODES,
  compileRules,
  parsePolicy,
  policyFromObject,
} from './core/policy/index.js';
export type {
  CompiledRule,
  ParsedPolicy,
  ParsePolicyOptions,
  ParsePolicyResult,
  PiiRule,
  Policy,
  PolicyInput,
} from './core/policy/index.js';
export { loadPolicy } from './io/load-policy.js';
export type { LoadPolicyOptions, LoadPolicyResult } from './io/load-policy.js';

// Tokens
export { TOKENIZER_NAMES, isTokenizerName } from './core/tokens/tokenizer.js';
export type { Tokenizer, TokenizerName } from './core/tokens/tokenizer.js';
export { countArtifactTokens, partCategory } from './core/tokens/count.js';
export type { PartCategory, PartTokens, TokenCostConfig } from './core/tokens/count.js';
export { loadPolicyTokenizer, loadTokenizer } from './tokens/load.js';
export { calibrateTokenizer, calibrationOf, scaleCount } from './core/tokens/calibrate.js';
export type { Calibration } from './core/tokens/calibrate.js';

// Stabilizer, checks, emitters, report (async wrappers in src/api resolve policy and tokenizer)
export * from './api/index.js';

// Inside the agent (docs/integrations.md): the stabilizer with per-session state and recording, and
// the plain request-body adapter. Framework adapters are subpath exports (context-stability/ai-sdk,
// /langchain, /openai-agents), so that the package never needs a framework it does not use.
export { ContextStabilizer, createContextStabilizer } from './runtime/stabilizer.js';
export type { CallOptions, ContextStabilizerOptions, StabilizedCall } from './runtime/stabilizer.js';
export { ContextEscalatedError, ContextHaltedError } from './runtime/errors.js';
export { ContextBlockedError } from './runtime/errors.js';
export type { Restore } from './runtime/pii-session.js';
// PII strategies (docs/pii.md): pii.strategy values and the variable the CLI reads the hash key from.
export { DEFAULT_PII_STRATEGY, PII_KEY_ENV, PII_STRATEGIES } from './core/pii/aliases.js';
export type { PiiStrategy } from './core/pii/aliases.js';
export type { ContextHaltDetails, HaltCheckpoint, RuntimeWarning } from './runtime/errors.js';
// The context guardian inside the agent (docs/host-loop.md): pressure from the stabilizer, halts through the adapters.
export { GuardianLink, createGuardianLink } from './runtime/guardian-link.js';
export type { GuardianLinkOptions, GuardianReport, GuardianResume } from './runtime/guardian-link.js';
export type { ContextPressure } from './core/guardian/pressure.js';
export type { RecordOptions } from './runtime/recorder.js';
export { StabilizeMemo } from './core/stabilize/memo.js';
export { stabilizeAnthropicRequest, stabilizeOpenAIRequest } from './adapters/request-body.js';
export type { AnthropicMessagesBody, OpenAIChatBody } from './adapters/request-body.js';
export { ESCALATION_CHOICES, OPTIONAL_CHECK_NAMES, WARNING_CHECK_NAMES } from './core/policy/index.js';
export type { EscalationChoice } from './core/policy/index.js';

// Context guardian (DESIGN §8): a namespace, because its names (Outcome, LastAction…) are its own.
export * as guardian from './core/guardian/index.js';
export {
  GuardianStoreError,
  archiveGuardianFiles,
  readGuardianFiles,
  saveCheckpoint,
  writeState,
  writeSummary,
} from './io/guardian-store.js';
