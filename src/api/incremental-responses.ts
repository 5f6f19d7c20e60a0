// Reading a Responses request body (`{instructions?, input: [...]}`, or the bare item array) call
// after call without re-reading it (src/api/incremental-read.ts reads the fields beside `input`).
// Its items do not read alone as chat messages do: consecutive model items (assistant message
// parts, reasoning, calls) form ONE assistant artifact named after the first (ModelTurns), and a
// user/system message or a call output closes it. So the input is cut into segments, a maximal
// run of model items or one other item, which read alone give the artifacts of the whole read with
// their ids counted from the segment's first item. A segment seen in an earlier call (the same
// item objects, or the same JSON) reuses what was read then; the model's last run may have grown
// since (the agent appended a call item): its items differ, so it is read again.
import { readArtifacts } from '../core/readers/index.js';
import { CALL_OUTPUT, MODEL_ITEMS, OUTPUT_CALL } from '../core/readers/responses-items.js';
import { isObject } from '../core/readers/values.js';
import { DEFAULT_MAX_RECORDS } from '../core/text/jsonl.js';
import type { Artifact } from '../core/types.js';

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['user', 'system', 'developer']);

/**
 * Whether the fields beside `input` leave the items to be read in order from `input`, with no
 * warning of their own: a list or a response object reads another key (a list maybe newest first),
 * `has_more` warns, and instructions given as items share the items' per-type warnings.
 */
export function chunkableResponsesBody(rest: Readonly<Record<string, unknown>>): boolean {
  const object = rest['object'];
  if (object === 'list' || object === 'response' || rest['has_more'] === true) return false;
  const instructions = rest['instructions'];
  return instructions === undefined || instructions === null || typeof instructions === 'string';
}

/**
 * How the reader takes an item (as responses.ts dispatches it): part of the model's run, or an
 * item alone. Undefined for an item that does not read alone as in the whole read: an unknown type
 * (its `skipped-item` warning counts every item of that type in the document) or a malformed one.
 */
function isModelItem(item: unknown): boolean | undefined {
  if (!isObject(item)) return undefined;
  const type = item['type'];
  if (type === 'message' || (type === undefined && 'role' in item)) {
    const role = item['role'];
    if (role === 'assistant') return true;
    return typeof role === 'string' && MESSAGE_ROLES.has(role) ? false : undefined;
  }
  if (typeof type !== 'string') return undefined;
  if (MODEL_ITEMS.has(type) || CALL_OUTPUT.has(type)) return true;
  return OUTPUT_CALL.has(type) ? false : undefined;
}

interface Bounds {
  start: number;
  end: number;
  model: boolean;
}

function segmentsOf(items: readonly unknown[]): Bounds[] | undefined {
  const out: Bounds[] = [];
  let run = -1;
  for (let i = 0; i < items.length; i++) {
    const model = isModelItem(items[i]);
    if (model === undefined) return undefined;
    if (model) {
      if (run < 0) run = i;
      continue;
    }
    if (run >= 0) out.push({ start: run, end: i, model: true });
    run = -1;
    out.push({ start: i, end: i + 1, model: false });
  }
  if (run >= 0) out.push({ start: run, end: items.length, model: true });
  return out;
}

/** A segment read alone: ids from `m0` (its first item). */
interface Segment {
  artifacts: Artifact[];
  /** Its artifacts placed at an item index (ids, source), as the last call placed them. */
  placed?: { start: number; file: string; artifacts: Artifact[] };
}

/** The item objects a segment was last seen as (a grown run is another segment). */
interface Seen {
  items: readonly unknown[];
  segment: Segment;
}

/** Separates two model runs in one batch document, so that they do not merge into one turn. */
const SEPARATOR = '{"type":"message","role":"user","content":""}';

function placedId(id: string, start: number): { id: string; index: number } | undefined {
  const m = /^m(\d+)(\..*)?$/.exec(id);
  if (!m) return undefined;
  const index = Number(m[1]) + start;
  return { id: `m${index}${m[2] ?? ''}`, index };
}

function placedAt(a: Artifact, start: number, file: string): Artifact {
  const at = placedId(a.id, start)!;
  return { ...a, id: at.id, source: { file, line: at.index + 1, column: 1 } };
}

