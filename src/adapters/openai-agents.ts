// The OpenAI Agents SDK (JS) adapter: a `callModelInputFilter` that stabilizes each model call's
// input under the policy. The SDK's items are close to Responses API items (camelCase `callId`,
// `function_call_result` with structured outputs, `providerData`), so each item is converted to
// the Responses item the reader knows (item i → artifact `m<i>`, the instructions → `instructions`),
// and the context is mapped back onto the original items: an item the stabilizer left as it was is
// returned as the same object (the SDK then tracks it by identity), one whose text changed (PII
// masked, an excerpt, a placeholder) is a copy with only that text replaced.
//
// Items the reader has no type for (reasoning, hosted tool calls, tool search, programs, compaction,
// unknown) are carried whole as an opaque part of the assistant turn: the stabilizer keeps or
// drops them with their turn and masks the strings they hold, and what comes back has their shape.
// The structural types below mirror the SDK's so that this module needs no SDK types to compile.
import type { ContextItem } from '../core/stabilize/types.js';
import type { Artifact, Content, ContentPart, Transcript } from '../core/types.js';
import type { ContextStabilizer } from '../runtime/stabilizer.js';

/** What the SDK passes to a `callModelInputFilter` (its `CallModelInputFilterArgs`). */
export interface AgentsFilterArgs<I, C = unknown> {
  modelData: AgentsModelData<I>;
  agent: { readonly name: string };
  context: C | undefined;
}

/** The SDK's `ModelInputData`: the input items and the system instructions. */
export interface AgentsModelData<I> {
  input: I[];
  instructions?: string;
}

/** Which session a call belongs to: its state and its recording file (default `default`). */
export type AgentsSessionOption<C> =
  string | ((args: { agent: { readonly name: string }; context: C | undefined }) => string);

export interface AgentsFilterOptions<C = unknown> {
  session?: AgentsSessionOption<C>;
}

/**
 * A `callModelInputFilter`. Generic in the item type so that it is assignable to the SDK's
 * `CallModelInputFilter` without this module depending on the SDK's types. The run context is
 * `unknown`, as the SDK passes it (its run options take `CallModelInputFilter<unknown>`): a filter
 * made for your context type (`contextStabilityInputFilter<{ chatId: string }>`) is accepted there.
 * It never mutates the items it is given, so it asks the SDK not to deep-copy them
 * (`preserveInputIdentity`).
 */
export type AgentsInputFilter = (<I extends object>(
  args: AgentsFilterArgs<I, unknown>,
) => Promise<AgentsModelData<I>>) & { preserveInputIdentity: boolean };

type Item = Record<string, unknown>;

