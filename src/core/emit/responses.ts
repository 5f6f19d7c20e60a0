// Writes a stabilized context as an OpenAI Responses API request body, `{input: [...]}`:
// - system, policy, phase and summary items → `system` messages (`developer` when the source said
//   so), in context order; `instructions` is not used, so several system items keep their order;
// - user items → `user` messages with input_text / input_image / input_file parts (parts.ts: other
//   formats' images and files converted, a plain-text document its text);
// - an assistant item → an `assistant` message of output_text and refusal parts, with the items
//   its parts hold written back where they were (reasoning, web search…), then one call item per
//   tool call, then the output of each call;
// - tool results → `function_call_output`, or the built-in output they were read from (their
//   `role`: computer_call_output, local_shell_call_output…), with the call written as that
//   built-in too. A built-in whose output no longer has its shape (a placeholder) is written as a
//   function call and output, so the pair stays valid.
// Parts the Responses API has no place for (Anthropic thinking and server tool blocks, audio,
// provider-specific parts…) are left out (parts.ts); responsesNotes says which, for the ledger.
import { parseJsonText } from '../json/text.js';
import { BUILTIN_NAMES, OUTPUT_CALL } from '../readers/responses-items.js';
import type { ContextItem } from '../stabilize/types.js';
import type { Content, ContentPart, ToolCall } from '../types.js';
import { answersOf } from './answers.js';
import { roleOf } from './openai.js';
import { isResponsesItem, PartLog, type Slot } from './parts.js';
import { isObject } from './rule-hit.js';
import { isStandaloneOutput } from './standalone.js';

export type ResponsesItem = Record<string, unknown> & { type: string };
export interface ResponsesRequest {
  input: ResponsesItem[];
}

const MESSAGE_ROLES: ReadonlySet<string> = new Set(['user', 'system', 'developer']);

/**
 * A part of a message of `role` (or of a tool output, slot `tool`) as the Responses API takes it
 * (parts.ts), or undefined when it is left out (counted in `log`).
 */
function partOf(item: ContextItem, i: number, p: ContentPart, slot: Slot, log: PartLog): unknown {
  if (p.type === 'text')
    return slot === 'assistant'
      ? { type: 'output_text', text: p.text, annotations: [] }
      : { type: 'input_text', text: p.text };
  const fate = log.part(item.id, i, p, slot);
  return fate.fate === 'left' ? undefined : fate.part;
}

function slotOf(role: string): Slot {
  return role === 'assistant' ? 'assistant' : role === 'user' ? 'user' : 'system';
}

/**
 * The items of one message: consecutive parts form a message of `role`, item parts are written
 * back as the items they were, in place. A string stays a string.
 */
function messageItems(item: ContextItem, role: string, log: PartLog): ResponsesItem[] {
  const content = item.content;
  if (typeof content === 'string') {
    if (role !== 'assistant') return [{ type: 'message', role, content }];
    return content === ''
      ? []
      : [{ type: 'message', role, content: [{ type: 'output_text', text: content, annotations: [] }] }];
  }
  const out: ResponsesItem[] = [];
  let parts: unknown[] = [];
  let dropped = false;
  const flush = (): void => {
    if (parts.length > 0) out.push({ type: 'message', role, content: parts });
    parts = [];
  };
  content.forEach((p, i) => {
    if (isResponsesItem(p)) {
      flush();
      out.push({ ...p });
      return;
    }
    const part = partOf(item, i, p, slotOf(role), log);
    if (part === undefined) dropped = true;
    else parts.push(part);
  });
  flush();
  // An empty array stays what the context holds; a message whose parts all left is left out.
  if (out.length === 0 && !dropped && role !== 'assistant') out.push({ type: 'message', role, content: [] });
  return out;
}

function textOnly(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => String(p.text))
    .join('\n');
}

function functionOutput(item: ContextItem, log: PartLog): string | unknown[] {
  const content = item.content;
  if (typeof content === 'string') return content;
  return content.map((p, i) => partOf(item, i, p, 'tool', log)).filter((p) => p !== undefined);
}

function parsedJson(text: string): unknown {
  try {
    return parseJsonText(text) as unknown;
  } catch {
    return undefined;
  }
}

function parsedObject(text: string): Record<string, unknown> | null {
  const v = parsedJson(text);
  return isObject(v) ? v : null;
}

/** The built-in output a result was read from, or null when its content lost that shape. */
function builtinOutput(type: string, r: ContextItem, callId: string, log: PartLog): ResponsesItem | null {
  switch (type) {
    case 'custom_tool_call_output':
      return { type, call_id: callId, output: functionOutput(r, log) };
    case 'local_shell_call_output':
      // The API names the call by `id` here.
      return { type, id: callId, output: textOnly(r.content) };
    case 'apply_patch_call_output':
      return {
        type,
        call_id: callId,
        status: r.is_error ? 'failed' : 'completed',
        output: textOnly(r.content),
      };
    case 'shell_call_output': {
      const text = textOnly(r.content);
      const parsed = parsedJson(text);
      // Cut or masked past parsing: the text the stabilizer kept is sent as one chunk.
      const output = Array.isArray(parsed)
        ? parsed
        : [{ stdout: text, stderr: '', outcome: { type: 'exit', exit_code: r.is_error ? 1 : 0 } }];
      return { type, call_id: callId, output };
    }
    case 'computer_call_output': {
      const part = Array.isArray(r.content) && r.content.length === 1 ? r.content[0] : undefined;
      if (part?.type !== type) return null;
      const { type: _t, call_id: _c, ...rest } = part as Record<string, unknown>;
      return { type, call_id: callId, ...rest };
    }
    default:
      return null;
  }
}

