// The policy module's public surface (DESIGN §3): schema and types, the built-in default,
// parsing with positioned diagnostics, and compiled PII rules.
export {
  AUTHORITY_KINDS,
  CHECK_NAMES,
  CHECK_SEVERITIES,
  ESCALATION_CHOICES,
  OPTIONAL_CHECK_NAMES,
  WARNING_CHECK_NAMES,
  warningCheckSeverity,
  NOTIFICATION_LEVELS,
  ORDER_SECTIONS,
  PART_TOKEN_KINDS,
  PII_DETECTORS,
  POLICY_LIMITS,
  POLICY_VERSION,
  PolicySchema,
  RULE_NAME_PATTERN,
  MODEL_FAMILIES,
  TOKENIZERS,
  TRUNCATION_MODES,
  TYPE_PLACEHOLDER,
  WATCHDOG_DEFAULT_SECONDS,
  watchdogSeconds,
} from './schema.js';
export type {
  AuthorityKind,
  CheckName,
  CheckSeverity,
  EscalationChoice,
  OptionalCheckName,
  WarningCheckName,
  NotificationLevel,
  OrderSection,
  PartTokenKind,
  PiiDetector,
  PiiRule,
  Policy,
  PolicyInput,
  TokenizerName,
  TruncationMode,
} from './schema.js';
export { DEFAULT_POLICY, DEFAULT_POLICY_YAML } from './default.js';
export { defaultPolicyResult, parsePolicy, policyFromObject } from './parse.js';
export type { ParsedPolicy, ParsePolicyOptions, ParsePolicyResult } from './parse.js';
export { compileRules, replacementText } from './rules.js';
export type { CompiledRule, CompileRulesOptions, CompileRulesResult } from './rules.js';