function isObject(v: unknown): v is Item {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Call items → the output item type that answers them, in the SDK's and in the Responses vocabulary. */
const CALLS: ReadonlySet<string> = new Set([
  'function_call',
  'computer_call',
  'shell_call',
  'apply_patch_call',
]);
const OUTPUTS: ReadonlyMap<string, string> = new Map([
  ['function_call_result', 'function_call_output'],
  ['computer_call_result', 'computer_call_output'],
  ['shell_call_output', 'shell_call_output'],
  ['apply_patch_call_output', 'apply_patch_call_output'],
]);
/** The fields of a built-in call the stabilizer sees as its arguments (and may mask). */
const CALL_FIELDS: Readonly<Record<string, readonly string[]>> = {
  computer_call: ['action', 'actions'],
  shell_call: ['action'],
  apply_patch_call: ['operation'],
};

function isMessage(item: Item): boolean {
  return item['type'] === undefined || item['type'] === 'message';
}

function callIdOf(item: Item): unknown {
  return item['callId'] ?? item['call_id'];
}

function pick(item: Item, keys: readonly string[]): Item {
  const out: Item = {};
  for (const k of keys) if (item[k] !== undefined) out[k] = item[k];
  return out;
}

/** A shell outcome between the SDK's `exitCode` and the Responses `exit_code`. */
function toResponsesChunk(chunk: unknown): unknown {
  if (!isObject(chunk) || !isObject(chunk['outcome']) || chunk['outcome']['type'] !== 'exit') return chunk;
  const { exitCode, ...outcome } = chunk['outcome'];
  return { ...chunk, outcome: { ...outcome, exit_code: exitCode } };
}

function fromResponsesChunk(chunk: unknown): unknown {
  if (!isObject(chunk) || !isObject(chunk['outcome']) || chunk['outcome']['type'] !== 'exit') return chunk;
  const { exit_code, ...outcome } = chunk['outcome'];
  return { ...chunk, outcome: { ...outcome, exitCode: exit_code ?? null } };
}

/** A function result's output as a Responses output: a string, or a list of input parts. */
function resultOutput(output: unknown): unknown {
  if (typeof output === 'string' || Array.isArray(output)) return output;
  if (isObject(output))
    return output['type'] === 'text' ? [{ type: 'input_text', text: output['text'] }] : [output];
  return JSON.stringify(output ?? '');
}

/** One SDK item as the Responses item the reader knows. */
function toResponsesItem(item: Item): Item {
  const type = item['type'];
  const call_id = callIdOf(item);
  if (isMessage(item)) return { type: 'message', role: item['role'], content: item['content'] };
  switch (type) {
    case 'function_call':
      return { type, call_id, name: item['name'], arguments: item['arguments'] };
    case 'computer_call':
    case 'shell_call':
    case 'apply_patch_call':
      return { type, call_id, ...pick(item, CALL_FIELDS[type] ?? []) };
    case 'function_call_result':
      return { type: 'function_call_output', call_id, output: resultOutput(item['output']) };
    case 'computer_call_result':
      return { type: 'computer_call_output', call_id, output: item['output'] };
    case 'shell_call_output': {
      const output = item['output'];
      return { type, call_id, output: Array.isArray(output) ? output.map(toResponsesChunk) : output };
    }
    case 'apply_patch_call_output':
      return { type, call_id, status: item['status'], output: item['output'] ?? '' };
    default:
      // Carried whole as one opaque part of the assistant turn (see the header).
      return { type: 'message', role: 'assistant', content: [item] };
  }
}

/**
 * The Responses request body the stabilizer reads for one model call: `input` item i is the SDK's
 * item i. Exported to stabilize or check an SDK history outside a run.
 */
export function agentsInputToResponses(data: {
  input: readonly unknown[];
  instructions?: string | undefined;
}): {
  instructions?: string;
  input: Item[];
} {
  const input = data.input.map((item) => (isObject(item) ? responsesItemOf(item) : (item as Item)));
  return data.instructions === undefined ? { input } : { instructions: data.instructions, input };
}

/**
 * The same Responses item for the same SDK item on every call of a run: the stabilizer's reader
 * then knows it by identity and reads only the new items (an item is not changed once in the run).
 */
function responsesItemOf(item: Item): Item {
  let converted = responsesOf.get(item);
  if (converted === undefined) responsesOf.set(item, (converted = toResponsesItem(item)));
  return converted;
}

const responsesOf = new WeakMap<Item, Item>();

// ---------------------------------------------------------------------------------------------
// Back from the context

function same(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}

function textOf(content: Content): string {
  if (typeof content === 'string') return content;
  return content
    .filter((p) => p.type === 'text')
    .map((p) => String(p.text))
    .join('\n');
}

/**
 * Each part of the artifact as the context shows it, undefined when it is gone. Masking keeps the
 * parts one for one; an excerpt merges the text parts into the first one and keeps the others in
 * place: text parts take the context's text parts in order, the others its other parts in order.
 */
function alignParts(before: readonly ContentPart[], after: Content): (ContentPart | undefined)[] {
  const shown: readonly ContentPart[] = typeof after === 'string' ? [{ type: 'text', text: after }] : after;
  const texts = shown.filter((p) => p.type === 'text');
  const others = shown.filter((p) => p.type !== 'text');
  let t = 0;
  let o = 0;
  return before.map((p) => (p.type === 'text' ? texts[t++] : others[o++]));
}

/**
 * A message's (or a result's) parts rebuilt: a part left as it was is the original part, a text
 * part whose text changed a copy with the new text, another part the stabilizer's (masked) copy,
 * which has the SDK's shape since it was given as is. Null when nothing changed.
 */
function restoreParts(
  original: readonly unknown[],
  before: readonly ContentPart[],
  after: readonly (ContentPart | undefined)[],
): unknown[] | null {
  let changed = false;
  const out: unknown[] = [];
  original.forEach((p, j) => {
    const was = before[j];
    const now = after[j];
    if (now === undefined || was === undefined) {
      changed = true;
      return;
    }
    if (same(was, now)) out.push(p);
    else if (now.type === 'text' && isObject(p)) out.push({ ...p, text: now.text });
    else out.push(now);
    if (!same(was, now)) changed = true;
  });
  return changed ? out : null;
}

/** A user, system or assistant message item with the content the context shows. */
function restoreMessage(item: Item, before: Content, after: Content): Item | null {
  const content = item['content'];
  if (typeof content === 'string') {
    const text = textOf(after);
    return text === content ? item : { ...item, content: text };
  }
  if (!Array.isArray(content) || typeof before === 'string') return item;
  const parts = restoreParts(content, before, alignParts(before, after));
  if (parts === null) return item;
  // An assistant message whose parts all left the excerpt goes with them.
  if (parts.length === 0 && content.length > 0 && item['role'] === 'assistant') return null;
  return { ...item, content: parts };
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** A call whose arguments the stabilizer changed (PII masked). */
function restoreCall(item: Item, args: string): Item {
  const type = String(item['type']);
  if (type === 'function_call') return { ...item, arguments: args };
  // A built-in's arguments are the JSON of its fields; masking keeps it JSON.
  const fields = parsedJson(args);
  return isObject(fields) ? { ...item, ...pick(fields, CALL_FIELDS[type] ?? []) } : item;
}

/** A function result's output as the context shows it. */
function restoreFunctionOutput(item: Item, a: Artifact, c: ContextItem): Item {
  const output = item['output'];
  if (same(a.content, c.content)) return item;
  if (typeof output === 'string' || typeof c.content === 'string')
    return { ...item, output: textOf(c.content) };
  if (Array.isArray(output) && Array.isArray(a.content)) {
    const parts = restoreParts(output, a.content, alignParts(a.content, c.content));
    return parts === null ? item : { ...item, output: parts };
  }
  if (isObject(output) && output['type'] === 'text')
    return { ...item, output: { ...output, text: textOf(c.content) } };
  // An image or file output: the stabilizer's copy of it.
  const [part] = c.content;
  return part === undefined ? { ...item, output: '' } : { ...item, output: part };
}

/** A tool result item (the artifact it was read as is `a`) as the context shows it. */
function restoreOutput(item: Item, a: Artifact, c: ContextItem): Item {
  if (same(a.content, c.content)) return item;
  switch (item['type']) {
    case 'function_call_result':
      return restoreFunctionOutput(item, a, c);
    case 'computer_call_result': {
      // A screenshot replaced by a placeholder has no SDK shape: the screenshot stays (its cost is fixed).
      const part = Array.isArray(c.content) ? c.content[0] : undefined;
      return part?.type === 'computer_call_output' && isObject(part)
        ? { ...item, output: part['output'] }
        : item;
    }
    case 'shell_call_output': {
      const text = textOf(c.content);
      const parsed = parsedJson(text);
      if (Array.isArray(parsed)) return { ...item, output: parsed.map(fromResponsesChunk) };
      // Cut or replaced past parsing: the text the stabilizer kept is one chunk.
      const chunks = Array.isArray(item['output']) ? (item['output'] as unknown[]) : [];
      const last = chunks[chunks.length - 1];
      const outcome =
        isObject(last) && isObject(last['outcome']) ? last['outcome'] : { type: 'exit', exitCode: null };
      return { ...item, output: [{ stdout: text, stderr: '', outcome }] };
    }
    case 'apply_patch_call_output':
      return { ...item, output: textOf(c.content) };
    default:
      return item;
  }
}

/** The parts one item of an assistant turn contributes to the artifact (the reader's rule). */
function partCount(converted: Item): number {
  const content = converted['content'];
  return typeof content === 'string' ? 1 : Array.isArray(content) ? content.length : 0;
}

interface Turn {
  items: readonly Item[];
  converted: readonly Item[];
}

/** The items of one assistant turn (items `from` to `to` - 1) as the context item `c` shows it. */
function restoreTurn(turn: Turn, from: number, to: number, a: Artifact, c: ContextItem): Item[] {
  const before = typeof a.content === 'string' ? [{ type: 'text', text: a.content }] : a.content;
  const after = alignParts(before, c.content);
  const calls = new Map((c.tool_calls ?? []).map((call) => [call.id, call]));
  const out: Item[] = [];
  let part = 0;
  let call = 0;
  for (let i = from; i < to; i++) {
    const item = turn.items[i]!;
    const conv = turn.converted[i]!;
    if (CALLS.has(String(conv['type']))) {
      const was = a.tool_calls?.[call++];
      const now = was ? calls.get(was.id) : undefined;
      // A call the context no longer holds left with its result.
      if (was && now) out.push(now.arguments === was.arguments ? item : restoreCall(item, now.arguments));
      continue;
    }
    const n = partCount(conv);
    const wasParts = before.slice(part, part + n);
    const nowParts = after.slice(part, part + n);
    part += n;
    if (!isMessage(item)) {
      // A carried item: its part is the item, masked or not.
      const now = nowParts[0];
      if (now !== undefined) out.push(same(wasParts[0], now) ? item : (now as Item));
      continue;
    }
    const content = item['content'];
    if (typeof content === 'string') {
      const now = nowParts[0];
      const text = now?.type === 'text' ? String(now.text) : '';
      if (now !== undefined) out.push(text === content ? item : { ...item, content: text });
      continue;
    }
    if (!Array.isArray(content)) continue;
    const parts = restoreParts(content, wasParts, nowParts);
    if (parts === null) out.push(item);
    else if (parts.length > 0 || content.length === 0) out.push({ ...item, content: parts });
  }
  return out;
}

/** An item the stabilizer made (a compaction summary): a message of its kind. */
function madeItem(c: ContextItem): Item | null {
  const text = textOf(c.content);
  if (c.kind === 'tool') return null;
  if (c.kind === 'user') return { type: 'message', role: 'user', content: text };
  if (c.kind === 'assistant')
    return {
      type: 'message',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text }],
    };
  return { type: 'message', role: 'system', content: text };
}

