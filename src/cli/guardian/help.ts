// `--help` texts of the guardian sub-commands: written for a weak model reading them once.
import { PROGRAM } from '../args.js';
import { EXIT_CODES_HELP, ROOT_ENV, ROOT_HELP, THRESHOLD_HELP } from './options.js';
import { GUARDIAN_BUNDLE_SCHEMA } from '../json-schemas.js';

const G = `${PROGRAM} guardian`;

export const ENSURE_HELP = `Usage: ${G} ensure [--root DIR] [--goal TEXT] [--phase TEXT] [--constraint TEXT]… [--archive]

The startup branch. Run it once when a session starts.
- Nothing at the root: writes a new task state (next_action START) and its summary.
- State and summary present: checks them; a summary that disagrees with the state is
  rewritten from the state (the state always wins).
- next_action is DONE, COMPLETE or FINISH: makes sure the final summary is written.
- Anything unsafe (summary without state, unreadable, legacy or incomplete state, empty
  next_action, missing summary): STATUS:MISSING_STATE. Nothing is ever overwritten.

Options:
${ROOT_HELP}
  --goal TEXT         goal of a NEW task state (ignored when one exists)
  --phase TEXT        first phase of a new task state
  --constraint TEXT   constraint of a new task state (repeatable)
  --invariant TEXT    invariant of a new task state (repeatable)
  --archive           for humans: move an unusable state file (and its summary) to
                      archive/<time>/, then start a new task state
  -h, --help          show this help

${EXIT_CODES_HELP}

Examples:
  export ${ROOT_ENV}=.agent/task
  ${G} ensure --goal "Fix the failing invoice tests"
`;

export const STATUS_HELP = `Usage: ${G} status [--root DIR] --pressure P [--changed-state] [--phase-changed]

Run before every major action (a model call that may change the plan, a write, an edit).
Reads the state and summary from disk (writes only to latch a halt) and runs the pressure gate:
  pressure < warning               continue
  warning <= pressure < compress   continue; a fresh summary is due after the action
  compress <= pressure < critical  one more action, then a fresh summary before the next
  pressure >= critical             STATUS:HALT_CONTEXT_LIMIT: stop
Without --pressure the first turn assumes 0.0; on any later turn a missing pressure counts
as critical (turns are counted by checkpoints).

The halt is latched: when it is first signalled, status writes a checkpoint and a fresh
summary with the halt recorded in the state (its only write). From then on every guardian
command answers STATUS:HALT_CONTEXT_LIMIT, whatever the pressure, until a human or the host
runs \`${G} resume --by WHO --why TEXT\`.

Options:
${ROOT_HELP}
  --pressure P        context pressure from the host, 0.0 to 1.0
  --changed-state     the last action changed state (a checkpoint is due)
  --phase-changed     the last action changed the phase or the goal (a summary is due)
${THRESHOLD_HELP}
  -h, --help          show this help

${EXIT_CODES_HELP}

Example:
  ${G} status --pressure 0.42
`;

export const CHECKPOINT_HELP = `Usage: ${G} checkpoint [--root DIR] [updates…] [--file PATCH.json | --file -] [--pressure P]

Writes the durable state (atomically) and a fresh summary, plus summaries/latest-summary.md.
Run it after every action that changed state, after every failure, and when status asks.

Updates (each optional; list options are repeatable and append):
  --next-action TEXT            the next step (DONE, COMPLETE or FINISH ends the task)
  --phase TEXT, --goal TEXT     replace the current phase / the goal
  --last-action-summary TEXT --outcome success|failure
                                what the last action did; a failure is also recorded
                                as a failed attempt
  --completed TEXT  --failed TEXT  --decision TEXT  --blocker TEXT  --resolve-blocker TEXT
  --artifact PATH  --constraint TEXT  --invariant TEXT  --tool-output TEXT
  --file FILE                   a JSON patch: {goal, current_phase, next_action,
                                last_action: {summary, outcome}, append: {completed_steps,
                                failed_attempts, decisions, tool_outputs, blockers,
                                constraints, invariants, artifacts}, remove: {…}}
                                ('-' reads it from stdin; flags apply after it)

Options:
${ROOT_HELP}
  --pressure P        also run the gate after writing (STATUS:HALT_CONTEXT_LIMIT at critical;
                      the halt is recorded in the state it writes)
${THRESHOLD_HELP}
  -h, --help          show this help

A legacy, malformed or incomplete state file is never overwritten (STATUS:MISSING_STATE).
While a halt is latched, a checkpoint still writes (record what the last turn changed) and
answers STATUS:HALT_CONTEXT_LIMIT, unless next_action ends the task (STATUS:COMPLETE).
${EXIT_CODES_HELP}

Example:
  ${G} checkpoint --last-action-summary "ran the tests: 2 failures" --outcome failure \\
    --next-action "fix rounding in src/invoice.ts" --artifact src/invoice.ts
`;

export const BUNDLE_HELP = `Usage: ${G} bundle [--root DIR] [--format json|md]

Prints the working bundle for the next major action: goal, phase, next_action,
last_successful_action, constraints and relevant_artifacts (paths listed in the state and
paths named in next_action). Never the whole state file.

Options:
${ROOT_HELP}
  --format FORMAT     json (default) or md; the JSON document (with schema_version
                      ${GUARDIAN_BUNDLE_SCHEMA}) is every line but the last
  -h, --help          show this help

${EXIT_CODES_HELP}
`;

export const RESUME_HELP = `Usage: ${G} resume [--root DIR] --by WHO --why TEXT

For humans and host systems, never for the agent itself: the explicit override that ends a
latched halt. It clears the halt, appends {at, by, why, halted_at} to the state's "resumes"
list, and writes the state and a fresh summary (like a checkpoint). The next status runs the
pressure gate again, so a pressure still at critical halts again.
Without a latched halt it says "not halted", writes nothing and ends with STATUS:OK (exit 0).

Options:
${ROOT_HELP}
  --by WHO            who overrides the halt (a person or a system; required)
  --why TEXT          why the agent may go on (required)
  -h, --help          show this help

${EXIT_CODES_HELP}

Example:
  ${G} resume --by "ops on-call" --why "the host compacted the context"
`;
