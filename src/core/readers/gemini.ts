// Google Gemini `contents` reader: a generateContent request body `{contents, systemInstruction?
// (or system_instruction), tools?, ...}`, or a bare array of Content objects `{role, parts}`.
// - systemInstruction → artifact `system`;
// - content i → artifact `m<i>`: role `model` → assistant (its functionCall parts are its
//   tool_calls); role `user` (or unset, or `function` in older recordings) → one `tool` artifact
//   `m<i>.<j>` per functionResponse part j, then the user artifact `m<i>` with what else it holds
//   (left out when it held only responses). Parts: see gemini-parts.ts.
// Gemini call ids are optional. A call without one gets `fc_<i>_<j>` (content i, part j); a
// response without one answers the OLDEST still-unanswered call of its name (calls are answered
// in order) and takes that call's id; when no call of its name is waiting, it gets `fr_<i>_<j>`,
// which answers nothing (pairing then reports it). Ids that are present are used as they are.
import type { Artifact, SourcePos, ToolCall } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { ReadContext } from './context.js';
import { readGeminiParts, type GeminiParts, type PartRole } from './gemini-parts.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, joinPath, scalarFields, type JsonObject } from './values.js';

const CODE = 'invalid-message';
const ROLES = ['user', 'model', 'function'];

/** Gemini parts carry no `type` (that is how other SDKs' `parts`, e.g. Vercel UI messages, differ). */
function isGeminiContent(item: unknown, roles: readonly (string | undefined)[]): boolean {
  if (!isObject(item) || !roles.includes(item['role'] as string | undefined)) return false;
  const parts = item['parts'];
  return Array.isArray(parts) && parts.slice(0, 3).every((p) => isObject(p) && !('type' in p));
}

/**
 * `{contents: [...]}` whose first items are Content objects (or empty, next to a system
 * instruction), or a bare array whose first items are `{role: user|model, parts}`.
 */
export function isGeminiDocument(root: unknown): boolean {
  if (Array.isArray(root)) {
    return root.length > 0 && root.slice(0, 3).every((c) => isGeminiContent(c, ['user', 'model']));
  }
  if (!isObject(root) || !Array.isArray(root['contents'])) return false;
  const contents = root['contents'];
  if (contents.length === 0)
    return isObject(root['systemInstruction']) || isObject(root['system_instruction']);
  return contents.slice(0, 3).every((c) => isGeminiContent(c, [...ROLES, undefined]));
}

interface Pending {
  name: string;
  id: string;
}

class ContentsReader {
  readonly artifacts: Artifact[] = [];
  /** Calls not answered yet, oldest first. */
  private readonly pending: Pending[] = [];

  constructor(private readonly ctx: ReadContext) {}

  system(value: unknown, root: JsonObject): void {
    if (value === undefined || value === null) return;
    const near = this.ctx.pos(root);
    if (typeof value === 'string') {
      if (value !== '')
        this.artifacts.push(buildArtifact({ id: 'system', kind: 'system', content: value, source: near }));
      return;
    }
    const key = 'systemInstruction' in root ? 'systemInstruction' : 'system_instruction';
    if (!isObject(value)) {
      this.ctx.error(
        CODE,
        near,
        `\`${key}\` must be a Content object {"parts": [...]}; found ${describeValue(value)}.`,
        'Write the system instruction as {"parts": [{"text": "..."}]}.',
      );
      return;
    }
    const at = this.ctx.pos(value, near);
    const read = readGeminiParts(value['parts'], 'system', {
      ctx: this.ctx,
      path: joinPath(key, 'parts'),
      near: at,
      code: CODE,
    });
    if (read && read.content.length > 0) {
      this.artifacts.push(buildArtifact({ id: 'system', kind: 'system', content: read.content, source: at }));
    }
  }

