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
// - A file of several sessions (aider chat histories, OpenHands output rows) is parsed once and
//   read session by session (readSessions): an empty session is skipped with a note.
import { hasErrors, diagnostic } from '../diagnostics.js';
import { sessionName } from '../text/session-name.js';
import { TRANSCRIPT_FORMATS, type Diagnostic, type Transcript, type TranscriptFormat } from '../types.js';
import { isAiderText, parseAiderFile, readAiderSession, sessionOutOfRange } from './aider.js';
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
   * Which session of a multi-session file (aider chat histories, OpenHands output rows): 1-based,
   * or 'last' (the last that holds a message). Without it readTranscript reads the last session
   * and readSessions every session.
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
  // An OpenHands evaluation output is JSONL, one run per line; a single run is one document.
  if (format === 'openhands' && container.kind === 'jsonl') return { format, container };
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

/** One transcript of a file: a session of an aider history, a row of an OpenHands output. */
export interface SessionRead {
  /** `FILE#N` when the file holds several; FILE for a file of one (or a failure of the whole file). */
  name: string;
  result: ReadResult;
}

/** A file's transcripts, read from ONE parse of its text. */
export interface SessionsRead {
  /** Sessions the file holds (aider sessions, OpenHands output rows; 1 for any other file). */
  count: number;
  sessions: SessionRead[];
}

/** A parsed file and how to read each of its sessions without parsing it again. */
interface Sessions {
  count: number;
  /** What the file holds several of, as the empty-sessions note says it. */
  unit: 'session' | 'row';
  /** Session n (1-based, in range), its artifacts and diagnostics named `name`. */
  read(n: number, name: string): ReadResult;
}

function renamed(d: Diagnostic, file: string): Diagnostic {
  return d.file === file ? d : { ...d, file };
}

/**
 * The rows of an OpenHands evaluation output (one run per line): row n is the n-th non-blank
 * line, a line that is not JSON included (that row fails with its line's error).
 */
function openHandsRows(container: Extract<Container, { kind: 'jsonl' }>): Sessions {
  const rows: (ParsedLine | Diagnostic)[] = [...container.lines, ...container.diagnostics];
  rows.sort((a, b) => a.line - b.line);
  const count = rows.length;
  return {
    count,
    unit: 'row',
    read(n, name) {
      const row = rows[n - 1] as ParsedLine | Diagnostic;
      if ('severity' in row) return { ok: false, diagnostics: [renamed(row, name)] };
      const out = readOpenHands(row, name);
      if (count > 1) out.meta = { ...out.meta, session: n, sessions: count };
      return loaded(out, 'openhands', name, true);
    },
  };
}

/** The file parsed once, or why it cannot be read at all. */
function openSessions(text: string, opts: ReadOptions): Sessions | ReadResult {
  const { file } = opts;
  const format = opts.format ?? 'auto';
  if (format === 'aider' || (format === 'auto' && isAiderText(text))) {
    const parsed = parseAiderFile(text);
    return {
      count: parsed.count,
      unit: 'session',
      read: (n, name) => loaded(readAiderSession(parsed, name, n), 'aider', name, false),
    };
  }
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
  if (chosen.format === 'openhands' && chosen.container.kind === 'jsonl')
    return openHandsRows(chosen.container);
  const document = chosen.container.kind === 'json';
  return {
    count: 1,
    unit: 'session',
    read: (_n, name) => loaded(runReader(chosen, name), chosen.format, name, document),
  };
}

/**
 * A session with no message: it holds no artifact (`empty-transcript` alone, warnings aside), or
 * only what the tool printed (aider's start-up lines when it was started and closed), nothing
 * the user or the model said and no error.
 */
function isEmptySession(result: ReadResult): boolean {
  if (result.ok) {
    const { artifacts, diagnostics } = result.transcript;
    return !hasErrors(diagnostics) && !artifacts.some((a) => a.kind === 'user' || a.kind === 'assistant');
  }
  return (
    result.diagnostics.some((d) => d.code === 'empty-transcript') &&
    result.diagnostics.every((d) => d.severity !== 'error' || d.code === 'empty-transcript')
  );
}

/** 1133 → "1,133" (no locale: the core's output is the same everywhere). */
function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+$)/g, ',');
}

const LISTED_EMPTY = 10;