/** One per session (held by the IncrementalReader). */
export class ResponsesSegments {
  private readonly byFirst = new WeakMap<object, Seen>();
  private readonly byJson = new Map<string, Segment>();

  /**
   * The items' artifacts as the whole read makes them (before pairing), the source line of each
   * its first item's 1-based index; undefined when the items must be read whole. `bare`: the body
   * is the item array itself (segments are read in the body's shape, so nesting limits agree).
   */
  read(items: readonly unknown[], file: string, bare: boolean): Artifact[] | undefined {
    if (items.length > DEFAULT_MAX_RECORDS) return undefined;
    const bounds = segmentsOf(items);
    if (!bounds) return undefined;
    const segments: (Segment | undefined)[] = [];
    const missing: { at: number; json: string; bounds: Bounds }[] = [];
    for (const b of bounds) {
      let segment = this.known(items, b);
      if (!segment) {
        const slice = items.slice(b.start, b.end);
        let json: string;
        try {
          json = slice.map((item) => JSON.stringify(item)).join(',');
        } catch {
          return undefined;
        }
        const same = this.byJson.get(json);
        // A copy: the same content at another index is placed there, not moved.
        if (same) segment = this.remember(slice, { artifacts: same.artifacts });
        else missing.push({ at: segments.length, json, bounds: b });
      }
      segments.push(segment);
    }
    if (missing.length > 0) {
      const read = this.readBatch(missing, file, bare);
      if (!read) return undefined;
      missing.forEach((m, k) => {
        const segment = read[k]!;
        this.byJson.set(m.json, segment);
        segments[m.at] = this.remember(items.slice(m.bounds.start, m.bounds.end), segment);
      });
    }
    const out: Artifact[] = [];
    bounds.forEach((b, k) => {
      const segment = segments[k]!;
      const p = segment.placed;
      if (p?.start !== b.start || p.file !== file) {
        segment.placed = {
          start: b.start,
          file,
          artifacts: segment.artifacts.map((a) => placedAt(a, b.start, file)),
        };
      }
      for (const a of segment.placed!.artifacts) out.push(a);
    });
    return out;
  }

  /** The segment of these very item objects (no copy of the array: most segments are known). */
  private known(items: readonly unknown[], b: Bounds): Segment | undefined {
    const seen = this.byFirst.get(items[b.start] as object);
    if (!seen || seen.items.length !== b.end - b.start) return undefined;
    return seen.items.every((item, k) => item === items[b.start + k]) ? seen.segment : undefined;
  }

  private remember(slice: readonly unknown[], segment: Segment): Segment {
    this.byFirst.set(slice[0] as object, { items: slice, segment });
    return segment;
  }

  /**
   * The new segments read as one document (one parse, one reader run), a separator after each
   * model run, and split back by item index. Any diagnostic, or an artifact of no item: undefined
   * (the whole read reports it, or reads it otherwise).
   */
  private readBatch(
    missing: readonly { json: string; bounds: Bounds }[],
    file: string,
    bare: boolean,
  ): Segment[] | undefined {
    const parts: string[] = [];
    // Batch index → [segment, index in the segment]; a separator has none.
    const owner: ([number, number] | undefined)[] = [];
    missing.forEach((m, k) => {
      parts.push(m.json);
      for (let i = 0; i < m.bounds.end - m.bounds.start; i++) owner.push([k, i]);
      if (m.bounds.model) {
        parts.push(SEPARATOR);
        owner.push(undefined);
      }
    });
    const list = `[${parts.join(',')}]`;
    const out = readArtifacts(bare ? list : `{"input":${list}}`, `${file}.json`, 'responses');
    if (!out || out.diagnostics.length > 0) return undefined;
    const segments: Segment[] = missing.map(() => ({ artifacts: [] }));
    for (const a of out.artifacts) {
      const m = /^m(\d+)(\..*)?$/.exec(a.id);
      // Provenance would name items by their batch index (the reader sets none for these items).
      if (!m || a.provenance !== undefined) return undefined;
      const at = owner[Number(m[1])];
      if (!at) {
        if (a.kind === 'user') continue; // the separator's
        return undefined;
      }
      segments[at[0]]!.artifacts.push({ ...a, id: `m${at[1]}${m[2] ?? ''}` });
    }
    return segments;
  }
}
