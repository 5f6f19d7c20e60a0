// LangChain message objects ↔ the stabilizer. Out: each message as the LangChain reader's
// StoredMessage form (`{type, data}`), message i becoming artifact `m<i>`, so every context item
// names the message it came from. Back: the context's items as the original messages (class, id,
// tool_calls, additional_kwargs, response_metadata, non-text blocks), with the stabilizer's text
// wherever it changed it (PII masked, placeholder, excerpt) and calls dropped with their results.
import { isDeepStrictEqual } from 'node:util';
import type { AIMessage, BaseMessage } from 'langchain';
// CALL_BLOCKS: blocks that repeat one of the message's calls inside its content; the reader reads
// such a call once, from `tool_calls`, so the same set decides what is dropped here.
import { CALL_BLOCKS } from '../core/readers/langchain-message.js';
import { isObject } from '../core/readers/values.js';
import type { ContextItem } from '../core/stabilize/types.js';
import type { Artifact, Content, ContentPart, ToolCall as CallRecord } from '../core/types.js';

type LcContent = BaseMessage['content'];
type Block = Exclude<LcContent, string>[number];
type Fields = Record<string, unknown>;
type ToolCall = NonNullable<AIMessage['tool_calls']>[number];

function isAi(m: BaseMessage): m is AIMessage {
  return m.type === 'ai';
}

/** The ids the reader treats as the message's own calls (their repeating blocks are skipped). */
function callIdsOf(m: BaseMessage): Set<string> {
  const ids = new Set<string>();
  if (!isAi(m)) return ids;
  for (const c of m.tool_calls ?? []) if (typeof c.id === 'string') ids.add(c.id);
  for (const c of m.invalid_tool_calls ?? []) if (typeof c.id === 'string') ids.add(c.id);
  return ids;
}

function callBlockId(block: unknown, ids: ReadonlySet<string>): string | undefined {
  if (!isObject(block) || typeof block['type'] !== 'string' || !CALL_BLOCKS.has(block['type']))
    return undefined;
  const id = block['id'] ?? block['call_id'];
  return typeof id === 'string' && ids.has(id) ? id : undefined;
}

/**
 * One message as the LangChain reader's StoredMessage form: only the fields the reader reads, so
 * nothing else of the message (metadata, usage, provider extras) enters the stabilizer.
 */
export function toStoredMessage(m: BaseMessage): { type: string; data: Fields } {
  // The same object on every call of an agent's loop: the stabilizer's reader then knows it by
  // identity and reads only the new messages (a message is not changed once in the agent's state).
  let stored = storedOf.get(m);
  if (stored === undefined) storedOf.set(m, (stored = storedMessage(m)));
  return stored;
}

const storedOf = new WeakMap<BaseMessage, { type: string; data: Fields }>();

function storedMessage(m: BaseMessage): { type: string; data: Fields } {
  const data: Fields = { content: m.content };
  const extra = isObject(m.additional_kwargs) ? m.additional_kwargs : {};
  if (isAi(m)) {
    data['tool_calls'] = (m.tool_calls ?? []).map((c) => ({ id: c.id, name: c.name, args: c.args }));
    // Only the ids: the reader skips content blocks repeating them and warns that they are no calls.
    const invalid = (m.invalid_tool_calls ?? [])
      .filter((c) => typeof c.id === 'string')
      .map((c) => ({ id: c.id }));
    if (invalid.length > 0) data['invalid_tool_calls'] = invalid;
    const meta = m.response_metadata;
    const model = isObject(meta) ? (meta['model_name'] ?? meta['model']) : undefined;
    if (typeof model === 'string') data['response_metadata'] = { model_name: model };
  } else if (m.type === 'system') {
    if (extra['__openai_role__'] === 'developer')
      data['additional_kwargs'] = { __openai_role__: 'developer' };
  } else if (m.type === 'tool') {
    const t = m as BaseMessage & { tool_call_id?: unknown; status?: unknown };
    data['tool_call_id'] = t.tool_call_id;
    if (t.status === 'error') data['status'] = 'error';
    if (typeof m.name === 'string') data['name'] = m.name;
  } else if (m.type === 'function') {
    if (typeof m.name === 'string') data['name'] = m.name;
  } else if (m.type === 'generic') {
    data['role'] = (m as BaseMessage & { role?: unknown }).role;
  }
  return { type: m.type, data };
}

