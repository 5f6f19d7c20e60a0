// The fields of one LangChain message: its content (a string, or a list of strings and content
// blocks) and an AIMessage's tool calls (`tool_calls`, or the OpenAI-shaped
// `additional_kwargs.tool_calls` / `function_call` of messages serialized before `tool_calls`
// existed). `invalid_tool_calls` (arguments that did not parse) are reported, never read as calls.
import type { Content, ContentPart, SourcePos, ToolCall } from '../types.js';
import type { ReadContext } from './context.js';
import { readPart } from './content.js';
import { describeValue, isObject, joinPath, type JsonObject } from './values.js';

export const CODE = 'invalid-message';

/**
 * Blocks that repeat a call of the message's `tool_calls` inside its content (Anthropic's
 * tool_use, the v1 standard tool_call…): the call is read once, from `tool_calls`.
 */
export const CALL_BLOCKS: ReadonlySet<string> = new Set([
  'tool_use',
  'tool_call',
  'tool_call_chunk',
  'invalid_tool_call',
  'function_call',
]);

export interface FieldSite {
  ctx: ReadContext;
  /** Path of the message's fields object (`[3].kwargs`, `messages[3].data`). */
  path: string;
  /** Position of the fields object. */
  near: SourcePos;
}

function bad(
  site: FieldSite,
  field: string,
  expected: string,
  value: unknown,
  hint: string,
  near?: SourcePos,
): null {
  site.ctx.error(
    CODE,
    near ?? site.near,
    `\`${joinPath(site.path, field)}\` must be ${expected}; found ${describeValue(value)}.`,
    hint,
  );
  return null;
}

/** `content`: a string, or a list of strings and `{type}` blocks; `callIds` name blocks to drop. */
export function readLcContent(value: unknown, site: FieldSite, callIds: ReadonlySet<string>): Content | null {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '';
  if (!Array.isArray(value)) {
    return bad(
      site,
      'content',
      'a string or a list of content blocks',
      value,
      'Write the content as text or as {"type":...} blocks.',
    );
  }
  const parts: ContentPart[] = [];
  let ok = true;
  const near = site.ctx.pos(value, site.near);
  value.forEach((block, i) => {
    if (typeof block === 'string') {
      parts.push({ type: 'text', text: block });
      return;
    }
    if (isObject(block) && typeof block['type'] === 'string' && CALL_BLOCKS.has(block['type'])) {
      const id = block['id'] ?? block['call_id'];
      if (typeof id === 'string' && callIds.has(id)) return;
    }
    const part = readPart(block, {
      ctx: site.ctx,
      path: joinPath(joinPath(site.path, 'content'), i),
      near,
      code: CODE,
    });
    if (part) parts.push(part);
    else ok = false;
  });
  return ok ? parts : null;
}

function args(value: unknown, path: string, site: FieldSite, near: SourcePos): string | null {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  if (typeof value === 'object') return JSON.stringify(value);
  return bad(
    { ...site, path },
    '',
    'an object of arguments',
    value,
    'Give the tool call its arguments object.',
    near,
  );
}

const CALL_HINT = 'Each tool call is {"name", "args": {...}, "id", "type": "tool_call"}.';

function readCall(call: unknown, path: string, site: FieldSite): ToolCall | null {
  const near = site.ctx.pos(call, site.near);
  if (!isObject(call)) return bad({ ...site, path }, '', 'a tool call object', call, CALL_HINT, near);
  const at = { ...site, path };
  const id = call['id'];
  const name = call['name'];
  if (typeof id !== 'string' || id === '') return bad(at, 'id', 'a non-empty string', id, CALL_HINT, near);
  if (typeof name !== 'string' || name === '')
    return bad(at, 'name', 'a non-empty string', name, CALL_HINT, near);
  const a = args(call['args'], joinPath(path, 'args'), site, near);
  return a === null ? null : { id, name, arguments: a };
}

const OPENAI_HINT = 'An OpenAI-shaped call is {"id", "type": "function", "function": {"name", "arguments"}}.';