const ITEM_ID = /^m(\d+)$/;

/**
 * The SDK input the context stands for. Artifact `m<i>` starts at item i and holds the items up to
 * the next artifact's start (an assistant turn spans several items; a result or message is one).
 */
export function restoreAgentsInput(
  items: readonly unknown[],
  instructions: string | undefined,
  transcript: Transcript,
  context: readonly ContextItem[],
): { input: unknown[]; instructions: string | undefined } {
  const list = items.map((i) => (isObject(i) ? i : {}));
  const turn: Turn = { items: list, converted: list.map(toResponsesItem) };
  const starts = new Map<string, { a: Artifact; from: number; to: number }>();
  const read = transcript.artifacts
    .map((a) => ({ a, from: Number(ITEM_ID.exec(a.id)?.[1] ?? -1) }))
    .filter((r) => r.from >= 0)
    .sort((x, y) => x.from - y.from);
  read.forEach((r, k) => starts.set(r.a.id, { ...r, to: read[k + 1]?.from ?? list.length }));

  // The instructions are protected (system); were they ever left out, none are sent rather than the originals.
  let outInstructions = instructions === undefined || instructions === '' ? instructions : '';
  const input: unknown[] = [];
  for (const c of context) {
    if (c.id === 'instructions') {
      outInstructions = textOf(c.content);
      continue;
    }
    const at = starts.get(c.id);
    if (!at) {
      const made = madeItem(c);
      if (made) input.push(made);
      continue;
    }
    const item = list[at.from]!;
    if (at.a.kind === 'tool' && OUTPUTS.has(String(item['type']))) input.push(restoreOutput(item, at.a, c));
    else if (at.a.kind === 'assistant') input.push(...restoreTurn(turn, at.from, at.to, at.a, c));
    else {
      const restored = restoreMessage(item, at.a.content, c.content);
      if (restored) input.push(restored);
    }
  }
  return { input, instructions: outInstructions };
}