function textBlock(text: string, original: unknown): Block {
  const cache = isObject(original) ? original['cache_control'] : undefined;
  return (
    cache === undefined ? { type: 'text', text } : { type: 'text', text, cache_control: cache }
  ) as Block;
}

/** A context part as a LangChain block: text as the stabilizer made it, other parts as given. */
function partBlock(part: ContentPart, original?: unknown): Block {
  return part.type === 'text' && typeof part.text === 'string'
    ? textBlock(part.text, original)
    : (part as Block);
}

/** Original id of each call still made → its masked arguments, or undefined when unchanged. */
type Kept = ReadonlyMap<string, Record<string, unknown> | undefined>;

/** A call block as sent: its arguments masked as the call's are (a tool_use `input`, a v1 `args`…). */
function callBlockFor(block: Block, args: Record<string, unknown> | undefined): Block {
  if (args === undefined || !isObject(block)) return block;
  const out: Fields = { ...block };
  if ('input' in out) out['input'] = args;
  if ('args' in out) out['args'] = typeof out['args'] === 'string' ? JSON.stringify(args) : args;
  if ('arguments' in out) out['arguments'] = JSON.stringify(args);
  return out as Block;
}

/**
 * The content to send: the original blocks where the stabilizer left them unchanged, its text
 * where it changed them, without the blocks of calls that left the context. `read` is the content
 * as the reader read it (the original's parts minus the call blocks), `now` the context's.
 */
function contentFor(original: BaseMessage, read: Content, now: Content, kept: Kept): LcContent {
  const orig = original.content;
  if (typeof orig === 'string') return typeof now === 'string' ? now : now.map((p) => partBlock(p));
  const ids = callIdsOf(original);
  const callBlock = (b: Block): Block | undefined => {
    const id = callBlockId(b, ids);
    return id !== undefined && kept.has(id) ? callBlockFor(b, kept.get(id)) : undefined;
  };
  const aligned = Array.isArray(now) && Array.isArray(read) && now.length === read.length;
  if (!aligned) {
    // A placeholder or an excerpt replaced the parts with one text: it, then the calls still made.
    const calls = orig.flatMap((b) => callBlock(b) ?? []);
    if (typeof now === 'string' && calls.length === 0) return now;
    if (typeof now !== 'string') return [...now.map((p) => partBlock(p)), ...calls];
    return now === '' ? calls : [textBlock(now, undefined), ...calls];
  }
  const out: Block[] = [];
  let k = 0;
  for (const block of orig) {
    if (callBlockId(block, ids) !== undefined) {
      const sent = callBlock(block);
      if (sent !== undefined) out.push(sent);
      continue;
    }
    const before = read[k];
    const after = now[k];
    k++;
    if (before === undefined || after === undefined) continue;
    if (typeof block === 'string') {
      out.push(
        (after.type === 'text' && typeof after.text === 'string' ? after.text : partBlock(after)) as Block,
      );
    } else {
      // A block the stabilizer left alone goes as it was; a changed text block goes as the text it
      // made (with the caching directive), dropping extras such as citations that could repeat it.
      out.push(isDeepStrictEqual(before, after) ? block : partBlock(after, block));
    }
  }
  return out;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (isObject(value)) return value;
  } catch {
    // Masked arguments stay JSON (masking works on JSON literals); anything else is kept as text.
  }
  return { input: text };
}

