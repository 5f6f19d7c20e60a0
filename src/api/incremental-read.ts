// Reading an agent's history on every call without re-reading it: a message array is read one message
// at a time, and a message seen in an earlier call (the same object, or the same JSON) reuses what
// was read then. Only the message formats whose reader reads each message on its own are read so
// (openai without legacy function calls, anthropic, vercel-ai, langchain without legacy function
// messages); anything else is read whole. A Responses body is read by segments of items
// (incremental-responses.ts): its model items are merged into turns, so they do not read alone.
import { sweSteps } from '../core/readers/openai.js';
import { nameResultsByCall, pairToolResults, pairingDiagnostics } from '../core/readers/pairing.js';
import { readArtifacts, readTranscript } from '../core/readers/index.js';
import { chunkableResponsesBody, ResponsesSegments } from './incremental-responses.js';
import { isObject } from '../core/readers/values.js';
import type { Artifact, Diagnostic, Transcript, TranscriptFormat } from '../core/types.js';

/** Formats whose messages read alone give the same artifacts as read in their array. */
const CHUNKED: ReadonlySet<TranscriptFormat> = new Set(['openai', 'anthropic', 'vercel-ai', 'langchain']);

/** A message read alone, its ids as message 0 (`m0`, `m0.<part>`). */
interface Chunk {
  artifacts: Artifact[];
  diagnostics: Diagnostic[];
  /** The model a LangChain AI message names (its response_metadata): the transcript's, if first. */
  model?: unknown;
  /** Its artifacts placed at a message index (ids, source), as the last call placed them. */
  placed?: { index: number; artifacts: Artifact[] };
}

/** The fields beside `messages` (a system prompt, instructions), read with the first message. */
interface Head {
  key: string;
  artifacts: Artifact[];
  meta: Record<string, unknown>;
}

/** An openai legacy function call or result: its call id is derived from the caller's index. */
function isLegacyOpenAi(message: unknown): boolean {
  return isObject(message) && (message['role'] === 'function' || message['function_call'] != null);
}

