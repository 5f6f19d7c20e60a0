// JSON or JSONL? Parses the text once into a Container that detection and the readers share.
//
// JSONL when the extension is .jsonl/.ndjson, or when the text is not one JSON value but several
// values on separate lines (its first line parses on its own). In JSONL every line is parsed on
// its own: a line that is too large or not JSON becomes an error diagnostic of the container and
// is skipped, so one bad line never hides the rest of a session.
import { parseJson } from '../json/parse.js';
import { checkRecordSize, MAX_RECORD_CHARS, splitJsonl, type JsonlRecord } from '../text/jsonl.js';
import type { Diagnostic } from '../types.js';
import type { Container, ParsedLine, ParsedValue } from './reader-types.js';

export type ContainerResult = { ok: true; container: Container } | { ok: false; diagnostics: Diagnostic[] };

const JSONL_EXTENSIONS = ['jsonl', 'ndjson'];

export function extensionOf(file: string): string {
  const name = file.slice(Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\')) + 1);
  const dot = name.lastIndexOf('.');
  return dot <= 0 ? '' : name.slice(dot + 1).toLowerCase();
}

function parseLines(records: JsonlRecord[], file: string, maxDepth: number | undefined): Container {
  const lines: ParsedLine[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const rec of records) {
    const tooLarge = checkRecordSize(rec, file);
    if (tooLarge) {
      diagnostics.push(tooLarge);
      continue;
    }
    const parsed = parseJson(rec.text, { file, maxDepth, firstLine: rec.line });
    if (parsed.ok) lines.push({ line: rec.line, value: parsed.value, positions: parsed.positions });
    else diagnostics.push(parsed.error);
  }
  return { kind: 'jsonl', lines, diagnostics };
}

export function parseContainer(text: string, file: string, maxDepth?: number): ContainerResult {
  if (JSONL_EXTENSIONS.includes(extensionOf(file))) {
    return { ok: true, container: parseLines(splitJsonl(text), file, maxDepth) };
  }
  const whole = parseJson(text, { file, maxDepth });
  if (whole.ok) {
    const doc: ParsedValue = { value: whole.value, positions: whole.positions };
    return { ok: true, container: { kind: 'json', doc, oneLine: !text.trim().includes('\n') } };
  }
  const records = splitJsonl(text);
  const first = records[0];
  if (records.length >= 2 && first && first.text.length <= MAX_RECORD_CHARS) {
    const head = parseJson(first.text, { file, maxDepth, firstLine: first.line });
    if (head.ok && typeof head.value === 'object' && head.value !== null) {
      return { ok: true, container: parseLines(records, file, maxDepth) };
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
