// Library input: a Transcript as the readers make it, or a provider payload held in memory (an
// OpenAI messages array, `{messages}`, an Anthropic `{system, messages}`, a native `{artifacts}`).
import { InputError } from '../core/diagnostics.js';
import { readTranscript } from '../core/readers/index.js';
import type { FormatOption } from '../core/readers/index.js';
import type { Transcript } from '../core/types.js';

/** What `stabilize` and `validate` accept. */
export type TranscriptInput = Transcript | readonly unknown[] | Readonly<Record<string, unknown>>;

export interface TranscriptInputOptions {
  /** Names the input in diagnostics, ledger lines and `result.transcript`. Default `<memory>`. */
  file?: string;
  /** Reader override for a payload; default: detected from its shape. */
  format?: FormatOption;
  /** Cap on messages (elements of any one array) of a payload; default 50,000 (DEFAULT_MAX_RECORDS). */
  maxRecords?: number;
}

export const MEMORY_FILE = '<memory>';

/** A Transcript is recognised by the fields only a reader fills in (a native payload has none of them). */
export function isTranscript(input: unknown): input is Transcript {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) return false;
  const t = input as Partial<Record<keyof Transcript, unknown>>;
  return (
    typeof t.file === 'string' &&
    typeof t.format === 'string' &&
    Array.isArray(t.artifacts) &&
    Array.isArray(t.diagnostics) &&
    typeof t.pairing === 'object' &&
    t.pairing !== null
  );
}

/**
 * The input as a Transcript. A Transcript is returned as is; a payload is serialized with
 * JSON.stringify (2-space indent, so that lines in diagnostics and the ledger point at one message
 * each) and read by the same readers as a file: auto-detection, pairing, ids (`m<i>`…) and
 * diagnostics are exactly those of the file. That costs one serialization and one parse per
 * call, linear in the payload size; to stabilize and validate the same payload, convert it once
 * with this function and pass the Transcript to both.
 *
 * Throws an InputError (its message lists file:line:column diagnostics that never quote the
 * payload) when the payload is not a transcript in any supported format.
 */
export function toTranscript(input: TranscriptInput, opts: TranscriptInputOptions = {}): Transcript {
  if (isTranscript(input)) return input;
  const file = opts.file ?? MEMORY_FILE;
  let text: string | undefined;
  try {
    text = JSON.stringify(input, null, 2);
  } catch {
    // Cycles and BigInt values cannot be serialized: the payload is not JSON data.
  }
  if (text === undefined) {
    throw new InputError([
      {
        severity: 'error',
        code: 'not-json-data',
        file,
        line: 1,
        column: 1,
        message: 'The input cannot be serialized as JSON (a cycle, a BigInt or a function).',
        hint: 'Pass plain JSON data: a messages array, {messages}, {system, messages} or {artifacts}.',
      },
    ]);
  }
  // The text is one JSON document; a `.jsonl` name would make the reader split it into lines.
  const jsonlName = /\.(jsonl|ndjson)$/i.test(file);
  const readAs = jsonlName ? `${file}.json` : file;
  const read = readTranscript(text, {
    file: readAs,
    ...(opts.format !== undefined ? { format: opts.format } : {}),
    ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
  });
  if (!read.ok)
    throw new InputError(jsonlName ? read.diagnostics.map((d) => ({ ...d, file })) : read.diagnostics);
  return jsonlName ? renamed(read.transcript, file) : read.transcript;
}

function renamed(t: Transcript, file: string): Transcript {
  return {
    ...t,
    file,
    artifacts: t.artifacts.map((a) => ({ ...a, source: { ...a.source, file } })),
    diagnostics: t.diagnostics.map((d) => ({ ...d, file })),
  };
}
