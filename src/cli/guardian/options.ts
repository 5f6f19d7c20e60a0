// Options shared by the `guardian` sub-commands: where the root is, the pressure, and the
// thresholds (policy `guardian:` block, overridden by the host's flags).
import path from 'node:path';
import { formatDiagnostic } from '../../core/diagnostics.js';
import { thresholdProblems } from '../../core/guardian/gate.js';
import type { GuardianThresholds } from '../../core/guardian/gate.js';
import { loadPolicy } from '../../io/load-policy.js';
import { PROGRAM, UsageError } from '../args.js';
import type { CliIO } from '../command.js';

export const ROOT_ENV = 'CONTEXT_GUARDIAN_ROOT';

/** Exit codes of every guardian command; each status signal has its own. */
export const GUARDIAN_EXIT = {
  ok: 0,
  usage: 2,
  missingState: 3,
  halt: 4,
  complete: 5,
} as const;

export const ROOT_OPTION = { root: { type: 'string' } } as const;
export const THRESHOLD_OPTIONS = {
  policy: { type: 'string' },
  warning: { type: 'string' },
  compress: { type: 'string' },
  critical: { type: 'string' },
} as const;

export const EXIT_CODES_HELP = `The last line of stdout is the status: STATUS:OK, STATUS:MISSING_STATE,
STATUS:HALT_CONTEXT_LIMIT or STATUS:COMPLETE. Stop on any of the last three.
Exit codes: 0 STATUS:OK, 3 STATUS:MISSING_STATE, 4 STATUS:HALT_CONTEXT_LIMIT, 5 STATUS:COMPLETE,
2 bad usage, or busy: another guardian command kept the root's lock (.guardian.lock) for 10 s
(the last line is then STATUS:MISSING_STATE; nothing was written; run the command again).`;

export const ROOT_HELP = `  --root DIR          the guardian root (default: $${ROOT_ENV})`;

export const THRESHOLD_HELP = `  --policy FILE       policy whose guardian: block sets the thresholds (default
                      .github/context-policy.yml when present, else 0.55/0.70/0.85)
  --warning P, --compress P, --critical P
                      host override of one threshold (0.0 to 1.0)`;

/** The root from `--root`, else the environment; relative paths resolve from the working directory. */
export function resolveRoot(value: string | undefined, io: CliIO): string {
  const given = value ?? io.env[ROOT_ENV];
  if (given === undefined || given.trim() === '') {
    throw new UsageError(
      `guardian needs a root directory: pass --root DIR or set ${ROOT_ENV} once for the session (export ${ROOT_ENV}=/path/to/task).`,
    );
  }
  return path.resolve(io.cwd, given);
}

const FRACTION = /^(?:0(?:\.\d+)?|1(?:\.0+)?|\.\d+)$/;

/** A number from 0.0 to 1.0 written in plain decimal. */
export function parseFraction(option: string, value: string): number {
  if (!FRACTION.test(value.trim()))
    throw new UsageError(`Option ${option} needs a number from 0.0 to 1.0, e.g. 0.42.`);
  return Number(value.trim());
}

export interface ThresholdFlags {
  policy?: string;
  warning?: string;
  compress?: string;
  critical?: string;
}

/** Thresholds from the policy with flag overrides; null after printing why the policy is unusable. */
export async function resolveThresholds(
  flags: ThresholdFlags,
  io: CliIO,
): Promise<GuardianThresholds | null> {
  const loaded = await loadPolicy(flags.policy, { cwd: io.cwd });
  for (const d of loaded.diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
  if (!loaded.ok) return null;
  const t: GuardianThresholds = { ...loaded.policy.guardian };
  if (flags.warning !== undefined) t.warning = parseFraction('--warning', flags.warning);
  if (flags.compress !== undefined) t.compress = parseFraction('--compress', flags.compress);
  if (flags.critical !== undefined) t.critical = parseFraction('--critical', flags.critical);
  const problems = thresholdProblems(t);
  if (problems.length > 0) throw new UsageError(`Thresholds: ${problems.join(' ')}`);
  return t;
}

/** `context-stability guardian <sub>`: how outputs tell the agent what to run next. */
export function guardianCommandLine(sub: string): string {
  return `${PROGRAM} guardian ${sub}`;
}
