// `update [globs…]`: writes the goldens `check` compares with, each atomically, and says what
// it changed. Obsolete goldens are only listed unless --prune-obsolete is given.
import { hasErrors } from '../../core/diagnostics.js';
import type { TranscriptOutcome } from '../../core/golden/check-report.js';
import { describeDiff } from '../../core/golden/describe.js';
import { checkGoldenRoot, cleanStaleTempFiles, removeGoldenFile } from '../../io/golden-store.js';
import { PROGRAM, parseOptions } from '../args.js';
import { EXIT_FINDINGS, EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { runGoldens } from '../check/golden-run.js';
import { boundHeapGrowth } from '../check/heap.js';
import type { GoldenWrite, WriteReason } from '../check/golden-run.js';
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
import { guardOutput } from '../workflow-output.js';
import { shownName } from '../../core/text/shown-name.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from '../input-limits.js';
import { withGoldenLock } from '../golden-lock.js';
import { styleFor, styleUpdateText } from '../style.js';
import { SESSIONS_HELP, parseSession } from '../prepare.js';

const OPTIONS = {
  policy: { type: 'string' },
  'golden-dir': { type: 'string' },
  session: { type: 'string' },
  'prune-obsolete': { type: 'boolean' },
  ...LIMIT_OPTIONS,
  ...JOBS_OPTION,
} as const;

const HELP = `Usage: ${PROGRAM} update FILE|DIR|GLOB… [options]

A pattern starting with ! excludes what it matches ('transcripts/**' '!transcripts/swe/**');
quote globs so the shell leaves them to the tool (docs/globs.md).

Stabilizes each transcript and writes its golden snapshot
<golden-dir>/<transcript path>.golden.json when it is missing or differs, then prints what it
changed. Each session of a multi-session aider chat history is a transcript of its own, FILE#N,
with the golden <transcript path>#N.golden.json. Each golden is replaced atomically (temp file, fsync, rename): a killed update leaves
every golden either old or new, never partial; the temp files it leaves are removed by the
next update. Goldens are never written through symbolic links, and nothing is written or
deleted outside the working directory: a golden folder that is (or lies below) a link to
elsewhere is refused (exit 2). One run writes a golden folder at a time: an update (or a
check outside CI) holds <golden-dir>/.context-stability.lock while it runs; another waits up to
10 s, then writes nothing and exits 2. Review the diff and commit.

Options:
  --policy FILE           policy to apply (default .github/context-policy.yml when present,
                          else the built-in default)
  --golden-dir DIR        folder of the goldens, inside the working directory
                          (default ${DEFAULT_GOLDEN_DIR})
  --prune-obsolete        delete goldens that no transcript among the inputs claims (run over
                          all transcripts: a golden of a transcript left out is obsolete too)
${SESSIONS_HELP}
${LIMIT_HELP}
${JOBS_HELP}
  -h, --help              show this help

update writes even when the CI variable is set: it is the explicit request to change goldens.
Transcripts with violations still get their golden written; the violations are listed.
A golden whose stabilized context still holds PII a built-in detector finds is never
written: it is listed as refused (counted as "refused (PII)", not "unchanged") with the
golden-pii violation, and the run exits 1.
Exit codes: 0 done, 1 some transcript has violations (severity error) or a refused golden,
2 bad usage, an invalid policy, or a transcript or golden that could not be read or written
(the others are still updated).

Examples:
  ${PROGRAM} update 'transcripts/**/*.jsonl'
  ${PROGRAM} update --prune-obsolete transcripts
`;

const VERBS: Record<WriteReason, string> = {
  new: 'wrote  ',
  drift: 'updated',
  unreadable: 'rewrote',
  metadata: 'updated',
  format: 'rewrote',
};

function writeLine(write: GoldenWrite, outcome: TranscriptOutcome | undefined): string[] {
  switch (write.reason) {
    case 'new':
      return [`${VERBS.new} ${write.golden} (new)`];
    case 'unreadable':
      return [`${VERBS.unreadable} ${write.golden} (the old golden could not be read)`];
    case 'format':
      return [`${VERBS.format} ${write.golden} (same content, stable layout restored)`];
    case 'metadata':
      return [
        `${VERBS.metadata} ${write.golden} (${outcome?.notes?.[0] ?? 'metadata only; this context is unchanged'})`,
      ];
    case 'drift':
      return [
        `${VERBS.drift} ${write.golden} (drift)`,
        ...(outcome?.diff ? describeDiff(outcome.diff).map((line) => `  ${line}`) : []),
      ];
  }
}

function plural(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  const inputs = requireGlobs('update', positionals);
  const goldenDir = goldenDirOption(values['golden-dir'], io.cwd);
  const limits = parseLimits(values);
  const jobs = jobsOption(values.jobs);
  const session = parseSession(values.session);
  const store = { cwd: io.cwd, goldenDir };

  // Before the policy loads the tokenizer: the young generation keeps its first size (heap.ts).
  boundHeapGrowth();
  const head = await loadHeadPolicy(values.policy, io.cwd, piiKeyFrom(io.env));
  printDiagnostics(io, head.diagnostics);
  if (!head.ok) return EXIT_INPUT;

  // A golden folder that resolves outside the repository (a link) is refused before anything runs.
  const root = await checkGoldenRoot(store);
  if (!root.ok) {
    printDiagnostics(io, [root.diagnostic]);
    return EXIT_INPUT;
  }

  // One update (or writing check) per golden folder at a time: the temp-file cleanup, the writes
  // and the pruning of one run must not interleave with another's (a mixed golden set).
  return withGoldenLock(store, 'update', io, async () => {
    const cleaned = await cleanStaleTempFiles(store);
    const { report, writes, refused } = await runGoldens({
      mode: 'update',
      inputs,
      cwd: io.cwd,
      goldenDir,
      ci: false,
      shard: null,
      head: head.setup,
      base: null,
      limits,
      ...(session !== undefined ? { session } : {}),
      ...jobs,
    });
    const diagnostics = report.transcripts.flatMap((t) => t.diagnostics ?? []);
    printDiagnostics(io, diagnostics);

    const lines: string[] = [];
    if (cleaned.length > 0)
      lines.push(`removed ${plural(cleaned.length, 'stale temp file')} left by an interrupted update`);
    const byTranscript = new Map(report.transcripts.map((t) => [t.transcript, t]));
    for (const write of writes) lines.push(...writeLine(write, byTranscript.get(write.transcript)));
    for (const r of refused)
      lines.push(`refused ${r.golden} (unmasked PII in the stabilized context: not written; see below)`);

    let pruneFailed = false;
    const obsolete = report.obsolete ?? [];
    let removed = 0;
    for (const golden of obsolete) {
      if (!values['prune-obsolete']) {
        lines.push(`obsolete ${golden} (kept; --prune-obsolete removes it)`);
        continue;
      }
      const result = await removeGoldenFile(golden, store);
      if (result.ok) {
        removed++;
        lines.push(`removed ${golden} (obsolete)`);
      } else {
        pruneFailed = true;
        printDiagnostics(io, [result.diagnostic]);
      }
    }

    const failing = report.transcripts.filter((t) => t.violations.some((v) => v.severity === 'error'));
    for (const t of failing) {
      for (const v of t.violations)
        lines.push(`${t.transcript}:${v.line}: ${v.severity}[${v.check}] ${v.id}: ${v.message}`);
    }
    const errors = report.transcripts.filter((t) => t.outcome === 'error').length;
    // A refused golden was neither written nor left as it was on purpose: it is not "unchanged".
    const unchanged = report.transcripts.length - writes.length - refused.length - errors;
    lines.push(
      `update: ${plural(report.transcripts.length, 'transcript')}: ${writes.filter((w) => w.reason === 'new').length} new, ` +
        `${writes.filter((w) => w.reason !== 'new').length} updated, ${unchanged} unchanged, ` +
        `${refused.length} refused (PII), ${plural(removed, 'obsolete golden')} removed, ${plural(errors, 'error')}`,
    );
    const code =
      errors > 0 || pruneFailed || hasErrors(diagnostics)
        ? EXIT_INPUT
        : failing.length > 0
          ? EXIT_FINDINGS
          : EXIT_OK;
    // Golden paths, ids and messages are shown escaped, one line each (then styled on a terminal);
    // under GitHub Actions the whole list goes out in a stop-commands block.
    const out = guardOutput(io, 'text');
    const text = `${lines.map(shownName).join('\n')}\n`;
    out.io.stdout(styleUpdateText(text, styleFor(io, 'stdout'), code === EXIT_OK));
    out.close();
    return code;
  });
}

export const updateCommand: Command = {
  path: ['update'],
  summary: 'write the golden snapshots of transcripts (atomically); prune obsolete ones on request',
  help: HELP,
  run,
};