function emptySessionsNote(file: string, unit: string, empty: number[], count: number): Diagnostic {
  const one = empty.length === 1;
  const listed = empty.slice(0, LISTED_EMPTY).map(thousands).join(', ');
  const more = empty.length > LISTED_EMPTY ? ', …' : '.';
  return diagnostic(
    'warning',
    'empty-sessions',
    at1(file),
    `${thousands(empty.length)} of ${thousands(count)} ${unit}s ${one ? 'is' : 'are'} empty (no message) and ${one ? 'was' : 'were'} skipped: ${listed}${more}`,
    `Nothing to do: an empty ${unit} has nothing to check (aider starts a session each time it runs, even when nothing is said). --session N reads one ${unit} alone.`,
  );
}

function allEmpty(file: string, unit: string, count: number): ReadResult {
  return {
    ok: false,
    diagnostics: [
      diagnostic(
        'error',
        'empty-transcript',
        at1(file),
        `The transcript holds no artifact: none of its ${thousands(count)} ${unit}s holds a message.`,
        'Check that the file is a complete transcript; an empty session cannot be checked.',
      ),
    ],
  };
}

/** A warning added to a result: a loaded transcript's diagnostics, or a failure's. */
function withNote(result: ReadResult, note: Diagnostic): ReadResult {
  if (!result.ok) return { ok: false, diagnostics: [note, ...result.diagnostics] };
  const diagnostics = byPosition([note, ...result.transcript.diagnostics]);
  return { ok: true, transcript: { ...result.transcript, diagnostics } };
}

/**
 * Every transcript of a file from one parse of its text: each session of an aider chat history and
 * each row of an OpenHands evaluation output is a transcript named `FILE#N` (a file of one keeps
 * its name). `opts.session` picks one: a number (out of range is the error `session-out-of-range`)
 * or `last`, the last session that holds a message. Without it every session is read; empty ones
 * (nothing but `empty-transcript`) are skipped with one `empty-sessions` warning on the first
 * session kept, and a file whose every session is empty is one `empty-transcript` error.
 */
export function readSessions(text: string, opts: ReadOptions): SessionsRead {
  const { file } = opts;
  const opened = openSessions(text, opts);
  if ('ok' in opened) return { count: 1, sessions: [{ name: file, result: opened }] };
  const { count, unit } = opened;
  const one = (n: number): SessionRead => {
    const name = sessionName(file, n, count);
    return { name, result: opened.read(n, name) };
  };
  const asked = opts.session;
  if (typeof asked === 'number') {
    if (!Number.isInteger(asked) || asked < 1 || asked > count) {
      const result: ReadResult = { ok: false, diagnostics: [sessionOutOfRange(file, asked, count)] };
      return { count, sessions: [{ name: file, result }] };
    }
    return { count, sessions: [one(asked)] };
  }
  if (count === 1) return { count, sessions: [one(1)] };
  if (asked === 'last') {
    for (let n = count; n >= 1; n--) {
      const read = one(n);
      if (!isEmptySession(read.result)) return { count, sessions: [read] };
    }
    return { count, sessions: [{ name: file, result: allEmpty(file, unit, count) }] };
  }
  const kept: SessionRead[] = [];
  const empty: number[] = [];
  for (let n = 1; n <= count; n++) {
    const read = one(n);
    if (isEmptySession(read.result)) empty.push(n);
    else kept.push(read);
  }
  const first = kept[0];
  if (first === undefined) return { count, sessions: [{ name: file, result: allEmpty(file, unit, count) }] };
  if (empty.length > 0)
    kept[0] = { ...first, result: withNote(first.result, emptySessionsNote(file, unit, empty, count)) };
  return { count, sessions: kept };
}

/**
 * text is already decoded (BOM stripped). Chooses the reader by file extension + content, or
 * `format`. A file of several sessions (aider, OpenHands output rows) gives the one
 * `opts.session` names (default: the last that holds a message), under `opts.file` as given.
 */
export function readTranscript(text: string, opts: ReadOptions): ReadResult {
  const opened = openSessions(text, opts);
  if ('ok' in opened) return opened;
  const { count, unit } = opened;
  const asked = opts.session ?? 'last';
  if (asked !== 'last') {
    if (!Number.isInteger(asked) || asked < 1 || asked > count)
      return { ok: false, diagnostics: [sessionOutOfRange(opts.file, asked, count)] };
    return opened.read(asked, opts.file);
  }
  for (let n = count; n >= 1; n--) {
    const result = opened.read(n, opts.file);
    if (count === 1 || !isEmptySession(result)) return result;
  }
  return allEmpty(opts.file, unit, count);
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