/** The built-in call item of `call`, answered by an output of `outputType`; null when the call is no such built-in. */
function builtinCall(call: ToolCall, outputType: string): ResponsesItem | null {
  const type = OUTPUT_CALL.get(outputType);
  if (type === undefined || type === 'function_call') return null;
  if (type === 'custom_tool_call') return { type, call_id: call.id, name: call.name, input: call.arguments };
  // A built-in is recorded under its own name: another name means the output answers something else.
  const fields = BUILTIN_NAMES.get(type) === call.name ? parsedObject(call.arguments) : null;
  if (fields === null) return null;
  if (type === 'local_shell_call') return { type, call_id: call.id, status: 'completed', action: fields };
  const { type: _t, call_id: _c, ...rest } = fields;
  return { type, call_id: call.id, ...rest };
}

function functionCall(call: ToolCall): ResponsesItem {
  return { type: 'function_call', call_id: call.id, name: call.name, arguments: call.arguments };
}

/**
 * The role of an item's message: its source role when that is a Responses message role (a Codex
 * rollout sends its environment context as user messages, read as system items), else the Chat
 * Completions role of its kind.
 */
function messageRole(item: ContextItem): string {
  if (item.kind !== 'assistant' && item.role !== undefined && MESSAGE_ROLES.has(item.role)) return item.role;
  const role = roleOf(item);
  return role === 'tool' ? 'user' : role;
}

/** The output item type a result was read from (its role), function_call_output by default. */
function outputTypeOf(r: ContextItem): string {
  return r.role !== undefined && OUTPUT_CALL.has(r.role) ? r.role : 'function_call_output';
}

/** The request, the context item each input item came from, and what the request changed in each. */
export interface ResponsesWithOrigins {
  request: ResponsesRequest;
  origins: string[];
  /** Context item id → notes: parts converted or left out, built-ins written as function calls. */
  notes: Map<string, string[]>;
}

export function toResponses(context: readonly ContextItem[]): ResponsesRequest {
  return toResponsesWithOrigins(context).request;
}

export function toResponsesWithOrigins(context: readonly ContextItem[]): ResponsesWithOrigins {
  // Which result answers which call: the nearest earlier pending call of its id (ids are reused).
  const answers = answersOf(context);
  const position = new Map(context.map((c, i) => [c, i]));
  const input: ResponsesItem[] = [];
  const origins: string[] = [];
  const log = new PartLog('responses');
  const emit = (items: ResponsesItem[], from: ContextItem): void => {
    for (const i of items) {
      input.push(i);
      origins.push(from.id);
    }
  };
  /** The call and output items of one answered call. */
  const pair = (call: ToolCall, r: ContextItem, caller: ContextItem): [ResponsesItem, ResponsesItem] => {
    const type = outputTypeOf(r);
    if (type !== 'function_call_output') {
      const c = builtinCall(call, type);
      const o = c ? builtinOutput(type, r, call.id, log) : null;
      if (c && o) return [c, o];
      log.note(
        caller.id,
        `a ${String(OUTPUT_CALL.get(type))} written as a function_call (its output no longer has the built-in's shape)`,
      );
    }
    return [
      functionCall(call),
      { type: 'function_call_output', call_id: call.id, output: functionOutput(r, log) },
    ];
  };

  for (const item of context) {
    if (isStandaloneOutput(item)) {
      emit(messageItems(item, 'user', log), item);
      continue;
    }
    if (item.kind === 'tool') {
      // The ids it answers no call of the context with: kept in place (the pairing check reports it).
      for (const id of answers.unanswered(item)) {
        const out = builtinOutput(outputTypeOf(item), item, id, log) ?? {
          type: 'function_call_output',
          call_id: id,
          output: functionOutput(item, log),
        };
        emit([out], item);
      }
      continue;
    }
    emit(messageItems(item, messageRole(item), log), item);
    const outputs: [ResponsesItem, ContextItem][] = [];
    (item.tool_calls ?? []).forEach((call, k) => {
      const r = answers.resultOf(item, k);
      if (!r) return emit([functionCall(call)], item);
      const [c, o] = pair(call, r, item);
      emit([c], item);
      outputs.push([o, r]);
    });
    // Outputs in the order the results came (parallel calls may be answered out of order).
    outputs.sort((a, b) => (position.get(a[1]) ?? 0) - (position.get(b[1]) ?? 0));
    for (const [o, r] of outputs) emit([o], r);
  }
  return { request: { input }, origins, notes: log.notes() };
}

/** Ledger notes of `--emit responses`, by context item id (types and counts only, never content). */
export function responsesNotes(context: readonly ContextItem[]): Map<string, string[]> {
  return toResponsesWithOrigins(context).notes;
}
