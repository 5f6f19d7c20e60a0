// Reading an agent's history on every call without re-reading it: a message array is read one message
// at a time, and a message seen in an earlier call (the same object, or the same JSON) reuses what
// was read then. Only the message formats whose reader reads each message on its own are read so
// (openai without legacy function calls, anthropic, vercel-ai); anything else is read whole.
import { nameResultsByCall, pairToolResults, pairingDiagnostics } from '../core/readers/pairing.js';
import { readTranscript } from '../core/readers/index.js';
import type { Artifact, Diagnostic, Transcript, TranscriptFormat } from '../core/types.js';

/** Formats whose messages read alone give the same artifacts as read in their array. */
const CHUNKED: ReadonlySet<TranscriptFormat> = new Set(['openai', 'anthropic', 'vercel-ai']);

/** A message read alone, its ids as message 0 (`m0`, `m0.<part>`). */
interface Chunk {
  artifacts: Artifact[];
  diagnostics: Diagnostic[];
  /** Its artifacts placed at a message index (ids, source), as the last call placed them. */
  placed?: { index: number; artifacts: Artifact[] };
}

/** The fields beside `messages` (a system prompt, instructions), read with the first message. */
interface Head {
  key: string;
  artifacts: Artifact[];
  meta: Record<string, unknown>;
  diagnostics: Diagnostic[];
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** An openai legacy function call or result: its call id is derived from the caller's index. */
function isLegacyOpenAi(message: unknown): boolean {
  return isPlainObject(message) && (message['role'] === 'function' || message['function_call'] != null);
}

function renumber(id: string, index: number): string {
  if (id === 'm0') return `m${index}`;
  if (id.startsWith('m0.')) return `m${index}${id.slice(2)}`;
  return id;
}

/**
 * One per session. `read` returns the transcript of a message-array payload in a chunked format,
 * or undefined when the payload must be read whole (another shape or format, a message that does
 * not read alone); the caller then reads it with toTranscript. Artifacts are those of the whole
 * read; their source line is the message's 1-based position in the array (a payload held in
 * memory has no file lines).
 */
export class IncrementalReader {
  private readonly byObject = new WeakMap<object, Chunk>();
  private readonly byJson = new Map<string, Chunk>();
  private head: Head | undefined;
  private readonly renamed = new WeakMap<Artifact, Artifact>();

  read(input: unknown, format: TranscriptFormat, file: string): Transcript | undefined {
    if (!CHUNKED.has(format)) return undefined;
    let messages: readonly unknown[];
    let rest: Record<string, unknown> = {};
    if (Array.isArray(input)) messages = input;
    else if (isPlainObject(input) && Array.isArray(input['messages'])) {
      messages = input['messages'] as unknown[];
      const { messages: _m, ...others } = input;
      rest = others;
    } else return undefined;
    if (messages.length === 0) return undefined;
    if (format === 'openai' && messages.some(isLegacyOpenAi)) return undefined;

    const head = this.readHead(rest, messages[0], format, file);
    if (!head) return undefined;
    const artifacts: Artifact[] = [...head.artifacts];
    const diagnostics: Diagnostic[] = [...head.diagnostics];
    for (let i = 0; i < messages.length; i++) {
      const chunk = this.chunk(messages[i], format, file);
      if (!chunk) return undefined;
      const line = i + 1;
      if (chunk.placed?.index !== i || chunk.placed.artifacts[0]?.source.file !== file) {
        chunk.placed = { index: i, artifacts: chunk.artifacts.map((a) => this.placed(a, i, file, line)) };
      }
      for (const a of chunk.placed.artifacts) artifacts.push(a);
      for (const d of chunk.diagnostics) diagnostics.push({ ...d, file, line, column: 1 });
    }
    const pairing = pairToolResults(artifacts);
    const named = nameResultsByCall(artifacts, pairing, this.renamed);
    return {
      file,
      format,
      meta: head.meta,
      artifacts: named,
      pairing,
      diagnostics: [...diagnostics, ...pairingDiagnostics(pairing, named)],
    };
  }

  private placed(a: Artifact, index: number, file: string, line: number): Artifact {
    const out: Artifact = { ...a, id: renumber(a.id, index), source: { file, line, column: 1 } };
    if (a.provenance !== undefined) out.provenance = a.provenance.map((p) => renumber(p, index));
    return out;
  }

  /** The artifacts and meta of the fields beside `messages`: they do not depend on the messages. */
  private readHead(
    rest: Record<string, unknown>,
    first: unknown,
    format: TranscriptFormat,
    file: string,
  ): Head | undefined {
    const keys = Object.keys(rest).filter((k) => rest[k] !== undefined);
    if (keys.length === 0) return { key: '', artifacts: [], meta: {}, diagnostics: [] };
    let key: string;
    try {
      key = JSON.stringify(rest);
    } catch {
      return undefined;
    }
    if (this.head?.key === key) return this.head;
    // Read with one message: a document without messages may not be one of the format.
    const read = readTranscript(JSON.stringify({ ...rest, messages: [first] }), {
      file: `${file}.json`,
      format,
    });
    if (!read.ok) return undefined;
    const artifacts = read.transcript.artifacts
      .filter((a) => a.id !== 'm0' && !a.id.startsWith('m0.'))
      .map((a) => ({ ...a, source: { file, line: 1, column: 1 } }));
    this.head = { key, artifacts, meta: read.transcript.meta, diagnostics: [] };
    return this.head;
  }

  private chunk(message: unknown, format: TranscriptFormat, file: string): Chunk | undefined {
    const object = message !== null && typeof message === 'object' ? message : undefined;
    const known = object ? this.byObject.get(object) : undefined;
    if (known) return known;
    let json: string;
    try {
      json = JSON.stringify(message);
    } catch {
      return undefined;
    }
    let chunk = this.byJson.get(json);
    if (!chunk) {
      const read = readTranscript(`[${json}]`, { file: `${file}.json`, format });
      if (!read.ok) return undefined;
      // Pairing is done over the whole history; a chunk's own pairing notes are not kept.
      const paired = new Set(['unpaired-call', 'unpaired-result']);
      chunk = {
        artifacts: read.transcript.artifacts,
        diagnostics: read.transcript.diagnostics.filter((d) => !paired.has(d.code)),
      };
      this.byJson.set(json, chunk);
    }
    if (object) this.byObject.set(object, chunk);
    return chunk;
  }
}
