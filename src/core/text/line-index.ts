/**
 * Maps UTF-16 offsets in a text to 1-based `{line, column}` (column in UTF-16 code units, as
 * editors and GitHub annotations count). Only LF breaks a line, so CRLF counts as one break and
 * its CR sits at the end of the line it closes; a lone CR is not a break (decodeInput rejects it).
 */
export class LineIndex {
  /** Offset of the first character of each line; lineStarts[0] is always 0. */
  private readonly lineStarts: number[];
  private readonly length: number;

  constructor(text: string) {
    const starts = [0];
    let i = text.indexOf('\n');
    while (i !== -1) {
      starts.push(i + 1);
      i = text.indexOf('\n', i + 1);
    }
    this.lineStarts = starts;
    this.length = text.length;
  }

  /** Number of lines (a text ending in LF has an empty last line). */
  get lineCount(): number {
    return this.lineStarts.length;
  }

  /** Offsets outside the text are clamped to its start or end. */
  position(offset: number): { line: number; column: number } {
    const at = Math.max(0, Math.min(offset, this.length));
    const starts = this.lineStarts;
    // Binary search for the last line start <= at.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if ((starts[mid] as number) <= at) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: at - (starts[lo] as number) + 1 };
  }
}