function readOpenAiCall(call: unknown, path: string, site: FieldSite, legacyId?: string): ToolCall | null {
  const near = site.ctx.pos(call, site.near);
  const at = { ...site, path };
  if (!isObject(call)) return bad(at, '', 'a tool call object', call, OPENAI_HINT, near);
  const fn = legacyId === undefined ? call['function'] : call;
  const id = legacyId ?? call['id'];
  if (typeof id !== 'string' || id === '') return bad(at, 'id', 'a non-empty string', id, OPENAI_HINT, near);
  const fnPath = legacyId === undefined ? joinPath(path, 'function') : path;
  const fnNear = site.ctx.pos(fn, near);
  if (!isObject(fn)) return bad({ ...site, path: fnPath }, '', 'an object', fn, OPENAI_HINT, fnNear);
  const name = fn['name'];
  if (typeof name !== 'string' || name === '')
    return bad({ ...site, path: fnPath }, 'name', 'a non-empty string', name, OPENAI_HINT, fnNear);
  const a = args(fn['arguments'], joinPath(fnPath, 'arguments'), site, fnNear);
  return a === null ? null : { id, name, arguments: a };
}

function readList(
  value: unknown,
  field: string,
  site: FieldSite,
  read: (call: unknown, path: string) => ToolCall | null,
): ToolCall[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return bad(site, field, 'a list of tool calls', value, CALL_HINT);
  const calls: ToolCall[] = [];
  let ok = true;
  value.forEach((call, i) => {
    const parsed = read(call, joinPath(joinPath(site.path, field), i));
    if (parsed) calls.push(parsed);
    else ok = false;
  });
  return ok ? calls : null;
}

export interface AiCalls {
  calls: ToolCall[];
  /** The message made a legacy `function_call` (answered by the next FunctionMessage). */
  legacy: boolean;
  /** Ids of valid and invalid calls: content blocks repeating them are dropped. */
  ids: Set<string>;
}

/** An AIMessage's calls; `legacyId` is the id a legacy function_call gets. */
export function readAiCalls(fields: JsonObject, site: FieldSite, legacyId: string): AiCalls | null {
  const kwargs = fields['additional_kwargs'];
  const extra = isObject(kwargs) ? kwargs : {};
  const extraSite = {
    ...site,
    path: joinPath(site.path, 'additional_kwargs'),
    near: site.ctx.pos(kwargs, site.near),
  };
  let calls: ToolCall[] | null;
  if (fields['tool_calls'] !== undefined && fields['tool_calls'] !== null) {
    calls = readList(fields['tool_calls'], 'tool_calls', site, (c, p) => readCall(c, p, site));
  } else {
    // Serialized before LangChain had `tool_calls`: the provider's own OpenAI-shaped calls.
    calls = readList(extra['tool_calls'], 'tool_calls', extraSite, (c, p) => readOpenAiCall(c, p, extraSite));
  }
  if (calls === null) return null;
  const fc = extra['function_call'];
  const legacy = isObject(fc);
  if (legacy) {
    const call = readOpenAiCall(fc, joinPath(extraSite.path, 'function_call'), extraSite, legacyId);
    if (call === null) return null;
    calls.push(call);
  }
  const ids = new Set(calls.map((c) => c.id));
  const invalid = fields['invalid_tool_calls'];
  if (Array.isArray(invalid)) {
    invalid.forEach((call, i) => {
      if (isObject(call) && typeof call['id'] === 'string') ids.add(call['id']);
      site.ctx.warning(
        'invalid-tool-call',
        site.ctx.pos(call, site.ctx.pos(invalid, site.near)),
        `\`${joinPath(joinPath(site.path, 'invalid_tool_calls'), i)}\` is a tool call LangChain could not parse; it is not read as a call.`,
        'A result answering it is reported as unpaired; fix the arguments in the source if the call ran.',
      );
    });
  }
  return { calls, legacy, ids };
}
