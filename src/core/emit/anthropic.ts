// Writes a stabilized context as an Anthropic Messages request body: system and policy text go to
// the top-level `system`; each assistant turn with tool_use blocks is followed by a user turn that
// starts with every matching tool_result block (by the readers' pairing rule, answers.ts); adjacent
// turns of one role are merged. Parts of other formats are converted or left out by parts.ts;
// thinking without its signature is left out wherever the API ignores it. A request that would
// start with an assistant turn gets a placeholder user turn first (repair.ts: the API requires one).
import { parseJsonText } from '../json/text.js';
import { answersOf, resultIds } from './answers.js';
import { isStandaloneOutput } from './standalone.js';
import type { ContextItem } from '../stabilize/types.js';
import { pushAll } from '../collections.js';
import { PartLog, type Slot } from './parts.js';
import { leadingUserText, repairedNote, type EmitOptions } from './repair.js';

export type AnthropicBlock = Record<string, unknown> & { type: string };
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}
export interface AnthropicRequest {
  system?: string;
  messages: AnthropicMessage[];
}

/**
 * An item's content as blocks of a turn at `slot` (parts.ts): the Messages API's own blocks as they
 * are, images and documents of other formats converted, the rest (OpenAI reasoning and server
 * tools, provider-specific parts, audio) left out and counted in `log`.
 */
function blocks(item: ContextItem, slot: Slot, log: PartLog): AnthropicBlock[] {
  const content = item.content;
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const out: AnthropicBlock[] = [];
  content.forEach((p, i) => {
    if (p.type === 'text') return void out.push({ type: 'text', text: p.text });
    const fate = log.part(item.id, i, p, slot);
    if (fate.fate === 'kept') out.push({ ...p });
    else if (fate.fate === 'converted') out.push(fate.part as AnthropicBlock);
  });
  return out;
}

function toolInput(args: string): unknown {
  try {
    const v: unknown = parseJsonText(args);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? v : { input: v };
  } catch {
    // tool_use input must be an object; text that is not JSON is carried as-is under one key.
    return { input: args };
  }
}

function resultBlock(item: ContextItem, id: string, log: PartLog): AnthropicBlock {
  const b: AnthropicBlock = { type: 'tool_result', tool_use_id: id, content: blocks(item, 'tool', log) };
  if (item.is_error) b['is_error'] = true;
  return b;
}

/** An Anthropic request and, per message and block, the id of the context item the block came from. */
export interface AnthropicWithOrigins {
  request: AnthropicRequest;
  /** blocks[m][b]: the context item block b of message m was written from. */
  blocks: string[][];
  /** Context item id → what the request changed in it (parts converted or left out, ids renamed). */
  notes: Map<string, string[]>;
  /**
   * The context item the request's first turn came from when that turn is an assistant one: a
   * placeholder user turn was put before it (message 0, its block attributed to that item).
   */
  repairedBefore?: string;
}

interface Out {
  messages: AnthropicMessage[];
  blocks: string[][];
}

function push(
  out: Out,
  role: AnthropicMessage['role'],
  content: AnthropicBlock[],
  from: string,
  mergeable: boolean,
): void {
  if (content.length === 0) return;
  const last = out.messages[out.messages.length - 1];
  if (mergeable && last && last.role === role && !last.content.some((b) => b.type === 'tool_use')) {
    pushAll(last.content, content);
    pushAll(
      out.blocks[out.blocks.length - 1] ?? [],
      content.map(() => from),
    );
    return;
  }
  out.messages.push({ role, content });
  out.blocks.push(content.map(() => from));
}

/**
 * tool_use ids must be unique in the whole request, but agents reuse call ids (tau-bench, SWE-agent).
 * The first use keeps its id; each later use of it is named `<id>_<n>`, n from 2, skipping names
 * the context already holds (call ids, and result ids: a result that answers no call keeps its id,
 * and a call renamed to it would be answered by it once read back): the same context always gives
 * the same names.
 */
export function uniqueToolUseIds(context: readonly ContextItem[]): { next: (id: string) => string } {
  const taken = new Set<string>();
  for (const item of context) {
    for (const c of item.tool_calls ?? []) taken.add(c.id);
    if (item.kind === 'tool') for (const id of resultIds(item)) taken.add(id);
  }
  const issued = new Set<string>();
  return {
    next(id) {
      let name = id;
      for (let n = 2; issued.has(name) || (name !== id && taken.has(name)); n++) name = `${id}_${n}`;
      issued.add(name);
      return name;
    },
  };
}

export function toAnthropic(context: readonly ContextItem[], opts: EmitOptions = {}): AnthropicRequest {
  return toAnthropicWithOrigins(context, opts).request;
}

/**
 * The messages of the last assistant turn (consecutive assistant messages) while its tool loop is
 * open: it has tool_use blocks and nothing but tool results follow it. Only there does the API
 * check thinking blocks against their signatures; it ignores the thinking of every other turn.
 */
export function openToolLoop(
  messages: readonly AnthropicMessage[],
): { start: number; end: number } | undefined {
  let end = messages.length - 1;
  while (end >= 0 && messages[end]?.role !== 'assistant') end--;
  if (end < 0) return undefined;
  let start = end;
  while (start > 0 && messages[start - 1]?.role === 'assistant') start--;
  const turn = messages.slice(start, end + 1).flatMap((m) => m.content);
  if (!turn.some((b) => b.type === 'tool_use')) return undefined;
  // A user turn with more than tool results closes the loop.
  const after = messages.slice(end + 1).flatMap((m) => m.content);
  return after.some((b) => b.type !== 'tool_result') ? undefined : { start, end };
}

