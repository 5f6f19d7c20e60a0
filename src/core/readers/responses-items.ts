// OpenAI Responses API items → artifacts. Shared by the Responses reader (request bodies, stored
// item lists, response objects) and the Codex rollout reader (whose `response_item` payloads are
// the same items). Each reader walks its own records; this file reads one item's content, call or
// output, and assembles consecutive model items into assistant turns.
import { parseJsonText } from '../json/text.js';
import type { Artifact, Content, ContentPart, SourcePos, ToolCall } from '../types.js';
import { makeArtifact } from './artifact-builder.js';
import type { ReadContext } from './context.js';
import { describeValue, isObject, type JsonObject } from './values.js';

/** Where an item is and how its reader reports problems. */
export interface ItemSite {
  ctx: ReadContext;
  at: SourcePos;
  code: string;
  hint: string;
}

/** Parts read as text; `text` is what Codex's older rollouts wrote. */
export const TEXT_PARTS: ReadonlySet<string> = new Set(['input_text', 'output_text', 'text']);

/**
 * Items of the model's turn kept untouched, as opaque parts of the assistant artifact: reasoning
 * (encrypted, must be passed back as written), the server-side tools whose results are inline
 * (web and file search, code interpreter, image generation, MCP calls and tool lists), an MCP
 * approval request with the client's response to it (kept with the turn whose request it answers,
 * so the two stay together), compaction items and references to stored items.
 */
export const MODEL_ITEMS: ReadonlySet<string> = new Set([
  'reasoning',
  'web_search_call',
  'file_search_call',
  'code_interpreter_call',
  'image_generation_call',
  'mcp_call',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'compaction',
  'item_reference',
]);

/** Calls the client executes (paired by `call_id` with their output item) → their output's type. */
export const CALL_OUTPUT: ReadonlyMap<string, string> = new Map([
  ['function_call', 'function_call_output'],
  ['custom_tool_call', 'custom_tool_call_output'],
  ['computer_call', 'computer_call_output'],
  ['local_shell_call', 'local_shell_call_output'],
  ['shell_call', 'shell_call_output'],
  ['apply_patch_call', 'apply_patch_call_output'],
]);
export const OUTPUT_CALL: ReadonlyMap<string, string> = new Map(
  [...CALL_OUTPUT].map(([call, output]) => [output, call]),
);

/** The tool name a built-in call is recorded under (function and custom calls carry their own). */
export const BUILTIN_NAMES: ReadonlyMap<string, string> = new Map([
  ['computer_call', 'computer'],
  ['local_shell_call', 'local_shell'],
  ['shell_call', 'shell'],
  ['apply_patch_call', 'apply_patch'],
]);

/** `A` or `An` before a type name (the names here are known schema words). */
function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'An' : 'A';
}

