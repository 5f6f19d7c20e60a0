// `check [globs…]`: stabilize and validate every transcript and compare it with its golden
// (DESIGN §6): pass, drift, new, violations; obsolete goldens; a policy change review with
// --base-policy. Outside CI a missing golden is written (as Jest does); in CI it fails.
import { exitCodeFor } from '../../core/golden/check-report.js';
import { shownName } from '../../core/text/shown-name.js';
import { refusedCliOutput } from '../../io/output-path.js';
import { PROGRAM, parseOptions } from '../args.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { runGoldens } from '../check/golden-run.js';
import { boundHeapGrowth } from '../check/heap.js';
import type { GoldenSpill } from '../check/golden-spill.js';
import {
  DEFAULT_GOLDEN_DIR,
  OUTPUT_FORMATS,
  ciFromEnv,
  formatOption,
  JOBS_HELP,
  JOBS_OPTION,
  goldenDirOption,
  jobsOption,
  requireGlobs,
  shardOption,
  VERBOSE_HELP,
  VERBOSE_OPTION,
} from '../check/options.js';
import { printDiagnostics, printReport, writeCliReport } from '../check/output.js';
import { loadBasePolicy, loadHeadPolicy } from '../check/policies.js';
import { piiKeyFrom } from '../pii-key.js';
import type { PolicySetup } from '../check/policies.js';
import { guardOutput } from '../workflow-output.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from '../input-limits.js';
import { withGoldenLock } from '../golden-lock.js';
import { SESSIONS_HELP, parseSession } from '../prepare.js';
import { VIEW_PAGE_NAME, writeViewPage } from '../check/view-page.js';
import path from 'node:path';

const OPTIONS = {
  policy: { type: 'string' },
  'golden-dir': { type: 'string' },
  session: { type: 'string' },
  ci: { type: 'boolean' },
  shard: { type: 'string' },
  report: { type: 'string' },
  format: { type: 'string' },
  'base-policy': { type: 'string' },
  'cache-report': { type: 'boolean' },
  html: { type: 'string' },
  ...LIMIT_OPTIONS,
  ...JOBS_OPTION,
  ...VERBOSE_OPTION,
} as const;

const HELP = `Usage: ${PROGRAM} check FILE|DIR|GLOB… [options]

A pattern starting with ! excludes what it matches ('transcripts/**' '!transcripts/swe/**');
quote globs so the shell leaves them to the tool (docs/globs.md).

Stabilizes and validates each transcript and compares the result with its golden snapshot
<golden-dir>/<transcript path>.golden.json. Each transcript is reported as:
  pass        the result equals the golden and every check passes
  drift       the result differs from the golden: a semantic diff (which artifacts changed
              fate and why, token and status deltas, checks that changed, and whether the
              policy or the tokenizer changed) then a unified diff of the golden
  new         no golden yet: written (outside CI), or a failure (in CI)
  violations  a check with severity error fails
  error       the transcript (or its golden) could not be read
An aider chat history holding several sessions is one transcript per session, FILE#N
(golden <transcript path>#N.golden.json); one with a single session keeps its name.
Goldens with no transcript among the inputs are listed as obsolete (they do not fail the
run; 'update --prune-obsolete' removes them). Run over all transcripts for that list to
be meaningful; in a sharded run only 'merge' lists them. With --session, the goldens of the
other sessions of the files checked are not listed.

Options:
  --policy FILE           policy to apply (default .github/context-policy.yml when present,
                          else the built-in default)
  --golden-dir DIR        folder of the goldens, inside the working directory
                          (default ${DEFAULT_GOLDEN_DIR})
  --ci                    CI mode: a missing golden fails and nothing is written. Also on
                          when the CI variable is set (to anything but '', 'false' or '0'),
                          or, without CI, a CI provider's variable (GITHUB_ACTIONS,
                          GITLAB_CI, BUILDKITE, CIRCLECI, JENKINS_URL, TF_BUILD, …);
                          CI=false or CI=0 turns it off
  --shard i/n             check only shard i of n (1-based; transcripts are split by a hash
                          of their path); combine the shards' --report files with 'merge'
  --report FILE           also write the machine report (JSON, with schema_version)
  --html DIR              also write the HTML viewer page DIR/${VIEW_PAGE_NAME}: the session of
                          each transcript as a timeline of fates, masked spans highlighted,
                          the budget bar, filters, and a drift side by side with its golden
                          (self-contained, opens from file://; see also 'view')
  --format FORMAT         stdout format: ${OUTPUT_FORMATS.join(', ')} (default text); github prints
                          workflow commands that annotate the transcript lines
${VERBOSE_HELP}
  --base-policy SPEC      policy change review: also run this policy on every transcript and
                          show the impact side by side (tokens, artifacts kept, masked and
                          dropped by reason, checks newly failing or fixed). SPEC is a file,
                          or git-ref:REF:path to read the policy from git (e.g.
                          git-ref:origin/main:.github/context-policy.yml)
  --cache-report          also replay each transcript model call by model call and report how
                          much of each request repeats the previous one as a byte-identical
                          prefix (the provider's prompt cache; docs/cache-prefix.md): a line
                          per transcript, cache_prefix in the JSON report, a column in the
                          policy impact table. On anyway when a policy sets
                          checks.cache_prefix; costs up to 64 more stabilizations a transcript
${SESSIONS_HELP}
${LIMIT_HELP}
${JOBS_HELP}
  -h, --help              show this help

Transcript paths are taken relative to the working directory (run from the repo root).
Goldens and reports never hold raw PII (content is masked), timestamps or absolute paths.
Exit codes: 0 all pass (new goldens written outside CI), 1 drift, violations or a missing
golden in CI, 2 bad usage, an invalid policy or an unreadable transcript or golden (the
other transcripts are still checked and reported).

Examples:
  ${PROGRAM} check 'transcripts/**/*.jsonl'
  ${PROGRAM} check --ci --format github transcripts
  ${PROGRAM} check --session last aider-history.md
  ${PROGRAM} check --ci --shard 2/4 --report shard-2.json transcripts
  ${PROGRAM} check --base-policy git-ref:origin/main:.github/context-policy.yml transcripts
`;

