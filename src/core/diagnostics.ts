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

/** `file:line:column: error[code]: message (hint)`, the shape editors and problem matchers read. */
export function formatDiagnostic(d: Diagnostic): string {
  return `${d.file}:${d.line}:${d.column}: ${d.severity}[${d.code}]: ${d.message}${d.hint ? ` Hint: ${d.hint}` : ''}`;
}

export function hasErrors(diagnostics: readonly Diagnostic[]): boolean {
  return diagnostics.some((d) => d.severity === 'error');
}
