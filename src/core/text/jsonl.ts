import type { Diagnostic } from '../types.js';
import { diagnostic } from '../diagnostics.js';

/** One non-blank JSONL line: its 1-based line number and its text without the line end. */
export interface JsonlRecord {
  line: number;
  text: string;
}

/** Readers report records longer than this (in UTF-16 code units) as `record-too-large`. */
export const MAX_RECORD_CHARS = 1_048_576;

/** The default cap on records in one transcript (JSONL lines, or elements of one JSON array). */
export const DEFAULT_MAX_RECORDS = 50_000;

/**
 * JSON objects and arrays allowed per record of the cap, over the whole file. A message with tool
 * calls or content parts holds a few; a Claude Code record about ten. Past this, a file is mostly
 * tiny objects, whose memory the record cap alone does not bound.
 */
export const CONTAINERS_PER_RECORD = 16;

/**
 * Splits JSONL text into records. Accepts LF and CRLF line ends; skips blank and whitespace-only
 * lines. A record's text keeps its leading whitespace so columns inside it match the file. Stops
 * after `limit` records (the caller reports the cap at the last one's line).
 */
export function splitJsonl(text: string, limit = Infinity): JsonlRecord[] {
  const records: JsonlRecord[] = [];
  const len = text.length;
  let start = 0;
  let line = 1;
  while (start <= len && records.length < limit) {
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

/**
 * The `too-many-records` diagnostic, at the first record over the cap: a line of a JSONL file, or
 * an element of a JSON array. Memory grows with the number of records more than with their size,
 * so the count has its own cap beside the file size cap.
 */
export function tooManyRecords(
  at: { file: string; line: number; column: number },
  max: number,
  unit: 'lines' | 'elements' | 'containers',
): Diagnostic {
  const what =
    unit === 'lines'
      ? `The file holds more than ${max} records (non-blank lines); this line is the first one over the limit.`
      : unit === 'elements'
        ? `This array holds more than ${max} elements; this element is the first one over the limit.`
        : `The file holds more than ${max} JSON objects and arrays (${CONTAINERS_PER_RECORD} per record of the record cap); ` +
          'this one is the first over the limit.';
  return diagnostic(
    'error',
    'too-many-records',
    at,
    `${what} The transcript is not read: part of it would be a context the agent never had.`,
    'Raise the limit with --max-records (the Action input max-records), or split the transcript into smaller files.',
  );
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
