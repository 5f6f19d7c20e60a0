import type { Diagnostic } from '../types.js';
import { diagnostic } from '../diagnostics.js';

/** One non-blank JSONL line: its 1-based line number and its text without the line end. */
export interface JsonlRecord {
  line: number;
  text: string;
}

/** Readers report records longer than this (in UTF-16 code units) as `record-too-large`. */
export const MAX_RECORD_CHARS = 1_048_576;

/**
 * Splits JSONL text into records. Accepts LF and CRLF line ends; skips blank and whitespace-only
 * lines. A record's text keeps its leading whitespace so columns inside it match the file.
 */
export function splitJsonl(text: string): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  const len = text.length;
  let start = 0;
  let line = 1;
  while (start <= len) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = len;
    const stop = end > start && text.charCodeAt(end - 1) === 0x0d ? end - 1 : end;
    if (!isBlank(text, start, stop)) records.push({ line, text: text.slice(start, stop) });
    start = end + 1;
    line++;
  }
  return records;
}

function isBlank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

/** The `record-too-large` diagnostic for a record over MAX_RECORD_CHARS, else null. */
export function checkRecordSize(rec: JsonlRecord, file: string): Diagnostic | null {
  if (rec.text.length <= MAX_RECORD_CHARS) return null;
  return diagnostic(
    'error',
    'record-too-large',
    { file, line: rec.line, column: 1 },
    `The record on this line has ${rec.text.length} characters, more than the limit of ${MAX_RECORD_CHARS} (1 MiB).`,
    'Split the record or shorten its content (for example truncate large tool outputs before recording them).',
  );
}