async function loadPolicies(
  io: CliIO,
  policy: string | undefined,
  basePolicy: string | undefined,
): Promise<{ head: PolicySetup; base: PolicySetup | null } | null> {
  const key = piiKeyFrom(io.env);
  const head = await loadHeadPolicy(policy, io.cwd, key);
  printDiagnostics(io, head.diagnostics);
  if (!head.ok) return null;
  if (basePolicy === undefined) return { head: head.setup, base: null };
  const base = await loadBasePolicy(basePolicy, io.cwd, key);
  printDiagnostics(io, base.diagnostics);
  if (!base.ok) return null;
  return { head: head.setup, base: base.setup };
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  const inputs = requireGlobs('check', positionals);
  const format = formatOption(values.format);
  const shard = shardOption(values.shard);
  const goldenDir = goldenDirOption(values['golden-dir'], io.cwd);
  const ci = values.ci === true || ciFromEnv(io.env);
  const limits = parseLimits(values);
  const jobs = jobsOption(values.jobs);
  const session = parseSession(values.session);

  // Before the policies load the tokenizer: the young generation keeps its first size (heap.ts).
  boundHeapGrowth();
  const policies = await loadPolicies(io, values.policy, values['base-policy']);
  if (policies === null) return EXIT_INPUT;

  let report: Awaited<ReturnType<typeof runGoldens>>['report'] | undefined;
  let goldens: GoldenSpill | undefined;
  const evaluate = async (): Promise<number> => {
    ({ report, goldens } = await runGoldens({
      mode: 'check',
      inputs,
      cwd: io.cwd,
      goldenDir,
      ci,
      shard,
      ...policies,
      limits,
      ...(session !== undefined ? { session } : {}),
      keepGoldens: values.html !== undefined,
      ...(values['cache-report'] === true ? { cacheReport: true } : {}),
      ...jobs,
    }));
    return EXIT_OK;
  };
  // Outside CI check writes missing goldens: it takes the golden folder's lock as update does.
  const locked = ci
    ? await evaluate()
    : await withGoldenLock({ cwd: io.cwd, goldenDir }, 'check', io, evaluate);
  if (report === undefined) return locked;
  // The goldens the run kept for --html are in a temp file: removed whatever happens next.
  try {
    // Under GitHub Actions the report goes out in a stop-commands block, our annotations outside it.
    const kind =
      format === 'json' || format === 'markdown' ? format : format === 'github' ? 'annotations' : 'text';
    const out = guardOutput(io, kind);
    try {
      printReport(out.io, report, format, { verbose: values.verbose === true });
    } finally {
      out.close();
    }
    let code: number = exitCodeFor(report);
    if (values.report !== undefined) {
      const failure = await writeCliReport(values.report, report, io.cwd);
      if (failure) {
        printDiagnostics(io, [failure]);
        code = EXIT_INPUT;
      }
    }
    if (values.html !== undefined) {
      const page = path.join(values.html, VIEW_PAGE_NAME);
      const replacement = policies.head.policy.pii.replacement;
      const failure =
        (await refusedCliOutput('--html', page, io.cwd)) ??
        (await writeViewPage(page, report, goldens!, replacement, io.cwd, '--html'));
      if (failure) {
        printDiagnostics(io, [failure]);
        code = EXIT_INPUT;
      } else {
        io.stderr(`viewer page written to ${shownName(page)}\n`);
      }
    }
    return code;
  } finally {
    goldens?.close();
  }
}

export const checkCommand: Command = {
  path: ['check'],
  summary: 'compare transcripts with their golden snapshots (pass, drift, new, violations)',
  help: HELP,
  run,
};
