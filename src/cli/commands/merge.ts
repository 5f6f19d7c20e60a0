// `merge REPORTS…`: combines the reports of a sharded check into the report one unsharded run
// would have written, and is where a sharded run learns which goldens are obsolete.
import { exitCodeFor, mergeReports } from '../../core/golden/check-report.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import type { Diagnostic } from '../../core/types.js';
import { PROGRAM, UsageError, parseOptions } from '../args.js';
import { EXIT_INPUT } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { OUTPUT_FORMATS, VERBOSE_HELP, VERBOSE_OPTION, formatOption } from '../check/options.js';
import { printDiagnostics, printReport, writeCliReport } from '../check/output.js';
import { readCheckReport } from '../check/read-report.js';
import { shownName } from '../../core/text/shown-name.js';
import { guardOutput } from '../workflow-output.js';

const OPTIONS = {
  report: { type: 'string' },
  format: { type: 'string' },
  ...VERBOSE_OPTION,
} as const;

const HELP = `Usage: ${PROGRAM} merge REPORT… [options]

Combines the --report files of every shard of one sharded 'check' run into one report: the
same report, byte for byte, that an unsharded run over the same transcripts writes. Only the
merged report lists obsolete goldens. Refuses reports of different runs (other policy,
tokenizer, golden folder, tool version or shard count), a shard given twice, and a missing
shard. Report files may come from other jobs (a fork's artifact): each is held to the report
contract first, and a file that breaks it is one error at the bad value (exit 2).

Options:
  --report FILE           write the merged machine report (JSON) to FILE
  --format FORMAT         stdout format: ${OUTPUT_FORMATS.join(', ')} (default text)
${VERBOSE_HELP}
  -h, --help              show this help

Exit codes: as 'check' over the merged result (0 all pass, 1 drift, violations or a missing
golden in CI, 2 a transcript could not be checked); 2 also when a report cannot be read or
the reports cannot be merged.

Examples:
  ${PROGRAM} merge shard-1.json shard-2.json shard-3.json --report report.json
  ${PROGRAM} merge reports/*.json --format markdown >> "$GITHUB_STEP_SUMMARY"
`;

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  if (positionals.length === 0) throw new UsageError('merge needs the REPORT files of every shard.');
  const format = formatOption(values.format);

  // Every file is read and held to the report contract, so one run names every bad file; a merge
  // without one of them would list the wrong goldens as obsolete, so nothing is merged then.
  const reports: CheckReport[] = [];
  const problems: Diagnostic[] = [];
  for (const file of positionals) {
    const read = await readCheckReport(file, io.cwd);
    if (read.ok) reports.push(read.report);
    else problems.push(read.diagnostic);
  }
  if (problems.length > 0) {
    printDiagnostics(io, problems);
    return EXIT_INPUT;
  }
  const merged = mergeReports(reports);
  if (!merged.ok) {
    io.stderr(`${PROGRAM} merge: the reports cannot be merged: ${shownName(merged.reason)}.\n`);
    return EXIT_INPUT;
  }

  // As `check` prints its report: under GitHub Actions the report goes out in a stop-commands
  // block (our annotations outside it), JSON is inert everywhere.
  const kind =
    format === 'json' || format === 'markdown' ? format : format === 'github' ? 'annotations' : 'text';
  const out = guardOutput(io, kind);
  try {
    printReport(out.io, merged.report, format, { verbose: values.verbose === true });
  } finally {
    out.close();
  }
  let code: number = exitCodeFor(merged.report);
  if (values.report !== undefined) {
    const failure = await writeCliReport(values.report, merged.report, io.cwd);
    if (failure) {
      printDiagnostics(io, [failure]);
      code = EXIT_INPUT;
    }
  }
  return code;
}

export const mergeCommand: Command = {
  path: ['merge'],
  summary: 'combine the --report files of a sharded check into one report (lists obsolete goldens)',
  help: HELP,
  run,
};
