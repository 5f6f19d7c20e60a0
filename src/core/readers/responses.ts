// OpenAI Responses API reader. Accepts a request body `{instructions?, input: [...]}` (or `input` as
// one string), a bare array of input items, a stored item list `{object: "list", data: [...]}`
// (`GET /responses/{id}/input_items`, `GET /conversations/{id}/items`) and a response object
// `{object: "response", instructions?, output: [...]}`. Item i becomes artifact `m<i>`; the
// `instructions` string becomes artifact `instructions`, first.
// - `message` items, typed or "easy" `{role, content}`: user → user, system and developer →
//   system (role developer kept), assistant → part of the assistant turn. input_text and
//   output_text parts are text; input_image, input_file, input_audio and refusal parts are kept
//   as opaque parts.
// - calls the client runs (function_call, custom_tool_call, computer_call, local_shell_call,
//   shell_call, apply_patch_call) are tool calls by `call_id`; their `*_output` items are tool
//   artifacts (responses-items.ts).
// - reasoning and the server-side tool items (web/file search, code interpreter, image
//   generation, MCP calls, tool lists and approvals) are kept untouched as opaque parts of the
//   assistant turn.
// Consecutive model items form one assistant artifact. An unknown item type is left out with one
// warning per type; a malformed item is an error (the document does not load).
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import { ReadContext } from './context.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import {
  artifact,
  CALL_OUTPUT,
  itemParts,
  MODEL_ITEMS,
  ModelTurns,
  OUTPUT_CALL,
  readItemCall,
  readItemOutput,
  str,
  type ItemSite,
} from './responses-items.js';
import { describeValue, isObject, joinPath, safeName, type JsonObject } from './values.js';

const CODE = 'invalid-responses-item';
const HINT =
  'Write each item as a Responses API input item: {"type":"message","role","content"}, ' +
  '{"type":"function_call","call_id","name","arguments"}, {"type":"function_call_output","call_id","output"}…';

const KNOWN_ITEMS: ReadonlySet<string> = new Set([
  'message',
  ...MODEL_ITEMS,
  ...CALL_OUTPUT.keys(),
  ...OUTPUT_CALL.keys(),
]);
/** Content part types only the Responses API uses (Chat Completions has text, image_url…). */
const RESPONSES_PARTS: ReadonlySet<string> = new Set([
  'input_text',
  'output_text',
  'input_image',
  'input_file',
  'input_audio',
  'refusal',
]);
const ROLES: ReadonlyMap<string, 'user' | 'system' | 'assistant'> = new Map([
  ['user', 'user'],
  ['system', 'system'],
  ['developer', 'system'],
  ['assistant', 'assistant'],
]);
/** Looked at by the detector: enough to tell the shape, cheap on a long session. */
const PROBE = 8;

/** One item in Responses' own vocabulary: a typed item, or a message with Responses parts. */
function isResponsesItem(item: unknown): boolean {
  if (!isObject(item)) return false;
  const type = item['type'];
  if (type !== undefined && type !== 'message') return typeof type === 'string' && KNOWN_ITEMS.has(type);
  if (typeof item['role'] !== 'string') return false;
  const content = item['content'];
  // An Anthropic message object is typed `message` too: its blocks are `text`, `tool_use`….
  if (type === 'message' && (typeof content === 'string' || (Array.isArray(content) && content.length === 0)))
    return true;
  return (
    Array.isArray(content) &&
    content.some((p) => isObject(p) && typeof p['type'] === 'string' && RESPONSES_PARTS.has(p['type']))
  );
}

function looksLikeItems(items: unknown[]): boolean {
  return items.slice(0, PROBE).some(isResponsesItem);
}

