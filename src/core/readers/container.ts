// JSON or JSONL? Parses the text once into a Container that detection and the readers share.
//
// JSONL when the extension is .jsonl/.ndjson, or when the text is not one JSON value but several
// values on separate lines (its first line parses on its own). In JSONL every line is parsed on
// its own: a line that is too large or not JSON becomes an error diagnostic of the container and
// is skipped, so one bad line never hides the rest of a session.
//
// A file with more records than `maxRecords` (JSONL lines, or elements of one JSON array) is not
// read at all: memory grows with the record count, and part of a session is not the session.
import { parseJson, type JsonPos } from '../json/parse.js';
import {
  checkRecordSize,
  CONTAINERS_PER_RECORD,
  DEFAULT_MAX_RECORDS,
  MAX_RECORD_CHARS,
  splitJsonl,
  tooManyRecords,
  type JsonlRecord,
} from '../text/jsonl.js';
import type { Diagnostic } from '../types.js';
import type { Container, ParsedLine, ParsedValue } from './reader-types.js';

export type ContainerResult = { ok: true; container: Container } | { ok: false; diagnostics: Diagnostic[] };

const JSONL_EXTENSIONS = ['jsonl', 'ndjson'];

export function extensionOf(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

export interface ContainerLimits {
  /** Maximum JSON nesting (see parseJson). */
  maxDepth?: number | undefined;
  /**
   * Records per file: JSONL lines, or elements of any one JSON array (members of any one object).
   * Default DEFAULT_MAX_RECORDS.
   */
  maxRecords?: number | undefined;
}

function parseLines(records: JsonlRecord[], file: string, limits: ContainerLimits): ContainerResult {
  const lines: ParsedLine[] = [];
  const diagnostics: Diagnostic[] = [];
  // One map for every record: a map per record cost more memory than many records themselves.
  const positions = new Map<object, JsonPos>();
  const { maxDepth, maxRecords } = limits;
  const maxContainers = containerCap(maxRecords);
  for (const rec of records) {
    const tooLarge = checkRecordSize(rec, file);
    if (tooLarge) {
      diagnostics.push(tooLarge);
      continue;
    }
    const parsed = parseJson(rec.text, {
      file,
      maxDepth,
      firstLine: rec.line,
      positions,
      maxArrayLength: maxRecords,
      maxContainers,
    });
    if (parsed.ok) lines.push({ line: rec.line, value: parsed.value, positions: parsed.positions });
    // The file's cap on objects and arrays is spent: every later record would fail the same way.
    else if (positions.size >= maxContainers)
      return { ok: false, diagnostics: [...diagnostics, parsed.error] };
    else diagnostics.push(parsed.error);
  }
  return { ok: true, container: { kind: 'jsonl', lines, diagnostics } };
}

function containerCap(maxRecords: number | undefined): number {
  return (maxRecords ?? DEFAULT_MAX_RECORDS) * CONTAINERS_PER_RECORD;
}

/** The records of a JSONL text, or the cap's error at the first record over it. */
function splitCapped(text: string, file: string, max: number): ContainerResult | JsonlRecord[] {
  const records = splitJsonl(text, max + 1);
  const over = records[max];
  if (!over) return records;
  return { ok: false, diagnostics: [tooManyRecords({ file, line: over.line, column: 1 }, max, 'lines')] };
}

export function parseContainer(text: string, file: string, limits: ContainerLimits = {}): ContainerResult {
  const maxRecords = limits.maxRecords ?? DEFAULT_MAX_RECORDS;
  const capped = { maxDepth: limits.maxDepth, maxRecords };
  if (JSONL_EXTENSIONS.includes(extensionOf(file))) {
    const records = splitCapped(text, file, maxRecords);
    return Array.isArray(records) ? parseLines(records, file, capped) : records;
  }
  const whole = parseJson(text, {
    file,
    maxDepth: limits.maxDepth,
    maxArrayLength: maxRecords,
    maxContainers: containerCap(maxRecords),
  });
  if (whole.ok) {
    const doc: ParsedValue = { value: whole.value, positions: whole.positions };
    return { ok: true, container: { kind: 'json', doc, oneLine: !text.trim().includes('\n') } };
  }
  // Not one JSON value: perhaps JSONL without the extension. Two records decide that; the cap
  // then applies as to any JSONL file.
  const head = splitJsonl(text, 2);
  const first = head[0];
  if (head.length >= 2 && first && first.text.length <= MAX_RECORD_CHARS) {
    const parsedHead = parseJson(first.text, {
      file,
      maxDepth: limits.maxDepth,
      firstLine: first.line,
      maxArrayLength: maxRecords,
    });
    if (parsedHead.ok && typeof parsedHead.value === 'object' && parsedHead.value !== null) {
      const records = splitCapped(text, file, maxRecords);
      return Array.isArray(records) ? parseLines(records, file, capped) : records;
    }
  }
  return { ok: false, diagnostics: [whole.error] };
}

/** A JSON document on a single line is also a one-record JSONL file (a session just started). */
export function asJsonl(container: Container): Extract<Container, { kind: 'jsonl' }> | null {
  if (container.kind === 'jsonl') return container;
  if (!container.oneLine) return null;
  const { value, positions } = container.doc;
  const pos = typeof value === 'object' && value !== null ? positions.get(value) : undefined;
  return { kind: 'jsonl', lines: [{ line: pos?.line ?? 1, value, positions }], diagnostics: [] };
}
