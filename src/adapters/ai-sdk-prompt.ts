// The AI SDK's provider-level prompt (LanguageModelV3Prompt) to and from the stabilizer. The prompt
// is read by the vercel-ai reader (it has the shape of ModelMessage[]: message i is artifact `m<i>`,
// the tool-result part j of a tool message is `m<i>.<j>`), and the stabilized context is written
// back by taking each kept message's ORIGINAL parts, so providerOptions, file bytes, reasoning and
// tool-call inputs reach the provider as the SDK built them; only what the stabilizer changed (masked
// text, excerpts, placeholders, a call whose result left) is taken from the context.
import { createHash } from 'node:crypto';
import type { LanguageModelMiddleware } from 'ai';
import type { ContextItem } from '../core/stabilize/types.js';
import type { Artifact, Content, ContentPart, ToolCall } from '../core/types.js';

type TransformParams = NonNullable<LanguageModelMiddleware['transformParams']>;
/** The parameters of one model call (LanguageModelV3CallOptions). */
export type AiSdkCallParams = Parameters<TransformParams>[0]['params'];
/** The provider-level prompt (LanguageModelV3Prompt): system, user, assistant and tool messages. */
export type AiSdkPrompt = AiSdkCallParams['prompt'];
type Message = AiSdkPrompt[number];
type Obj = Record<string, unknown>;

const ID = /^m(\d+)(?:\.(\d+))?$/;

/** A message's parts as plain records (the SDK's part interfaces have no index signature). */
function partsOf(message: Message): readonly Obj[] {
  return Array.isArray(message.content) ? (message.content as unknown as readonly Obj[]) : [];
}

/** The message with other content: parts built from its own, so still of its role. */
function withContent(message: Message, content: string | readonly Obj[]): Message {
  return { ...message, content } as unknown as Message;
}

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Compares what the reader read with what the stabilizer kept: both are plain JSON data. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The prompt as JSON data the readers accept. File bytes (a Uint8Array) would serialize as an
 * object of numbered bytes, and a URL object only by accident: the bytes become a `sha256:` digest
 * (a file costs its declared fixed tokens whatever it holds, and a digest keeps two different files
 * from looking like duplicates), a URL its href. The originals are restored from the prompt itself.
 */
export function readablePrompt(prompt: AiSdkPrompt): unknown[] {
  return prompt.map((message) => {
    const parts = partsOf(message);
    if (!parts.some((p) => p['type'] === 'file' && typeof p['data'] !== 'string')) return message;
    return withContent(message, parts.map(readableFile));
  });
}

function readableFile(part: Obj): Obj {
  if (part['type'] !== 'file') return part;
  const data = part['data'];
  if (data instanceof URL) return { ...part, data: data.href };
  if (data instanceof Uint8Array)
    return { ...part, data: `sha256:${createHash('sha256').update(data).digest('hex')}` };
  return part;
}

/** A tool call's arguments as the stabilizer left them (masked JSON stays JSON), as an input value. */
function inputOf(args: string): unknown {
  try {
    return JSON.parse(args);
  } catch {
    return args;
  }
}

/** A kept part: the original when unchanged; changed text in the original part; else the context's part. */
function restorePart(original: Obj, read: ContentPart | undefined, kept: ContentPart): Obj {
  if (read !== undefined && same(read, kept)) return original;
  if (kept.type === 'text') return { ...original, type: 'text', text: (kept as { text: string }).text };
  // Masking rewrote a string of this part (a filename, reasoning text): its file data, which the
  // masker never touches and the reader only saw as a digest, is the original.
  return 'data' in original && original['type'] === kept.type
    ? { ...kept, data: original['data'] }
    : { ...kept };
}

/** Content parts in place of the original ones when the stabilizer changed their number (an excerpt). */
function replacementParts(content: Content): Obj[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return content.map((p) => ({ ...p }));
}

/** Client tool calls are read into `tool_calls`; every other part into `content`, in order. */
function isClientCall(part: Obj): boolean {
  return part['type'] === 'tool-call' && part['providerExecuted'] !== true;
}

function rebuildParts(original: readonly Obj[], read: Artifact, item: ContextItem): Obj[] {
  const readParts = Array.isArray(read.content) ? read.content : [];
  const kept = item.content;
  const contentCount = original.filter((p) => !isClientCall(p)).length;
  const aligned = Array.isArray(kept) && kept.length === contentCount && readParts.length === contentCount;
  const readCalls = read.tool_calls ?? [];
  const keptCalls = new Map<string, ToolCall>((item.tool_calls ?? []).map((c) => [c.id, c]));
  const out: Obj[] = [];
  let nthContent = 0;
  let nthCall = 0;
  let replaced = false;
  for (const part of original) {
    if (isClientCall(part)) {
      const readCall = readCalls[nthCall++];
      const call = readCall && keptCalls.get(readCall.id);
      // A call the stabilizer took out (its result left with it) is not sent.
      if (!readCall || !call) continue;
      out.push(call.arguments === readCall.arguments ? part : { ...part, input: inputOf(call.arguments) });
      continue;
    }
    const k = nthContent++;
    if (aligned) out.push(restorePart(part, readParts[k], kept[k] as ContentPart));
    else if (!replaced) {
      replaced = true;
      out.push(...replacementParts(kept));
    }
  }
  if (!aligned && !replaced) out.unshift(...replacementParts(kept));
  return out;
}

