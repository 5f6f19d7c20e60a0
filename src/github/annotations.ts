// Annotations of a check report at the transcript file, line and column of each finding. GitHub
// shows at most 10 errors, 10 warnings and 10 notices per step and drops the rest silently, so the
// most important ones are chosen here, in the one finding order (severity-order.ts: leaks, task,
// recency, nonempty, provider, budget, protected, …, drift last), and the job summary says how
// many more there are. A drift reported as a warning (`checks.drift: warning`) is a warning. Emitted through
// @actions/core's own command functions, which escape every property and message: an artifact id
// such as `::set-output name=x::y` stays data.
import { splitSessionName } from '../core/text/session-name.js';
import * as core from '@actions/core';
import type { CheckReport, ReportViolation, TranscriptOutcome } from '../core/golden/check-report.js';
import { describeDrift } from '../core/golden/describe-outcome.js';
import { compareAnnotationRank, driftSeverity } from '../core/golden/report-order.js';
import type { Diagnostic } from '../core/types.js';

export type AnnotationLevel = 'error' | 'warning' | 'notice';

export const ANNOTATION_LEVELS: readonly AnnotationLevel[] = ['error', 'warning', 'notice'];

/** GitHub's per-step display limit for each level. */
export const ANNOTATION_LIMIT = 10;

export type AnnotationCounts = Record<AnnotationLevel, number>;

export interface Annotation {
  level: AnnotationLevel;
  /** What found it: a validate check (`pii`, `budget`…), `input`, `drift`, `new` or `obsolete`. */
  check: string;
  file: string;
  line?: number;
  col?: number;
  title: string;
  message: string;
}

function title(check: string, subject?: string): string {
  return `context-stability ${check}${subject ? `: ${subject}` : ''}`;
}

/** A diagnostic (unreadable input, a policy problem) at its own file, line and column. */
export function diagnosticAnnotation(d: Diagnostic): Annotation {
  return {
    level: d.severity,
    check: 'input',
    file: d.file,
    line: d.line,
    col: d.column,
    title: title('input', d.code),
    message: `${d.message}${d.hint ? ` ${d.hint}` : ''}`,
  };
}

function fromViolation(o: TranscriptOutcome, v: ReportViolation): Annotation {
  return {
    level: v.severity === 'error' ? 'error' : 'warning',
    check: v.check,
    file: o.transcript,
    line: v.line,
    ...(v.column !== undefined ? { col: v.column } : {}),
    title: title(v.check, v.id),
    message: v.message,
  };
}

/** One annotation per drifted transcript, at its first changed artifact (describeDrift). */
function driftAnnotation(o: TranscriptOutcome, policySource: string): Annotation {
  const d = describeDrift(o, policySource);
  return {
    level: driftSeverity(o),
    check: 'drift',
    file: o.transcript,
    line: d.line,
    title: title('drift', d.id),
    message: d.message,
  };
}

function newGolden(o: TranscriptOutcome, ci: boolean): Annotation {
  const message = o.written
    ? `Wrote the new golden ${o.golden}; review and commit it.`
    : ci
      ? `No golden at ${o.golden}; in CI nothing is written. Run \`context-stability update\` locally and commit the golden.`
      : `No golden at ${o.golden} yet. Run \`context-stability update\` and commit the golden.`;
  return {
    level: 'notice',
    check: 'new',
    file: o.transcript,
    title: title('new', 'missing golden'),
    message,
  };
}

function outcomeAnnotations(o: TranscriptOutcome, ci: boolean, policySource: string): Annotation[] {
  const out = (o.diagnostics ?? []).map(diagnosticAnnotation);
  if (o.outcome === 'error' && !out.some((a) => a.level === 'error')) {
    out.push({
      level: 'error',
      check: 'input',
      file: o.transcript,
      title: title('input'),
      message: 'The transcript could not be checked; run `context-stability check` on it for details.',
    });
  }
  for (const v of o.violations) out.push(fromViolation(o, v));
  if (o.outcome === 'drift') out.push(driftAnnotation(o, policySource));
  if (o.outcome === 'new') out.push(newGolden(o, ci));
  return out;
}

function obsoleteGolden(golden: string): Annotation {
  return {
    level: 'warning',
    check: 'obsolete',
    file: golden,
    title: title('obsolete', 'golden without transcript'),
    message: 'No checked transcript has this golden; `context-stability update --prune-obsolete` removes it.',
  };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Level, then check (in the finding order of severity-order.ts; unknown checks by name), then
 * file, then line.
 */
export function compareAnnotations(a: Annotation, b: Annotation): number {
  return (
    compareAnnotationRank(a, b) ||
    compareText(a.check, b.check) ||
    compareText(a.file, b.file) ||
    (a.line ?? 0) - (b.line ?? 0) ||
    compareText(a.title, b.title)
  );
}

/**
 * Every annotation of the report, most important first: errors (unreadable input, violations at
 * severity error, drift), warnings (violations at severity warning, drift reported as a warning,
 * obsolete goldens), notices (new goldens); within a level in the finding order.
 */
export function collectAnnotations(report: CheckReport): Annotation[] {
  const all = report.transcripts.flatMap((o) => outcomeAnnotations(o, report.ci, report.policy.source));
  for (const golden of report.obsolete ?? []) all.push(obsoleteGolden(golden));
  return all.sort(compareAnnotations);
}

export interface AnnotationSelection {
  shown: Annotation[];
  /** Per level, how many were left out. */
  hidden: AnnotationCounts;
}

/**
 * The first `limits[level]` annotations of each level (default ANNOTATION_LIMIT). A caller that
 * emits annotations of its own (core.setFailed is an error, a permission notice is a notice)
 * lowers the limit of that level so that GitHub drops none of them.
 */
export function selectAnnotations(
  annotations: readonly Annotation[],
  limits: Partial<AnnotationCounts> = {},
): AnnotationSelection {
  const shown: Annotation[] = [];
  const hidden: AnnotationCounts = { error: 0, warning: 0, notice: 0 };
  const taken: AnnotationCounts = { error: 0, warning: 0, notice: 0 };
  for (const a of [...annotations].sort(compareAnnotations)) {
    const limit = Math.max(0, limits[a.level] ?? ANNOTATION_LIMIT);
    if (taken[a.level] < limit) {
      taken[a.level]++;
      shown.push(a);
    } else {
      hidden[a.level]++;
    }
  }
  return { shown, hidden };
}

/** Where annotations go: @actions/core in the action, a recorder in tests. */
export type AnnotationSink = Pick<typeof core, 'error' | 'warning' | 'notice'>;

export function emitAnnotations(annotations: readonly Annotation[], sink: AnnotationSink = core): void {
  for (const a of annotations) {
    // GitHub attaches an annotation to a file of the repository: a session `FILE#N` names FILE.
    const { file, prefix } = splitSessionName(a.file);
    sink[a.level](a.message, {
      title: `${prefix}${a.title}`,
      file,
      ...(a.line !== undefined && a.line > 0 ? { startLine: a.line } : {}),
      ...(a.col !== undefined && a.col > 0 ? { startColumn: a.col } : {}),
    });
  }
}