export function isResponsesDocument(root: unknown): boolean {
  if (Array.isArray(root)) return looksLikeItems(root);
  if (!isObject(root)) return false;
  if (root['object'] === 'response') return Array.isArray(root['output']);
  if (root['object'] === 'list') return Array.isArray(root['data']) && looksLikeItems(root['data']);
  const input = root['input'];
  // `instructions` is a Responses-only field: with it, plain {role, content} messages are Responses too.
  const instructions = typeof root['instructions'] === 'string';
  if (typeof input === 'string') return instructions;
  if (!Array.isArray(input)) return false;
  if (looksLikeItems(input)) return true;
  return instructions && input.slice(0, PROBE).some((m) => isObject(m) && typeof m['role'] === 'string');
}

interface Located {
  /** The items (or the one string input) and the field path they sit under ('' for a bare array). */
  items: unknown[] | string;
  path: string;
  root: JsonObject | null;
}

function locate(root: unknown): Located | null {
  if (Array.isArray(root)) return { items: root, path: '', root: null };
  if (!isObject(root)) return null;
  const key = root['object'] === 'response' ? 'output' : root['object'] === 'list' ? 'data' : 'input';
  const items = root[key];
  if (Array.isArray(items) || (key === 'input' && typeof items === 'string'))
    return { items, path: key, root };
  return null;
}

/** Scalar fields worth keeping: ids and settings, never text (`output_text` repeats the answer). */
const META_KEYS = ['id', 'model', 'previous_response_id', 'status', 'created_at', 'store', 'has_more'];

function metaOf(root: JsonObject | null): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  if (!root) return meta;
  for (const key of META_KEYS) {
    const v = root[key];
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')
      meta[key === 'id' ? 'response_id' : key] = v;
  }
  return meta;
}

/** Whether a stored list is newest first (`order=desc`, the API's default): every output precedes its call. */
function newestFirst(items: unknown[]): boolean {
  const calls = new Map<string, number>();
  let before = 0;
  let after = 0;
  items.forEach((item, i) => {
    if (!isObject(item) || typeof item['type'] !== 'string') return;
    const id = str(item, 'call_id');
    if (id !== undefined && CALL_OUTPUT.has(item['type']) && !calls.has(id)) calls.set(id, i);
  });
  items.forEach((item, i) => {
    if (!isObject(item) || typeof item['type'] !== 'string' || !OUTPUT_CALL.has(item['type'])) return;
    const at = calls.get(str(item, 'call_id') ?? '');
    if (at === undefined) return;
    if (i < at) before++;
    else after++;
  });
  return before > 0 && after === 0;
}

class ItemReader {
  readonly artifacts: Artifact[] = [];
  private readonly turns = new ModelTurns(this.artifacts);
  private readonly skipped = new Map<string, { at: SourcePos; count: number }>();

  constructor(private readonly ctx: ReadContext) {}

  private error(at: SourcePos, message: string): void {
    this.ctx.error(CODE, at, message, HINT);
  }

  private message(item: JsonObject, id: string, path: string, site: ItemSite): void {
    const role = item['role'];
    const kind = typeof role === 'string' ? ROLES.get(role) : undefined;
    if (typeof role !== 'string' || kind === undefined) {
      this.error(
        site.at,
        `\`${joinPath(path, 'role')}\` must be user, system, developer or assistant; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
      );
      return;
    }
    const value = item['content'];
    if (kind === 'assistant') {
      const parts = itemParts(value, site);
      if (parts) this.turns.parts(parts, id, site.at);
      return;
    }
    this.turns.close();
    const content = typeof value === 'string' ? value : itemParts(value, site);
    if (content === null) return;
    const shown = role === kind ? undefined : role;
    this.artifacts.push(artifact({ id, kind, role: shown, content, source: site.at }));
  }

  item(item: unknown, id: string, path: string, near: SourcePos): void {
    const at = this.ctx.pos(item, near);
    if (!isObject(item)) {
      this.error(at, `\`${path}\` must be an item object; found ${describeValue(item)}.`);
      return;
    }
    const site: ItemSite = { ctx: this.ctx, at, code: CODE, hint: HINT };
    const type = item['type'];
    if (type === 'message' || (type === undefined && 'role' in item))
      return this.message(item, id, path, site);
    if (typeof type !== 'string') {
      this.error(
        at,
        `\`${joinPath(path, 'type')}\` must be a string item type; found ${describeValue(type)}.`,
      );
      return;
    }
    if (MODEL_ITEMS.has(type)) return this.turns.parts([{ ...item, type }], id, at);
    if (CALL_OUTPUT.has(type)) {
      const call = readItemCall(item, site);
      if (call) this.turns.call(call, id, at);
      return;
    }
    if (!OUTPUT_CALL.has(type)) {
      // Left out as if absent: it neither ends the model's turn nor starts one.
      const name = safeName(type) ?? '(unnamed)';
      const seen = this.skipped.get(name) ?? { at, count: 0 };
      seen.count++;
      this.skipped.set(name, seen);
      return;
    }
    this.turns.close();
    const out = readItemOutput(item, id, site);
    if (out) this.artifacts.push(out);
  }