function rebuildOwn(message: Message, read: Artifact, item: ContextItem): Message {
  if (typeof message.content === 'string') {
    const text = typeof item.content === 'string' ? item.content : textOfParts(item.content);
    return text === message.content ? message : withContent(message, text);
  }
  const original = partsOf(message);
  const parts = rebuildParts(original, read, item);
  const unchanged = parts.length === original.length && parts.every((p, i) => p === original[i]);
  return unchanged ? message : withContent(message, parts);
}

function textOfParts(parts: readonly ContentPart[]): string {
  return parts
    .filter((p) => p.type === 'text')
    .map((p) => (p as { text: string }).text)
    .join('\n');
}

/** A tool result the stabilizer changed, in the output type the SDK would have sent it as. */
function changedOutput(output: Obj, read: Content, content: Content, isError: boolean): Obj {
  const type = output['type'];
  if (type === 'execution-denied')
    return { ...output, reason: typeof content === 'string' ? content : textOfParts(content) };
  if (Array.isArray(content)) {
    const parts = type === 'content' && Array.isArray(output['value']) ? (output['value'] as Obj[]) : [];
    const value =
      parts.length === content.length
        ? content.map((p, i) => restorePart(parts[i] as Obj, Array.isArray(read) ? read[i] : undefined, p))
        : replacementParts(content);
    return { ...output, type: 'content', value };
  }
  if (type === 'json' || type === 'error-json') {
    // Masked or field-filtered JSON is still JSON; a placeholder or an excerpt is text.
    try {
      return { ...output, value: JSON.parse(content) as unknown };
    } catch {
      return { ...output, type: type === 'error-json' || isError ? 'error-text' : 'text', value: content };
    }
  }
  if (type === 'content')
    return { ...output, value: content === '' ? [] : [{ type: 'text', text: content }] };
  return { ...output, type: type === 'error-text' ? 'error-text' : 'text', value: content };
}

function rebuildResult(part: Obj, read: Artifact, item: ContextItem): Obj {
  if (same(read.content, item.content) || !isObj(part['output'])) return part;
  return {
    ...part,
    output: changedOutput(part['output'], read.content, item.content, item.is_error === true),
  };
}

interface Ref {
  message: number;
  part: number | undefined;
}

function refOf(id: string): Ref {
  const m = ID.exec(id);
  if (!m) {
    // Every context item comes from one artifact of the prompt; the ids are ours, not the history's.
    throw new Error(
      `context-stability: the stabilized context holds an item (${id}) that is not from the AI SDK prompt`,
    );
  }
  return { message: Number(m[1]), part: m[2] === undefined ? undefined : Number(m[2]) };
}

/**
 * The stabilized prompt: the context's items in its order, each message rebuilt from its original.
 * Tool results kept from one tool message go back into one message with that message's options
 * (and its approval responses for provider-executed tools, which the reader leaves out); a message
 * the reader made no artifact of (one holding only approval responses) follows the message before it.
 */
export function rebuildPrompt(
  prompt: AiSdkPrompt,
  artifacts: readonly Artifact[],
  context: readonly ContextItem[],
): AiSdkPrompt {
  const readById = new Map(artifacts.map((a) => [a.id, a]));
  const withArtifacts = new Set(artifacts.map((a) => refOf(a.id).message));
  const out: Message[] = [];
  let tool: { index: number; parts: Map<number, Obj> } | undefined;

  const original = (index: number): Message => {
    const message = prompt[index];
    if (message === undefined)
      throw new Error(`context-stability: context item m${index} is past the AI SDK prompt`);
    return message;
  };
  const followed = new Set<number>();
  const followers = (index: number): void => {
    if (followed.has(index)) return;
    followed.add(index);
    for (let k = index + 1; k < prompt.length && !withArtifacts.has(k); k++) out.push(original(k));
  };
  const flushTool = (): void => {
    if (!tool) return;
    const { index, parts } = tool;
    tool = undefined;
    const message = original(index);
    const content = partsOf(message).flatMap((p, j) => {
      const rebuilt = parts.get(j);
      if (rebuilt) return [rebuilt];
      return p['type'] === 'tool-approval-response' ? [p] : [];
    });
    out.push(withContent(message, content));
    followers(index);
  };

  for (const item of context) {
    const ref = refOf(item.id);
    const read = readById.get(item.id);
    if (!read)
      throw new Error(`context-stability: context item ${item.id} was not read from the AI SDK prompt`);
    if (ref.part === undefined) {
      flushTool();
      out.push(rebuildOwn(original(ref.message), read, item));
      followers(ref.message);
      continue;
    }
    const part = partsOf(original(ref.message))[ref.part];
    if (!isObj(part))
      throw new Error(`context-stability: context item ${item.id} is past its AI SDK message`);
    if (tool?.index !== ref.message) {
      flushTool();
      tool = { index: ref.message, parts: new Map() };
    }
    tool.parts.set(ref.part, rebuildResult(part, read, item));
  }
  flushTool();
  return out;
}