/** A LangChain legacy function call (`fc_<index>`) or a FunctionMessage (no call id), read alone. */
function legacyLangChain(chunk: Chunk): boolean {
  return chunk.artifacts.some(
    (a) =>
      (a.kind === 'tool' && a.call_id === undefined) || (a.tool_calls ?? []).some((c) => c.id === 'fc_0'),
  );
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
  private responses: ResponsesSegments | undefined;

  read(input: unknown, format: TranscriptFormat, file: string): Transcript | undefined {
    const responses = format === 'responses';
    if (!CHUNKED.has(format) && !responses) return undefined;
    // The key of the array: a Responses body's items are its `input`.
    const key = responses ? 'input' : 'messages';
    let messages: readonly unknown[];
    let rest: Record<string, unknown> = {};
    if (Array.isArray(input)) messages = input;
    else if (isObject(input) && Array.isArray(input[key])) {
      messages = input[key] as unknown[];
      const { [key]: _m, ...others } = input;
      rest = others;
    } else return undefined;
    if (messages.length === 0) return undefined;
    // SWE-agent thought/action steps pair a message with the one before it: read whole (issue 31).
    if (format === 'openai' && (messages.some(isLegacyOpenAi) || sweSteps(messages).size > 0))
      return undefined;
    if (responses && !chunkableResponsesBody(rest)) return undefined;

    const head = this.readHead(rest, messages[0], format, file, key);
    if (!head) return undefined;
    if (responses) {
      const items = (this.responses ??= new ResponsesSegments()).read(messages, file, Array.isArray(input));
      // No artifact at all: the whole read fails (an empty transcript).
      if (!items || head.artifacts.length + items.length === 0) return undefined;
      return this.paired(file, format, head.meta, [...head.artifacts, ...items], []);
    }
    const chunks = this.chunks(messages, format, file);
    if (!chunks) return undefined;
    // A legacy function call's id and its result's pairing come from the message's neighbours.
    if (format === 'langchain' && chunks.some(legacyLangChain)) return undefined;
    const artifacts: Artifact[] = [...head.artifacts];
    const diagnostics: Diagnostic[] = [];
    for (let i = 0; i < messages.length; i++) {
      const chunk = chunks[i]!;
      const line = i + 1;
      if (chunk.placed?.index !== i || chunk.placed.artifacts[0]?.source.file !== file) {
        chunk.placed = { index: i, artifacts: chunk.artifacts.map((a) => this.placed(a, i, file, line)) };
      }
      for (const a of chunk.placed.artifacts) artifacts.push(a);
      for (const d of chunk.diagnostics) diagnostics.push({ ...d, file, line, column: 1 });
    }
    // The LangChain reader takes the model from the first AI message that names one.
    const model = head.meta['model'] ?? chunks.find((c) => c.model !== undefined)?.model;
    const meta = model === head.meta['model'] ? head.meta : { ...head.meta, model };
    return this.paired(file, format, meta, artifacts, diagnostics);
  }

  /** The transcript of the artifacts in order, paired as a whole read pairs them. */
  private paired(
    file: string,
    format: TranscriptFormat,
    meta: Record<string, unknown>,
    artifacts: Artifact[],
    diagnostics: Diagnostic[],
  ): Transcript {
    const pairing = pairToolResults(artifacts);
    const named = nameResultsByCall(artifacts, pairing, this.renamed);
    return {
      file,
      format,
      meta,
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

  /** The artifacts and meta of the fields beside the array (`arrayKey`): they do not depend on it. */
  private readHead(
    rest: Record<string, unknown>,
    first: unknown,
    format: TranscriptFormat,
    file: string,
    arrayKey: string,
  ): Head | undefined {
    const keys = Object.keys(rest).filter((k) => rest[k] !== undefined);
    if (keys.length === 0) return { key: '', artifacts: [], meta: {} };
    let key: string;
    try {
      key = `${format}:${JSON.stringify(rest)}`;
    } catch {
      return undefined;
    }
    if (this.head?.key === key) return this.head;
    // Read with one message: a document without messages may not be one of the format.
    const read = readTranscript(JSON.stringify({ ...rest, [arrayKey]: [first] }), {
      file: `${file}.json`,
      format,
    });
    if (!read.ok) return undefined;
    const artifacts = read.transcript.artifacts
      .filter((a) => a.id !== 'm0' && !a.id.startsWith('m0.'))
      .map((a) => ({ ...a, source: { file, line: 1, column: 1 } }));
    this.head = { key, artifacts, meta: read.transcript.meta };
    return this.head;
  }

  /** Every message's chunk: from an earlier call when seen, else read now, all new ones at once. */
  private chunks(messages: readonly unknown[], format: TranscriptFormat, file: string): Chunk[] | undefined {
    const out: (Chunk | undefined)[] = [];
    const missing: { index: number; json: string }[] = [];
    for (let i = 0; i < messages.length; i++) {
      const message = messages[i];
      const object = message !== null && typeof message === 'object' ? message : undefined;
      let chunk = object ? this.byObject.get(object) : undefined;
      if (!chunk) {
        let json: string | undefined;
        try {
          json = JSON.stringify(message);
        } catch {
          return undefined;
        }
        if (json === undefined) return undefined;
        chunk = this.byJson.get(json);
        if (!chunk) missing.push({ index: i, json });
        else if (object) this.byObject.set(object, chunk);
      }
      out.push(chunk);
    }
    if (missing.length > 0) {
      const jsons = missing.map((m) => m.json);
      // LangChain's model comes with the message that names it: each new message is read alone.
      const read =
        format === 'langchain'
          ? jsons.map((json) => this.readBatch([json], format, file)?.[0])
          : this.readBatch(jsons, format, file);
      if (!read || read.some((c) => c === undefined)) return undefined;
      missing.forEach((m, k) => {
        const chunk = read[k]!;
        this.byJson.set(m.json, chunk);
        const message = messages[m.index];
        if (message !== null && typeof message === 'object') this.byObject.set(message, chunk);
        out[m.index] = chunk;
      });
    }
    return out as Chunk[];
  }

  /**
   * New messages read as one array document (one parse, one reader run) and split back by message:
   * the reader names message j's artifacts `m<j>`/`m<j>.<part>`, and a diagnostic belongs to the
   * message its column falls in (the document is one line). A document with an error is not split:
   * the caller reads the payload whole and reports it as a whole read does.
   */
  private readBatch(jsons: readonly string[], format: TranscriptFormat, file: string): Chunk[] | undefined {
    const starts: number[] = [];
    let offset = 1;
    for (const json of jsons) {
      starts.push(offset);
      offset += json.length + 1;
    }
    const out = readArtifacts(`[${jsons.join(',')}]`, `${file}.json`, format);
    if (!out || out.diagnostics.some((d) => d.severity === 'error')) return undefined;
    const chunks: Chunk[] = jsons.map(() => ({ artifacts: [], diagnostics: [] }));
    if (jsons.length === 1 && out.meta['model'] !== undefined) chunks[0]!.model = out.meta['model'];
    for (const a of out.artifacts) {
      const m = /^m(\d+)(\..*)?$/.exec(a.id);
      const chunk = m ? chunks[Number(m[1])] : undefined;
      if (!m || !chunk) return undefined;
      chunk.artifacts.push({ ...a, id: `m0${m[2] ?? ''}` });
    }
    for (const d of out.diagnostics) {
      // The last message starting at or before the diagnostic's column (0-based offset column - 1).
      let j = 0;
      while (j + 1 < starts.length && starts[j + 1]! <= d.column - 1) j++;
      chunks[j]!.diagnostics.push(d);
    }
    return chunks;
  }
}