  /** Ends the open assistant turn (at the end of a list of items). */
  close(): void {
    this.turns.close();
  }

  finish(): void {
    this.turns.close();
    for (const [type, { at, count }] of this.skipped) {
      this.ctx.warning(
        'skipped-item',
        at,
        `Left out ${count} item${count === 1 ? '' : 's'} of type ${type}, which this reader does not know (first here).`,
        'Nothing to do if these items hold no conversation; otherwise report the item type.',
      );
    }
  }
}

/** `instructions`: a string (the system prompt), or, on a response object, a list of input items. */
function readInstructions(root: JsonObject, reader: ItemReader, ctx: ReadContext): void {
  const value = root['instructions'];
  const near = ctx.pos(root);
  if (value === undefined || value === null || value === '') return;
  if (typeof value === 'string') {
    reader.artifacts.push(artifact({ id: 'instructions', kind: 'system', content: value, source: near }));
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, i) => reader.item(item, `s${i}`, joinPath('instructions', i), ctx.pos(value, near)));
    reader.close();
    return;
  }
  ctx.error(
    CODE,
    near,
    `\`instructions\` must be a string or an array of input items; found ${describeValue(value)}.`,
    'Write the instructions as a string.',
  );
}

export function readResponses(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: Diagnostic[] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const found = locate(doc.value);
  if (!found) {
    ctx.error(
      CODE,
      ctx.pos(doc.value),
      `A Responses transcript must be an array of items, an object with an \`input\` array, a list ({"object":"list","data":[...]}) or a response object; found ${describeValue(doc.value)}.`,
      'Put the items under `input`, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const { root, path } = found;
  const reader = new ItemReader(ctx);
  if (root) readInstructions(root, reader, ctx);
  const near = ctx.pos(root ?? doc.value);
  if (typeof found.items === 'string') {
    // `input` as one string is one user message.
    reader.artifacts.push(artifact({ id: 'input', kind: 'user', content: found.items, source: near }));
  } else {
    const items = found.items;
    const arrayAt = ctx.pos(items, near);
    let order = items.map((_, i) => i);
    if (root?.['object'] === 'list' && newestFirst(items)) {
      order = order.reverse();
      ctx.warning(
        'responses-list-order',
        arrayAt,
        'The list is newest first (order=desc, the API default): every tool output comes before its call. It is read oldest first.',
        'List the items with order=asc to save them in conversation order.',
      );
    }
    for (const i of order) reader.item(items[i], `m${i}`, joinPath(path, i), arrayAt);
    if (root?.['has_more'] === true) {
      ctx.warning(
        'partial-list',
        near,
        'The list says has_more: it is one page, and the items after it are not in this file.',
        'Fetch every page (follow `after` = last_id) and save the items together.',
      );
    }
  }
  reader.finish();
  return { artifacts: reader.artifacts, meta: metaOf(root), diagnostics };
}
