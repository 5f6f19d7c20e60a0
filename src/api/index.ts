// The library's stabilizer surface: async wrappers (policy + tokenizer resolved for the caller),
// the pure functions they wrap, the provider emitters and verifiers, and the report.
export { stabilize, validate } from './stabilize.js';
export type { StabilizeApiOptions } from './stabilize.js';
export { MEMORY_FILE, isTranscript, toTranscript } from './input.js';
export type { TranscriptInput, TranscriptInputOptions } from './input.js';
export { POLICY_OBJECT_FILE, resolvePolicy } from './policy.js';
export type { PolicyOption } from './policy.js';

export { stabilizeTranscript } from '../core/stabilize/stabilize.js';
export type { StabilizeOptions } from '../core/stabilize/stabilize.js';
export { ACTIONS, STAGES } from '../core/stabilize/types.js';
export type {
  Action,
  ContextItem,
  EventLevel,
  LedgerEntry,
  Reason,
  StabilizeEvent,
  StabilizeResult,
  Stage,
  Status,
  SummaryLog,
  SummaryStatus,
} from '../core/stabilize/types.js';
export type { TokenCache } from '../core/stabilize/meter.js';
export { validateResult } from '../core/validate/validate.js';
export type { ValidateOptions } from '../core/validate/validate.js';
export { VALIDATE_CHECKS } from '../core/validate/types.js';
export type { CheckResult, ValidateCheckName, Violation } from '../core/validate/types.js';

export {
  EMIT_FORMATS,
  emitContext,
  resolveEmitFormat,
  toAnthropic,
  toNative,
  toOpenAI,
  toResponses,
} from '../core/emit/index.js';
export type { EmitFormat } from '../core/emit/index.js';
export type { OpenAIMessage, OpenAIToolCall } from '../core/emit/openai.js';
export type { AnthropicBlock, AnthropicMessage, AnthropicRequest } from '../core/emit/anthropic.js';
export type { NativeDocument } from '../core/emit/native.js';
export type { ResponsesItem, ResponsesRequest } from '../core/emit/responses.js';
export { verifyAnthropic, verifyOpenAI } from '../core/emit/verify.js';

export { buildReport, failingChecks } from '../core/report/report.js';
export type { TranscriptReport } from '../core/report/report.js';
export { explainArtifact } from '../core/report/explain.js';