const UNSIGNED =
  'unsigned, as web-session exports write it: the Messages API takes no thinking without its signature, and ignores the thinking of earlier turns';

/**
 * A thinking block without its signature cannot be sent. Outside the open tool loop the API
 * ignores thinking anyway, so it is left out there (with a note); in the open loop it stays, and the
 * provider check reports it. A message left with nothing is left out.
 */
function dropUnsignedThinking(out: Out, log: PartLog): void {
  const loop = openToolLoop(out.messages);
  const unsigned = (b: AnthropicBlock): boolean =>
    b.type === 'thinking' && typeof b['signature'] !== 'string';
  for (let m = out.messages.length - 1; m >= 0; m--) {
    const msg = out.messages[m] as AnthropicMessage;
    if (msg.role !== 'assistant' || (loop && m >= loop.start && m <= loop.end)) continue;
    if (!msg.content.some(unsigned)) continue;
    const from = out.blocks[m] ?? [];
    const keep = msg.content.map((b) => !unsigned(b));
    from.forEach((id, b) => {
      if (!keep[b]) log.record(id, undefined, 'thinking', { fate: 'left', why: UNSIGNED });
    });
    msg.content = msg.content.filter((_, b) => keep[b]);
    out.blocks[m] = from.filter((_, b) => keep[b]);
    if (msg.content.length === 0) {
      out.messages.splice(m, 1);
      out.blocks.splice(m, 1);
    }
  }
}

/**
 * The Messages API requires a user turn first: a request that would start with an assistant turn
 * (a chat that opens with a greeting, or a history the budget cut to begin with an answer) gets a
 * placeholder user turn with the policy's text before it. Its block is attributed to the item it
 * stands before, so a finding on it is annotated there. Returns that item's id.
 */
function repairLeadingAssistant(out: Out, log: PartLog, text: string): string | undefined {
  if (out.messages[0]?.role !== 'assistant') return undefined;
  const before = out.blocks[0]?.[0];
  if (before === undefined) return undefined;
  out.messages.unshift({ role: 'user', content: [{ type: 'text', text }] });
  out.blocks.unshift([before]);
  log.note(before, repairedNote('anthropic'));
  return before;
}

/** toAnthropic, also saying which context item each block came from (for findings on the request). */
export function toAnthropicWithOrigins(
  context: readonly ContextItem[],
  opts: EmitOptions = {},
): AnthropicWithOrigins {
  const system: string[] = [];
  // Which result answers which call: the nearest earlier pending call of its id (ids are reused).
  const answers = answersOf(context);
  const log = new PartLog('anthropic');
  const out: Out = { messages: [], blocks: [] };
  const ids = uniqueToolUseIds(context);
  for (const item of context) {
    if (item.kind === 'system' || item.kind === 'policy') {
      system.push(
        typeof item.content === 'string'
          ? item.content
          : blocks(item, 'system', log)
              .map((b) => String(b['text'] ?? ''))
              .join('\n'),
      );
      continue;
    }
    if (isStandaloneOutput(item)) {
      push(out, 'user', blocks(item, 'user', log), item.id, true);
      continue;
    }
    if (item.kind === 'tool') {
      // Results are placed after the call they answer; the ids a result answers no call of the
      // context with stay where it is (the pairing check reports them).
      const loose = answers.unanswered(item).map((id) => resultBlock(item, id, log));
      push(out, 'user', loose, item.id, false);
      continue;
    }
    if (item.kind === 'assistant') {
      const content = blocks(item, 'assistant', log);
      const names = (item.tool_calls ?? []).map((c) => ids.next(c.id));
      (item.tool_calls ?? []).forEach((c, k) => {
        const name = names[k] as string;
        if (name !== c.id)
          log.note(
            item.id,
            `tool call id ${c.id} sent as ${name} (tool_use ids must be unique in a request)`,
          );
        content.push({ type: 'tool_use', id: name, name: c.name, input: toolInput(c.arguments) });
      });
      push(out, 'assistant', content, item.id, true);
      const placed: AnthropicBlock[] = [];
      const from: string[] = [];
      (item.tool_calls ?? []).forEach((_, k) => {
        const r = answers.resultOf(item, k);
        if (!r) return;
        placed.push(resultBlock(r, names[k] as string, log));
        from.push(r.id);
      });
      if (placed.length > 0) {
        out.messages.push({ role: 'user', content: placed });
        out.blocks.push(from);
      }
      continue;
    }
    // user, task, retrieval, phase and summary items are user-turn text.
    push(out, 'user', blocks(item, 'user', log), item.id, true);
  }
  dropUnsignedThinking(out, log);
  const repairedBefore = repairLeadingAssistant(out, log, leadingUserText(opts));
  const request: AnthropicRequest = { messages: out.messages };
  if (system.length > 0) request.system = system.join('\n\n');
  return {
    request,
    blocks: out.blocks,
    notes: log.notes(),
    ...(repairedBefore !== undefined ? { repairedBefore } : {}),
  };
}
