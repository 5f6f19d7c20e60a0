// How `check` and `merge` hand their report out: rendered on stdout in the chosen format, and as
// the machine report (`--report FILE`, stable JSON) written atomically.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic, formatDiagnostic } from '../../core/diagnostics.js';
import { exitCodeFor } from '../../core/golden/check-report.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import { renderGithub, renderText } from '../../core/golden/render.js';
import { renderMarkdownReport } from '../../github/summary.js';
import { stableStringify } from '../../core/golden/stable-json.js';
import type { Diagnostic } from '../../core/types.js';
import { writeFileAtomic } from '../../io/atomic-write.js';
import { refusedCliOutput } from '../../io/output-path.js';
import { EXIT_OK } from '../command.js';
import type { CliIO } from '../command.js';
import { styleCheckText, styleFor } from '../style.js';
import type { OutputFormat } from './options.js';

export interface ReportOutputOptions {
  /** Text format: list clean passes too (`--verbose`). */
  verbose?: boolean;
}

export function renderReport(
  report: CheckReport,
  format: OutputFormat,
  opts: ReportOutputOptions = {},
): string {
  switch (format) {
    case 'json':
      return stableStringify(report);
    case 'markdown':
      return renderMarkdownReport(report);
    case 'github':
      return renderGithub(report);
    case 'text':
      return renderText(report, opts);
  }
}

export function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
}

/**
 * Prints the report; the per-transcript diagnostics also go to stderr when the chosen format
 * does not show them itself (JSON and markdown are read by machines and pull-request comments).
 */
export function printReport(
  io: CliIO,
  report: CheckReport,
  format: OutputFormat,
  opts: ReportOutputOptions = {},
): void {
  if (format === 'json' || format === 'markdown') {
    printDiagnostics(
      io,
      report.transcripts.flatMap((t) => t.diagnostics ?? []),
    );
  }
  const text = renderReport(report, format, opts);
  // Only the text report is for a terminal: JSON, markdown and annotations are never styled.
  if (format === 'text')
    io.stdout(styleCheckText(text, styleFor(io, 'stdout'), exitCodeFor(report) === EXIT_OK));
  else io.stdout(text);
}

/**
 * `--report FILE` of `check` and `merge`: written as writeReportFile does, but never through a
 * symbolic link that leads out of the working directory when FILE is written inside it.
 */
export async function writeCliReport(
  file: string,
  report: CheckReport,
  cwd: string,
): Promise<Diagnostic | null> {
  return (await refusedCliOutput('--report', file, cwd)) ?? writeReportFile(file, report, cwd);
}

/** Writes the machine report; a failure is a diagnostic (exit 2), the run's results are still printed. */
export async function writeReportFile(
  file: string,
  report: CheckReport,
  cwd: string,
): Promise<Diagnostic | null> {
  const target = path.resolve(cwd, file);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, stableStringify(report));
    return null;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    return diagnostic(
      'error',
      'report-write-failed',
      { file, line: 1, column: 1 },
      `The report could not be written (${errno}).`,
      'Check that the folder of --report exists or can be created and is writable.',
    );
  }
}