  content(item: unknown, i: number, path: string): void {
    const near = this.ctx.pos(item);
    if (!isObject(item)) {
      this.ctx.error(
        CODE,
        near,
        `\`${path}\` must be a Content object; found ${describeValue(item)}.`,
        'Write each content as {"role": "user" | "model", "parts": [...]}.',
      );
      return;
    }
    const role = item['role'] ?? 'user';
    if (typeof role !== 'string' || !ROLES.includes(role)) {
      this.ctx.error(
        CODE,
        near,
        `\`${joinPath(path, 'role')}\` must be user, model or function; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
        'Gemini contents alternate user and model turns; put the system prompt in `systemInstruction`.',
      );
      return;
    }
    const partRole: PartRole = role === 'model' ? 'model' : 'caller';
    const read = readGeminiParts(item['parts'], partRole, {
      ctx: this.ctx,
      path: joinPath(path, 'parts'),
      near,
      code: CODE,
    });
    if (!read) return;
    if (role === 'model') this.model(read, i, near);
    else this.caller(read, i, role, near);
  }

  private model(read: GeminiParts, i: number, source: SourcePos): void {
    const calls: ToolCall[] = read.calls.map((c) => {
      const id = c.id ?? `fc_${i}_${c.partIndex}`;
      this.pending.push({ name: c.name, id });
      return { id, name: c.name, arguments: c.arguments };
    });
    this.artifacts.push(
      buildArtifact({
        id: `m${i}`,
        kind: 'assistant',
        content: read.content,
        tool_calls: calls.length > 0 ? calls : undefined,
        source,
      }),
    );
  }

  /** The id a response answers, taking its call off the pending list (see the header). */
  private answer(name: string, id: string | undefined, fallback: string): string {
    const at = id === undefined ? this.pending.findIndex((p) => p.name === name) : this.lastWithId(id);
    const call = at >= 0 ? this.pending.splice(at, 1)[0] : undefined;
    return id ?? call?.id ?? fallback;
  }

  /** The nearest earlier pending call with this id, as pairing.ts pairs them. */
  private lastWithId(id: string): number {
    for (let k = this.pending.length - 1; k >= 0; k--) if (this.pending[k]?.id === id) return k;
    return -1;
  }

  private caller(read: GeminiParts, i: number, role: string, source: SourcePos): void {
    const shownRole = role === 'user' ? undefined : role;
    for (const r of read.responses) {
      this.artifacts.push(
        buildArtifact({
          id: `m${i}.${r.partIndex}`,
          kind: 'tool',
          role: shownRole,
          content: r.content,
          tool: r.name,
          call_id: this.answer(r.name, r.id, `fr_${i}_${r.partIndex}`),
          is_error: r.isError ? true : undefined,
          source: this.ctx.pos(r.node, source),
        }),
      );
    }
    // A user turn's own text comes after its function responses, as the model read them.
    if (read.responses.length === 0 || read.content.length > 0) {
      this.artifacts.push(
        buildArtifact({ id: `m${i}`, kind: 'user', role: shownRole, content: read.content, source }),
      );
    }
  }
}

export function readGemini(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: ReaderOutput['diagnostics'] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const root = doc.value;
  const rootObj = isObject(root) ? root : null;
  const contents = rootObj ? rootObj['contents'] : root;
  if (!Array.isArray(contents)) {
    ctx.error(
      CODE,
      ctx.pos(root),
      `A Gemini transcript must be an array of contents or an object with a \`contents\` array; found ${describeValue(contents)} there.`,
      'Write {"systemInstruction": {...}, "contents": [...]}, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const reader = new ContentsReader(ctx);
  if (rootObj) reader.system(rootObj['systemInstruction'] ?? rootObj['system_instruction'], rootObj);
  contents.forEach((item, i) => reader.content(item, i, joinPath(rootObj ? 'contents' : '', i)));
  const meta = rootObj ? scalarFields(rootObj, []) : {};
  return { artifacts: reader.artifacts, meta, diagnostics };
}
