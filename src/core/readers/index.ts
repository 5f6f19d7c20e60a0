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
import { isAiderText, readAider } from './aider.js';
import { readAnthropic } from './anthropic.js';
import { readClaudeCode } from './claude-code.js';
import { readClaudeWeb } from './claude-web.js';
import { readCodex } from './codex.js';
import { readGemini } from './gemini.js';
import { readLangChain } from './langchain.js';
import { readOpenHands } from './openhands.js';
import { readResponses } from './responses.js';
import { readVercelAi } from './vercel-ai.js';
import { asJsonl, parseContainer } from './container.js';
import { detectContainer, type Detection } from './detect.js';
import { readNativeJson, readNativeJsonl } from './native.js';
import { readOpenAi } from './openai.js';
import { nameResultsByCall, pairingDiagnostics, pairToolResults } from './pairing.js';
import type { Container, ParsedValue, ParsedLine, ReaderOutput } from './reader-types.js';
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
  /**
   * Which session of a multi-session file (aider chat histories): 1-based, or 'last'. Without it a
   * multi-session file reads its last session; `sessionCount` tells how many there are.
   */
  session?: number | 'last';
}

export type ReadResult = { ok: true; transcript: Transcript } | { ok: false; diagnostics: Diagnostic[] };

const FORMAT_LIST = TRANSCRIPT_FORMATS.join(', ');

function at1(file: string): { file: string; line: number; column: number } {
  return { file, line: 1, column: 1 };
}

/** The shapes the readers accept, as the `unknown-format` error lists them. */
const SHAPES =
  'native JSON/JSONL, OpenAI Chat Completions messages, OpenAI Responses items, Anthropic Messages, ' +
  'Claude Code session JSONL, Claude web-session JSON (loglines), Codex CLI rollout JSONL, ' +
  'Vercel AI SDK messages, LangChain serialized messages, Gemini contents, OpenHands trajectories, ' +
  'aider chat history Markdown';

function unknownFormat(file: string, notJson = false): Diagnostic {
  return diagnostic(
    'error',
    'unknown-format',
    at1(file),
    `The transcript format was not recognised${notJson ? ' (the file is not JSON, JSON Lines or an aider chat history)' : ''}. Supported formats: ${FORMAT_LIST} (${SHAPES}).`,
    `Check that this is a transcript file, or name its format with --input-format ${TRANSCRIPT_FORMATS.join('|')}.`,
  );
}

/** Text that cannot be meant as JSON: its first non-blank character opens no JSON value. */
function notJsonText(text: string): boolean {
  const start = text.trimStart();
  return start !== '' && !/^(?:[[{"]|-?\d|true\b|false\b|null\b)/.test(start);
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
  const needsJsonl = format === 'claude-code' || format === 'codex';
  const needsJson = format !== 'native' && !needsJsonl;
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
    'Choose the format that matches the file with --input-format, or use --input-format auto.',
  );
}

type JsonlReader = (lines: ParsedLine[], file: string) => ReaderOutput;
type JsonReader = (doc: ParsedValue, file: string) => ReaderOutput;

const JSONL_READERS: Partial<Record<TranscriptFormat, JsonlReader>> = {
  'claude-code': readClaudeCode,
  codex: readCodex,
  native: readNativeJsonl,
};
const JSON_READERS: Partial<Record<TranscriptFormat, JsonReader>> = {
  openai: readOpenAi,
  anthropic: readAnthropic,
  responses: readResponses,
  'vercel-ai': readVercelAi,
  langchain: readLangChain,
  gemini: readGemini,
  openhands: readOpenHands,
  'claude-web': readClaudeWeb,
  native: readNativeJson,
};

function runReader({ format, container }: Detection, file: string): ReaderOutput {
  if (container.kind === 'jsonl') {
    const out = (JSONL_READERS[format] ?? readNativeJsonl)(container.lines, file);
    return { ...out, diagnostics: [...container.diagnostics, ...out.diagnostics] };
  }
  return (JSON_READERS[format] ?? readNativeJson)(container.doc, file);
}

/** Diagnostics in file order (line, then column), keeping the order of those at the same place. */
function byPosition(diagnostics: Diagnostic[]): Diagnostic[] {
  return diagnostics
    .map((d, i) => ({ d, i }))
    .sort((a, b) => a.d.line - b.d.line || a.d.column - b.d.column || a.i - b.i)
    .map(({ d }) => d);
}

/**
 * A JSON document's artifacts as the `format` reader makes them, before pairing and before results
 * take their calls' names: for a caller that reads a history in pieces and pairs it whole
 * (src/api/incremental-read.ts). Undefined when the text is not a document of that format.
 */
export function readArtifacts(
  text: string,
  file: string,
  format: TranscriptFormat,
): ReaderOutput | undefined {
  const parsed = parseContainer(text, file, {});
  if (!parsed.ok || parsed.container.kind !== 'json') return undefined;
  const chosen = forced(format, parsed.container, file);
  return 'severity' in chosen ? undefined : runReader(chosen, file);
}

/** text is already decoded (BOM stripped). Chooses the reader by file extension + content, or `format`. */
export function readTranscript(text: string, opts: ReadOptions): ReadResult {
  const { file } = opts;
  const format = opts.format ?? 'auto';
  if (format === 'aider' || (format === 'auto' && isAiderText(text)))
    return loaded(readAider(text, file, opts.session ?? 'last'), 'aider', file, false);
  const parsed = parseContainer(text, file, { maxDepth: opts.maxDepth, maxRecords: opts.maxRecords });
  if (!parsed.ok) {
    // A syntax hint is only useful for a file meant as JSON: anything else is an unknown format.
    if (format === 'auto' && notJsonText(text))
      return { ok: false, diagnostics: [unknownFormat(file, true)] };
    return { ok: false, diagnostics: parsed.diagnostics };
  }
  const { container } = parsed;
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
  return loaded(runReader(chosen, file), chosen.format, file, chosen.container.kind === 'json');
}

/**
 * A reader's output as a result: a document (one unit) with an error does not load, a log of
 * records (JSONL, Markdown) loads with its bad records reported; nothing read never loads.
 */
function loaded(out: ReaderOutput, format: TranscriptFormat, file: string, document: boolean): ReadResult {
  if (out.artifacts.length === 0 || (document && hasErrors(out.diagnostics))) {
    const empty = hasErrors(out.diagnostics) ? [] : [emptyTranscript(file)];
    return { ok: false, diagnostics: byPosition([...out.diagnostics, ...empty]) };
  }
  const pairing = pairToolResults(out.artifacts);
  const artifacts = nameResultsByCall(out.artifacts, pairing);
  const diagnostics = byPosition([...out.diagnostics, ...pairingDiagnostics(pairing, artifacts)]);
  return { ok: true, transcript: { file, format, meta: out.meta, artifacts, pairing, diagnostics } };
}
