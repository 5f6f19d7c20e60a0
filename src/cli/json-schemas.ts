// The schema version of every JSON document the CLI prints: one integer constant per shape,
// raised when a field is removed or changes meaning (adding a field keeps the version). Readers
// check `schema_version` before anything else.
//
// Not versioned: `stabilize --emit FORMAT`, whose output is a provider request body and must stay
// exactly that provider's shape, and `policy show` (a policy, not a report). `policy validate
// --json` keeps its own POLICY_VALIDATE_SCHEMA beside its printer in commands/policy.ts.
import { CHECK_REPORT_SCHEMA } from '../core/golden/check-report.js';

/** `check --format json`, `check --report`, `merge --format json`, `merge --report`. */
export { CHECK_REPORT_SCHEMA };

/** `stabilize --json`: { schema_version, transcript, status, budget, context, ledger, summaries, checks, events }. */
export const STABILIZE_REPORT_SCHEMA = 1;

/** `inspect --json`: { schema_version, files: [...] }. */
export const INSPECT_REPORT_SCHEMA = 1;

/** `guardian bundle` (--format json): { schema_version, goal, phase, next_action, … } then the status line. */
export const GUARDIAN_BUNDLE_SCHEMA = 1;

/** `calibrate --json`: { schema_version, tokenizer, files, fit, policy }. */
export const CALIBRATE_REPORT_SCHEMA = 1;
