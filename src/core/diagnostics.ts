import { shownName } from './text/shown-name.js';
import type { Diagnostic, Severity } from './types.js';

/** Thrown (or returned) when an input cannot be used at all; carries every diagnostic found. */
export class InputError extends Error {
  readonly diagnostics: Diagnostic[];
  constructor(diagnostics: Diagnostic[]) {
    super(diagnostics.map(formatDiagnostic).join('\n'));
    this.name = 'InputError';
    this.diagnostics = diagnostics;
  }
}

export function diagnostic(
  severity: Severity,
  code: string,
  at: { file: string; line: number; column: number },
  message: string,
  hint: string,
): Diagnostic {
  return { severity, code, file: at.file, line: at.line, column: at.column, message, hint };
}

/**
 * `file:line:column: error[code]: message (hint)`, the shape editors and problem matchers read.
 * One line whatever the file name or a quoted id holds (shownName).
 */
export function formatDiagnostic(d: Diagnostic): string {
  const hint = d.hint ? ` Hint: ${shownName(d.hint)}` : '';
  return `${shownName(d.file)}:${d.line}:${d.column}: ${d.severity}[${shownName(d.code)}]: ${shownName(d.message)}${hint}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
