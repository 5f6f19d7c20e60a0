// Where a reader is in its input: turns parsed nodes into source positions and collects
// diagnostics. One context per JSON document (or per JSONL line, sharing the diagnostics list).
import { diagnostic } from '../diagnostics.js';
import type { JsonPos } from '../json/parse.js';
import type { Diagnostic, Severity, SourcePos } from '../types.js';

export class ReadContext {
  constructor(
    readonly file: string,
    private readonly positions: Map<object, JsonPos>,
    readonly diagnostics: Diagnostic[],
    /** Where scalars with no better anchor are reported: 1:1 of a file, or a JSONL record's line. */
    private readonly origin: { line: number; column: number } = { line: 1, column: 1 },
  ) {}

  /**
   * The position of `node` when it is an object or array; scalars have no recorded position, so
   * the nearest enclosing node the caller knows (`near`) stands in for them.
   */
  pos(node: unknown, near?: SourcePos): SourcePos {
    if (typeof node === 'object' && node !== null) {
      const p = this.positions.get(node);
      if (p) return { file: this.file, line: p.line, column: p.column };
    }
    return near ?? { file: this.file, line: this.origin.line, column: this.origin.column };
  }

  report(severity: Severity, code: string, at: SourcePos, message: string, hint: string): void {
    this.diagnostics.push(diagnostic(severity, code, at, message, hint));
  }

  error(code: string, at: SourcePos, message: string, hint: string): void {
    this.report('error', code, at, message, hint);
  }

  warning(code: string, at: SourcePos, message: string, hint: string): void {
    this.report('warning', code, at, message, hint);
  }
}
