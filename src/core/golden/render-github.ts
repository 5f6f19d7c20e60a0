// GitHub Actions workflow commands (`--format github`): one annotation per violation and per
// drifted artifact, at the transcript line and column that caused it. GitHub shows only the first
// 10 of each level, so they are written most important first: by level, then by the finding order
// (a leak or a task violation before drift), then in the listing order of the transcripts
// (displayOrder). A drift at severity warning is a warning. Every property and message is escaped
// the way the runner unescapes them, so a name with `::`, `,` or a newline cannot end the command
// early or inject another one.
import { splitSessionName } from '../text/session-name.js';
import type { CheckReport, TranscriptOutcome } from './check-report.js';
import { describeSummary } from './describe.js';
import { describeDrift } from './describe-outcome.js';
import { compareAnnotationRank, displayOrder, driftSeverity } from './report-order.js';
import { pushAll } from '../collections.js';

type Level = 'error' | 'warning' | 'notice';

interface Annotation {
  level: Level;
  /** What found it: a validate check, `input`, `drift`, `new` or `obsolete` (orders the output). */
  check: string;
  file: string;
  line?: number;
  col?: number;
  title: string;
  message: string;
}

/** Escaping of a command's message (the runner's `escapeData`). */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escaping of a command property value (the runner's `escapeProperty`). */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(a: Annotation): string {
  // GitHub attaches an annotation to a file of the repository: a session `FILE#N` names FILE.
  const { file, prefix } = splitSessionName(a.file);
  const props = [`file=${escapeProperty(file)}`];
  if (a.line !== undefined && a.line > 0) props.push(`line=${a.line}`);
  if (a.col !== undefined && a.col > 0) props.push(`col=${a.col}`);
  props.push(`title=${escapeProperty(`${prefix}${a.title}`)}`);
  return `::${a.level} ${props.join(',')}::${escapeData(a.message)}`;
}

/** One annotation per drifted transcript, at its first changed artifact (describeDrift). */
function driftAnnotations(o: TranscriptOutcome, policySource: string): Annotation[] {
  const d = describeDrift(o, policySource);
  return [
    {
      level: driftSeverity(o),
      check: 'drift',
      file: o.transcript,
      line: d.line,
      title: d.id ? `Golden drift: ${d.id}` : 'Golden drift',
      message: d.message,
    },
  ];
}

function annotationsFor(o: TranscriptOutcome, ci: boolean, policySource: string): Annotation[] {
  const out: Annotation[] = (o.diagnostics ?? []).map((d) => ({
    level: d.severity,
    check: 'input',
    file: d.file,
    line: d.line,
    col: d.column,
    title: `context-stability: ${d.code}`,
    message: `${d.message}${d.hint ? ` ${d.hint}` : ''}`,
  }));
  if (o.outcome === 'error' && out.length === 0) {
    out.push({
      level: 'error',
      check: 'input',
      file: o.transcript,
      title: 'context-stability',
      message: 'The transcript could not be checked.',
    });
  }
  for (const v of o.violations) {
    out.push({
      level: v.severity === 'error' ? 'error' : 'warning',
      check: v.check,
      file: o.transcript,
      line: v.line,
      ...(v.column !== undefined ? { col: v.column } : {}),
      title: `context-stability ${v.check}: ${v.id}`,
      message: v.message,
    });
  }
  if (o.outcome === 'drift') pushAll(out, driftAnnotations(o, policySource));
  if (o.outcome === 'new') {
    out.push(
      ci
        ? {
            level: 'error',
            check: 'new',
            file: o.transcript,
            title: 'Missing golden',
            message: `No golden at ${o.golden}; in CI nothing is written. Run \`context-stability update\` locally and commit the golden.`,
          }
        : { level: 'notice', check: 'new', file: o.transcript, title: 'New golden', message: `Wrote ${o.golden}.` },
    );
  }
  return out;
}

export function renderGithub(report: CheckReport): string {
  const annotations = displayOrder(report).transcripts.flatMap((o) => annotationsFor(o, report.ci, report.policy.source));
  for (const g of report.obsolete ?? []) {
    annotations.push({
      level: 'warning',
      check: 'obsolete',
      file: g,
      title: 'Obsolete golden',
      message: 'No checked transcript has this golden; `context-stability update --prune-obsolete` removes it.',
    });
  }
  // Stable: the listing order holds within a level and check.
  const lines = annotations.sort(compareAnnotationRank).map(command);
  lines.push(describeSummary(report));
  return `${lines.join('\n')}\n`;
}