export function str(item: JsonObject, key: string): string | undefined {
  const v = item[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/**
 * A message's content as parts: a string is one text part, input_text / output_text become text
 * parts, every other part (images, files, audio, refusals) is kept as parsed. Null after reporting.
 */
export function itemParts(value: unknown, site: ItemSite): ContentPart[] | null {
  const { ctx, at, code, hint } = site;
  if (typeof value === 'string') return [{ type: 'text', text: value }];
  if (!Array.isArray(value)) {
    ctx.error(
      code,
      at,
      `The item's \`content\` must be an array of parts; found ${describeValue(value)}.`,
      hint,
    );
    return null;
  }
  const out: ContentPart[] = [];
  for (const p of value) {
    if (!isObject(p) || typeof p['type'] !== 'string') {
      ctx.error(
        code,
        ctx.pos(p, at),
        `A content part must be an object with a \`type\`; found ${describeValue(p)}.`,
        hint,
      );
      return null;
    }
    if (!TEXT_PARTS.has(p['type'])) {
      out.push({ ...p, type: p['type'] });
      continue;
    }
    if (typeof p['text'] !== 'string') {
      ctx.error(
        code,
        ctx.pos(p, at),
        `${article(p['type'])} ${p['type']} part's \`text\` must be a string; found ${describeValue(p['text'])}.`,
        hint,
      );
      return null;
    }
    out.push({ type: 'text', text: p['text'] });
  }
  return out;
}

export function textOf(parts: readonly ContentPart[]): string {
  return parts.map((p) => (p.type === 'text' ? String(p.text) : '')).join('');
}

function missing(item: JsonObject, field: string, site: ItemSite): null {
  site.ctx.error(
    site.code,
    site.at,
    `${article(String(item['type']))} ${String(item['type'])} item must have a non-empty \`${field}\`.`,
    site.hint,
  );
  return null;
}

function asArguments(raw: unknown): string {
  return typeof raw === 'string' ? raw : raw === undefined ? '{}' : JSON.stringify(raw);
}

/**
 * The tool call of a call item (its type a key of CALL_OUTPUT). Function and custom calls keep
 * their name and arguments (a custom call's free-form `input`); a local shell call is
 * `local_shell` with its `action`; the other built-ins are named by BUILTIN_NAMES with every
 * field but `type` and `call_id` as arguments, so the emitter can write the item back.
 */
export function readItemCall(item: JsonObject, site: ItemSite): ToolCall | null {
  const type = String(item['type']);
  const id = str(item, 'call_id') ?? str(item, 'id');
  if (id === undefined) return missing(item, 'call_id', site);
  if (type === 'local_shell_call')
    return { id, name: 'local_shell', arguments: asArguments(item['action'] ?? {}) };
  const builtin = BUILTIN_NAMES.get(type);
  if (builtin !== undefined) {
    const rest: JsonObject = {};
    for (const [k, v] of Object.entries(item)) if (k !== 'type' && k !== 'call_id') rest[k] = v;
    return { id, name: builtin, arguments: JSON.stringify(rest) };
  }
  const name = str(item, 'name');
  if (name === undefined) return missing(item, 'name', site);
  const raw = type === 'custom_tool_call' ? item['input'] : item['arguments'];
  return { id, name, arguments: asArguments(raw) };
}

/** Codex wraps shell results as `{"output": "...", "metadata": {"exit_code": n}}` in the output string. */
function exitCodeOf(output: string): number | undefined {
  if (!output.startsWith('{') || !output.includes('exit_code')) return undefined;
  try {
    const parsed: unknown = parseJsonText(output);
    const code =
      isObject(parsed) && isObject(parsed['metadata']) ? parsed['metadata']['exit_code'] : undefined;
    return typeof code === 'number' && Number.isInteger(code) ? code : undefined;
  } catch {
    return undefined;
  }
}

interface OutputFields {
  content: Content;
  exit_code?: number;
  is_error?: boolean;
}

/** A shell_call_output's chunks as JSON text (what the stabilizer trims and masks), and their outcome. */
function shellOutput(output: unknown, site: ItemSite): OutputFields | null {
  if (!Array.isArray(output)) {
    site.ctx.error(
      site.code,
      site.at,
      `A shell_call_output's \`output\` must be an array of {stdout, stderr, outcome}; found ${describeValue(output)}.`,
      site.hint,
    );
    return null;
  }
  const last: unknown = output[output.length - 1];
  const outcome = isObject(last) && isObject(last['outcome']) ? last['outcome'] : undefined;
  const code = outcome?.['exit_code'];
  const exitCode = typeof code === 'number' && Number.isInteger(code) ? code : undefined;
  const failed = (exitCode !== undefined && exitCode !== 0) || outcome?.['type'] === 'timeout';
  return { content: JSON.stringify(output), exit_code: exitCode, is_error: failed ? true : undefined };
}

function outputFields(item: JsonObject, site: ItemSite): OutputFields | null {
  const type = item['type'];
  let output = item['output'];
  if (type === 'computer_call_output') return { content: [{ ...item, type }] };
  if (type === 'shell_call_output') return shellOutput(output, site);
  if (type === 'apply_patch_call_output') {
    return {
      content: typeof output === 'string' ? output : '',
      is_error: item['status'] === 'failed' ? true : undefined,
    };
  }
  // Some Codex versions wrap the output as {content, success}.
  if (isObject(output) && 'content' in output) output = output['content'];
  if (typeof output === 'string') {
    const exitCode = exitCodeOf(output);
    return {
      content: output,
      exit_code: exitCode,
      is_error: exitCode !== undefined && exitCode !== 0 ? true : undefined,
    };
  }
  const parts = itemParts(output ?? '', site);
  return parts === null ? null : { content: parts };
}

/**
 * The tool artifact of an output item (its type a key of OUTPUT_CALL). The output's type is kept
 * as `role` when it is not a plain function_call_output: the emitter writes the call back as the
 * built-in it was. A local_shell_call_output names its call by `id` in the API, `call_id` in Codex.
 */
export function readItemOutput(item: JsonObject, id: string, site: ItemSite): Artifact | null {
  const type = String(item['type']);
  const callId = str(item, 'call_id') ?? (type === 'local_shell_call_output' ? str(item, 'id') : undefined);
  if (callId === undefined) return missing(item, 'call_id', site);
  const fields = outputFields(item, site);
  if (fields === null) return null;
  return artifact({
    id,
    kind: 'tool',
    role: type === 'function_call_output' ? undefined : type,
    ...fields,
    call_id: callId,
    source: site.at,
  });
}

/** An artifact from the fields at hand; the others stay absent. */
export const artifact = makeArtifact;

interface Turn {
  id: string;
  at: SourcePos;
  parts: ContentPart[];
  calls: ToolCall[];
}

/**
 * Consecutive model items (reasoning, assistant messages, calls) form one assistant artifact, as
 * one Chat Completions assistant message would, named after its first item. A model item after a
 * call starts a new one: an artifact holds its parts before its calls, and a reasoning item must
 * stay before the call it led to when the turn is written back.
 */
export class ModelTurns {
  private turn: Turn | null = null;

  constructor(private readonly out: Artifact[]) {}

  parts(parts: readonly ContentPart[], id: string, at: SourcePos): void {
    // A message with no parts adds nothing: it neither splits nor starts a turn.
    if (parts.length === 0) return;
    if (this.turn && this.turn.calls.length > 0) this.close();
    this.turn ??= { id, at, parts: [], calls: [] };
    for (const p of parts) this.turn.parts.push(p);
  }

  call(call: ToolCall, id: string, at: SourcePos): void {
    this.turn ??= { id, at, parts: [], calls: [] };
    this.turn.calls.push(call);
  }

  close(): void {
    const t = this.turn;
    this.turn = null;
    if (!t || (t.parts.length === 0 && t.calls.length === 0)) return;
    // The client's answer to an MCP approval request is the user's decision (issue 31): tag `decision`.
    const decided = t.parts.some((p) => p.type === 'mcp_approval_response');
    this.out.push(
      artifact({
        id: t.id,
        kind: 'assistant',
        content: t.parts,
        tool_calls: t.calls.length > 0 ? t.calls : undefined,
        tags: decided ? ['decision'] : undefined,
        source: t.at,
      }),
    );
  }
}