interface Calls {
  calls: ToolCall[];
  kept: Kept;
  changed: boolean;
}

/**
 * The original's calls that are still in the context, by position: the reader reads `tool_calls`
 * in order, and the context's call ids are the transcript's (aliased where an id held PII), so an
 * id is matched against the read artifact, never against the original.
 */
function callsFor(original: AIMessage, read: readonly CallRecord[], now: readonly CallRecord[]): Calls {
  const calls: ToolCall[] = [];
  const kept = new Map<string, Record<string, unknown> | undefined>();
  const origCalls = original.tool_calls ?? [];
  let changed = now.length !== read.length;
  for (const c of now) {
    const j = read.findIndex((r) => r.id === c.id);
    const o = j >= 0 ? origCalls[j] : undefined;
    if (o === undefined) {
      changed = true;
      continue;
    }
    const masked = c.arguments === read[j]!.arguments ? undefined : parseArgs(c.arguments);
    if (typeof o.id === 'string') kept.set(o.id, masked);
    calls.push(masked === undefined ? o : { ...o, args: masked });
    if (masked !== undefined) changed = true;
  }
  return { calls, kept, changed };
}

type MessageCtor = new (fields: Fields) => BaseMessage;

/** A copy of `m` (same class) with `changes`; the serialization bookkeeping is rebuilt by the class. */
function copyWith(m: BaseMessage, changes: Fields): BaseMessage {
  const { lc_serializable: _s, lc_kwargs: _k, lc_namespace: _n, ...fields } = m as unknown as Fields;
  return new (m.constructor as MessageCtor)({ ...fields, ...changes });
}

/** Keeps the OpenAI-shaped copy of the calls in additional_kwargs in step with `tool_calls`. */
function extraFor(m: BaseMessage, kept: Kept): Fields | undefined {
  const extra = m.additional_kwargs;
  if (!isObject(extra) || !Array.isArray(extra['tool_calls'])) return undefined;
  const calls: unknown[] = [];
  for (const c of extra['tool_calls'] as unknown[]) {
    const id = isObject(c) ? c['id'] : undefined;
    if (!isObject(c) || typeof id !== 'string' || !kept.has(id)) continue;
    const args = kept.get(id);
    const fn = c['function'];
    calls.push(
      args === undefined || !isObject(fn)
        ? c
        : { ...c, function: { ...fn, arguments: JSON.stringify(args) } },
    );
  }
  return { ...extra, tool_calls: calls };
}

/**
 * The message the model receives for one context item: `original` itself when the stabilizer
 * changed nothing in it, else a copy of the same class with the context's content and calls.
 */
export function messageFor(original: BaseMessage, read: Artifact, item: ContextItem): BaseMessage {
  let calls: Calls | undefined;
  if (isAi(original)) calls = callsFor(original, read.tool_calls ?? [], item.tool_calls ?? []);
  const kept: Kept = calls?.kept ?? new Map();
  const sameContent = isDeepStrictEqual(read.content, item.content);
  if (sameContent && !calls?.changed) return original;
  const changes: Fields = {};
  if (!sameContent || calls?.changed)
    changes['content'] = contentFor(original, read.content, item.content, kept);
  if (calls && isAi(original)) {
    changes['tool_calls'] = calls.calls;
    changes['invalid_tool_calls'] = original.invalid_tool_calls ?? [];
    // A chunk rebuilds its calls from its chunks: the calls sent are the ones set here.
    changes['tool_call_chunks'] = [];
    const extra = calls.changed ? extraFor(original, kept) : undefined;
    if (extra) changes['additional_kwargs'] = extra;
  }
  const copy = copyWith(original, changes);
  if (calls && isAi(copy) && isAi(original)) {
    // AIMessageChunk's constructor resets invalid_tool_calls when it has no chunks.
    copy.tool_calls = calls.calls;
    copy.invalid_tool_calls = original.invalid_tool_calls ?? [];
  }
  return copy;
}
