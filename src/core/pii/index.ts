// Public surface of the PII stage.
export { BUILTIN_PII_TYPES, DIGIT_RUN_TYPE } from './types.js';
export type { BuiltinPiiType, Detector, PiiMatch, TypeHint } from './types.js';
export { DEFAULT_PII_DETECTORS, builtinDetectors, createDetectors, defaultDetectors } from './registry.js';
export type { DetectorConfig } from './registry.js';
export type { CompiledRule } from './detectors/user-rule.js';
export { findPii, maskText, renderReplacement } from './mask.js';
export { findJsonPii, findPiiIn, maskJsonText } from './mask-json.js';
export type { MaskOptions, MaskResult } from './mask.js';
export {
  DEFAULT_PII_STRATEGY,
  DEFAULT_TEMPLATES,
  PII_KEY_ENV,
  PII_STRATEGIES,
  PiiAliases,
  PiiKeyMissingError,
  SECRET_TYPES,
  aliasOf,
  isSecretType,
  keyedHash,
  normalizeValue,
  piiStrategyOf,
} from './aliases.js';
export type { AliasOf, AliasSettings, PiiStrategy } from './aliases.js';
export { LABEL_TEMPLATE, isPerValue, labelTemplate, readAliases, renderTemplate } from './template.js';
