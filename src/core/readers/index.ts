// readTranscript: text → Transcript. Parses the container once, picks the reader (by content, or
// the `format` option), pairs tool calls with their results and collects every diagnostic.
//
// When does a transcript load?
// - A JSON document is one unit: any error diagnostic means it did not load (ok: false, with all
//   diagnostics). Warnings alone never stop it.
// - A JSONL file is a log of independent records: a bad line (not JSON, too large, an invalid
//   artifact, a malformed Claude Code record) is reported at its line and skipped, never
//   silently, and the transcript loads with those diagnostics attached. Callers decide what an
//   error costs: the CLI exits 2 when any error diagnostic exists.
// - Either way, a transcript with no artifact at all does not load (`empty-transcript`).
import { hasErrors, diagnostic } from '../diagnostics.js';
import { TRANSCRIPT_FORMATS, type Diagnostic, type Transcript, type TranscriptFormat } from '../types.js';
import { readAnthropic } from './anthropic.js';
import { readClaudeCode } from './claude-code.js';
import { asJsonl, parseContainer } from './container.js';
import { detectContainer, type Detection } from './detect.js';
import { readNativeJson, readNativeJsonl } from './native.js';
import { readOpenAi } from './openai.js';
import { nameResultsByCall, pairingDiagnostics, pairToolResults } from './pairing.js';
import type { Container, ReaderOutput } from './reader-types.js';
import { isObject } from './values.js';

export { detectFormat } from './detect.js';
export { pairToolResults, pairingDiagnostics } from './pairing.js';

export type FormatOption = 'auto' | TranscriptFormat;

export interface ReadOptions {
  /** The path as the user gave it: used in diagnostics and artifact sources, and for the extension. */
  file: string;
  format?: FormatOption;
  /** Maximum JSON nesting (see parseJson). */
  maxDepth?: number;
  /**
   * Records per file (JSONL lines, or elements of any one JSON array); more is the error
   * `too-many-records` at the first one over. Default DEFAULT_MAX_RECORDS (50,000).
   */
  maxRecords?: number;
}

export type ReadResult = { ok: true; transcript: Transcript } | { ok: false; diagnostics: Diagnostic[] };

const FORMAT_LIST = TRANSCRIPT_FORMATS.join(', ');

function at1(file: string): { file: string; line: number; column: number } {
  return { file, line: 1, column: 1 };
}

function unknownFormat(file: string): Diagnostic {
  return diagnostic(
    'error',
    'unknown-format',
    at1(file),
    `The transcript format was not recognised. Supported formats: ${FORMAT_LIST} (native JSON/JSONL, OpenAI Chat Completions messages, Anthropic Messages, Claude Code session JSONL).`,
    `Check that this is a transcript file, or name its format with --format ${TRANSCRIPT_FORMATS.join('|')}.`,
  );
}

function emptyTranscript(file: string): Diagnostic {
  return diagnostic(
    'error',
    'empty-transcript',
    at1(file),
    'The transcript holds no artifact (no message or record could be read).',
    'Check that the file is a complete transcript; an empty session cannot be checked.',
  );
}

/** The container a forced format reads, or an error when the file cannot be in that format. */
function forced(format: TranscriptFormat, container: Container, file: string): Detection | Diagnostic {
  const jsonl = asJsonl(container);
  const needsJsonl = format === 'claude-code';
  const needsJson = format === 'openai' || format === 'anthropic';
  if (needsJsonl && jsonl) return { format, container: jsonl };
  if (needsJson && container.kind === 'json') return { format, container };
  if (format === 'native') {
    // A one-line native file may be either a {meta, artifacts} document or a single artifact record.
    const isDocument =
      container.kind === 'json' && isObject(container.doc.value) && 'artifacts' in container.doc.value;
    return { format, container: isDocument || !jsonl ? container : jsonl };
  }
  return diagnostic(
    'error',
    'format-mismatch',
    at1(file),
    needsJsonl
      ? `The ${format} format is JSON Lines (one record per line), but this file holds one multi-line JSON document.`
      : `The ${format} format is one JSON document, but this file holds JSON Lines (several values on separate lines).`,
    'Choose the format that matches the file with --format, or use --format auto.',
  );
}

function runReader({ format, container }: Detection, file: string): ReaderOutput {
  if (container.kind === 'jsonl') {
    const read = format === 'claude-code' ? readClaudeCode : readNativeJsonl;
    const out = read(container.lines, file);
    return { ...out, diagnostics: [...container.diagnostics, ...out.diagnostics] };
  }
  if (format === 'openai') return readOpenAi(container.doc, file);
  if (format === 'anthropic') return readAnthropic(container.doc, file);
  return readNativeJson(container.doc, file);
}

/** Diagnostics in file order (line, then column), keeping the order of those at the same place. */
function byPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
    .map(({ d }) => d);
}

/** text is already decoded (BOM stripped). Chooses the reader by file extension + content, or `format`. */
export function readTranscript(text: string, opts: ReadOptions): ReadResult {
  const { file } = opts;
  const parsed = parseContainer(text, file, { maxDepth: opts.maxDepth, maxRecords: opts.maxRecords });
  if (!parsed.ok) return { ok: false, diagnostics: parsed.diagnostics };
  const { container } = parsed;
  const format = opts.format ?? 'auto';
  if (container.kind === 'jsonl' && container.lines.length === 0) {
    // Nothing to detect from: the line errors say why, or the file has no record at all.
    const diagnostics = container.diagnostics.length > 0 ? container.diagnostics : [emptyTranscript(file)];
    return { ok: false, diagnostics };
  }
  const chosen = format === 'auto' ? detectContainer(container) : forced(format, container, file);
  if (chosen === null || 'severity' in chosen) {
    const lineErrors = container.kind === 'jsonl' ? container.diagnostics : [];
    return { ok: false, diagnostics: byPosition([...lineErrors, chosen ?? unknownFormat(file)]) };
  }
  const out = runReader(chosen, file);
  if (out.artifacts.length === 0 || (chosen.container.kind === 'json' && hasErrors(out.diagnostics))) {
    const empty = hasErrors(out.diagnostics) ? [] : [emptyTranscript(file)];
    return { ok: false, diagnostics: byPosition([...out.diagnostics, ...empty]) };
  }
  const pairing = pairToolResults(out.artifacts);
  const artifacts = nameResultsByCall(out.artifacts, pairing);
  const diagnostics = byPosition([...out.diagnostics, ...pairingDiagnostics(pairing, artifacts)]);
  return {
    ok: true,
    transcript: { file, format: chosen.format, meta: out.meta, artifacts, pairing, diagnostics },
  };
}
