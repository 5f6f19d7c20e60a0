// Golden snapshots, the check report and its renderings (DESIGN §6): the pure side of `check`,
// `update` and `merge`. File system, git and the CLI live at the edges.
export { stableStringify } from './stable-json.js';
export { GOLDEN_SCHEMA, buildGolden, parseGolden, policyHash } from './golden.js';
export type { Golden, GoldenMeta, ParseGoldenResult } from './golden.js';
export { diffGoldens, unifiedGoldenDiff } from './diff.js';
export type { CheckChange, CheckState, Fate, FateChange, GoldenDiff } from './diff.js';
export { GOLDEN_SUFFIX, findCaseCollisions, goldenPathFor } from './paths.js';
export type { GoldenPathResult } from './paths.js';
export { MAX_SHARDS, inShard, parseShard } from './shard.js';
export type { ParseShardResult, Shard } from './shard.js';
export { impactSide, policyImpact } from './impact.js';
export type { ImpactSide, PolicyImpact } from './impact.js';
export {
  CHECK_REPORT_SCHEMA,
  exitCodeFor,
  findObsolete,
  mergeReports,
  outcomeFails,
  sortOutcomes,
  summarize,
} from './check-report.js';
export type {
  CheckReport,
  MergeResult,
  Outcome,
  ReportSummary,
  ReportViolation,
  TranscriptOutcome,
} from './check-report.js';
export { describeDiff, describeFateChange, describeImpact, describeSummary } from './describe.js';
export { escapeData, escapeMarkdown, escapeProperty, renderGithub, renderText } from './render.js';