/**
 * The `callModelInputFilter` for `run(agent, input, { callModelInputFilter })` or
 * `new Runner({ callModelInputFilter })`. A ContextEscalatedError (the policy says stop) rejects
 * the run before the model is called; `on_escalated: continue` sends the context with a warning.
 */
export function contextStabilityInputFilter<C = unknown>(
  stabilizer: ContextStabilizer,
  opts: AgentsFilterOptions<C> = {},
): AgentsInputFilter {
  const filter = async <I extends object>(
    args: AgentsFilterArgs<I, unknown>,
  ): Promise<AgentsModelData<I>> => {
    const { input, instructions } = args.modelData;
    // The SDK passes the run context untyped; `C` is what the caller says its context is.
    const session =
      typeof opts.session === 'function'
        ? opts.session({ agent: args.agent, context: args.context as C | undefined })
        : (opts.session ?? 'default');
    const body = agentsInputToResponses({ input, instructions });
    const out = await stabilizer.stabilize(body, 'responses', { session, format: 'responses' });
    const restored = restoreAgentsInput(input, instructions, out.transcript, out.result.context);
    const result: AgentsModelData<I> = { input: restored.input as I[] };
    if (restored.instructions !== undefined) result.instructions = restored.instructions;
    return result;
  };
  return Object.assign(filter, { preserveInputIdentity: true });
}
