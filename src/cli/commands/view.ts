// `view FILE|DIR|GLOB…`: the HTML viewer of a run. Runs what `check` runs (stabilize, validate,
// compare with the stored goldens) without writing any golden, and writes one self-contained page:
// each transcript's session as a timeline of fates with masked spans highlighted, its budget bar,
// filters by fate and check, and a drift side by side with its golden. Only goldens reach the page,
// so it shows the masked context, never raw text.
import path from 'node:path';
import { PROGRAM, parseOptions } from '../args.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { runGoldens } from '../check/golden-run.js';
import {
  DEFAULT_GOLDEN_DIR,
  JOBS_HELP,
  JOBS_OPTION,
  goldenDirOption,
  jobsOption,
  requireGlobs,
} from '../check/options.js';
import { printDiagnostics } from '../check/output.js';
import { loadHeadPolicy } from '../check/policies.js';
import { piiKeyFrom } from '../pii-key.js';
import { writeViewPage } from '../check/view-page.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from '../input-limits.js';
import { SESSIONS_HELP, parseSession } from '../prepare.js';
import { describeSummary } from '../../core/golden/describe.js';
import { hasErrors } from '../../core/diagnostics.js';
import { exitCodeFor } from '../../core/golden/check-report.js';
import { styleCheckText, styleFor } from '../style.js';

export const DEFAULT_VIEW_FILE = 'context-stability-report.html';

const OPTIONS = {
  policy: { type: 'string' },
  'golden-dir': { type: 'string' },
  session: { type: 'string' },
  out: { type: 'string', short: 'o' },
  ...LIMIT_OPTIONS,
  ...JOBS_OPTION,
} as const;

const HELP = `Usage: ${PROGRAM} view FILE|DIR|GLOB… [options]

A pattern starting with ! excludes what it matches ('transcripts/**' '!transcripts/swe/**');
quote globs so the shell leaves them to the tool (docs/globs.md).

Writes one self-contained HTML page (inline CSS and script, no network, opens from
file://) showing what the model would receive for each transcript: the session as a
timeline with each artifact's fate, reason, tokens and protection, masked spans
highlighted by type, the budget bar, filters by fate and by check, and for a drift the
stored golden and the new context side by side. Failing transcripts come first.
It runs what 'check' runs but never writes a golden. The page holds only what goldens
hold (the masked context): never raw PII.

Options:
  -o, --out FILE          the page to write (default ${DEFAULT_VIEW_FILE})
  --policy FILE           policy to apply (default .github/context-policy.yml when present,
                          else the built-in default)
  --golden-dir DIR        folder of the goldens to compare with (default ${DEFAULT_GOLDEN_DIR})
${SESSIONS_HELP}
${LIMIT_HELP}
${JOBS_HELP}
  -h, --help              show this help

Exit codes: 0 the page was written (whatever the transcripts' outcomes; 'check' is the
gate), 2 bad usage, an invalid policy, or the page could not be written. Transcripts
that cannot be read are shown on the page with their errors.

Examples:
  ${PROGRAM} view transcripts
  ${PROGRAM} view --out review.html --policy .github/context-policy.yml 'transcripts/**/*.jsonl'
`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  const inputs = requireGlobs('view', positionals);
  const goldenDir = goldenDirOption(values['golden-dir'], io.cwd);
  const limits = parseLimits(values);
  const jobs = jobsOption(values.jobs);
  const session = parseSession(values.session);
  const out = values.out ?? DEFAULT_VIEW_FILE;

  const head = await loadHeadPolicy(values.policy, io.cwd, piiKeyFrom(io.env));
  printDiagnostics(io, head.diagnostics);
  if (!head.ok) return EXIT_INPUT;

  const { report, goldens } = await runGoldens({
    mode: 'check',
    inputs,
    cwd: io.cwd,
    goldenDir,
    ci: false,
    shard: null,
    head: head.setup,
    base: null,
    limits,
    ...(session !== undefined ? { session } : {}),
    keepGoldens: true,
    readOnly: true,
    ...jobs,
  });
  printDiagnostics(
    io,
    report.transcripts.flatMap((t) => t.diagnostics ?? []),
  );
  let failure;
  try {
    failure = await writeViewPage(out, report, goldens, head.setup.policy.pii.replacement, io.cwd);
  } finally {
    // The goldens of the run were spilled to a temp file (golden-spill.ts).
    goldens.close();
  }
  if (failure) {
    printDiagnostics(io, [failure]);
    return EXIT_INPUT;
  }
  const summary = styleCheckText(
    describeSummary(report),
    styleFor(io, 'stdout'),
    exitCodeFor(report) === EXIT_OK,
  );
  io.stdout(`${summary}\nviewer page written to ${path.resolve(io.cwd, out)}\n`);
  return hasErrors(head.diagnostics) ? EXIT_INPUT : EXIT_OK;
}

export const viewCommand: Command = {
  path: ['view'],
  summary: 'write a self-contained HTML page of what the model receives (timeline, fates, budget, drift)',
  help: HELP,
  run,
};
