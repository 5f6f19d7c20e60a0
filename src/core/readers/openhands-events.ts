// The fields of one OpenHands event (openhands/events/serialization: `event_to_dict`) that the
// reader needs, read without trusting their shape: actions carry `args`, observations `content`
// and `extras`; both may carry `cause` and `tool_call_metadata` (the LLM response that made the
// call). A field of the wrong type is reported by the caller; these helpers only look.
import type { ContentPart } from '../types.js';
import { describeValue, isObject, type JsonObject } from './values.js';

/** One event of the history, with the artifact id its position gives. */
export interface OhEvent {
  node: JsonObject;
  /** `m<i>` for history item i; `m<i>.0` / `m<i>.1` for the two halves of an evaluation pair. */
  id: string;
}

/** What is wrong with an event, as a sentence that names fields only (never their values). */
export type Problem = string;

export function str(obj: JsonObject | undefined, key: string): string | undefined {
  const v = obj?.[key];
  return typeof v === 'string' ? v : undefined;
}

function obj(parent: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = parent?.[key];
  return isObject(v) ? v : undefined;
}

/** An event id or cause, as a map key (ids are integers; older files may hold strings). */
export function eventKey(value: unknown): string | undefined {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  return undefined;
}

/** `tool_call_metadata`: absent (null), or its call id, tool name and the model's message. */
export interface CallMeta {
  callId: string;
  functionName?: string;
  responseId?: string;
  /** `model_response.choices[0].message`: what the model said when it made the call. */
  message?: JsonObject;
  model?: string;
}

export function readCallMeta(event: JsonObject): CallMeta | null | Problem {
  const meta = event['tool_call_metadata'];
  if (meta === undefined || meta === null) return null;
  if (!isObject(meta)) return `\`tool_call_metadata\` must be an object; found ${describeValue(meta)}`;
  const callId = meta['tool_call_id'];
  if (typeof callId !== 'string' || callId === '')
    return `\`tool_call_metadata.tool_call_id\` must be a non-empty string; found ${describeValue(callId)}`;
  const response = obj(meta, 'model_response');
  const choices = response?.['choices'];
  const first: unknown = Array.isArray(choices) ? choices[0] : undefined;
  return {
    callId,
    functionName: str(meta, 'function_name') || undefined,
    responseId: str(response, 'id') || undefined,
    message: isObject(first) ? obj(first, 'message') : undefined,
    model: str(response, 'model') || undefined,
  };
}

/** The arguments the model wrote for this call, as its JSON string, when the response has them. */
export function responseArguments(meta: CallMeta): string | undefined {
  const calls = meta.message?.['tool_calls'];
  if (!Array.isArray(calls)) return undefined;
  for (const call of calls) {
    if (!isObject(call) || call['id'] !== meta.callId) continue;
    const args = obj(call, 'function')?.['arguments'];
    if (typeof args === 'string') return args;
    if (isObject(args)) return JSON.stringify(args);
  }
  return undefined;
}

/** Arguments rebuilt from the action's `args` (older runs, or no model response kept). */
export function argsArguments(args: JsonObject | undefined): string {
  if (!args) return '{}';
  const rest: JsonObject = {};
  // The thought is the assistant's text, not an argument of the call.
  for (const [k, v] of Object.entries(args)) if (k !== 'thought') rest[k] = v;
  return JSON.stringify(rest);
}

/** `args.thought`: a string, or (recent versions) `{text, reasoning_content}`. */
export function readThought(args: JsonObject | undefined): { text: string; reasoning?: string } {
  const t = args?.['thought'];
  if (typeof t === 'string') return { text: t };
  if (!isObject(t)) return { text: '' };
  const reasoning = str(t, 'reasoning_content');
  return { text: str(t, 'text') ?? '', reasoning: reasoning?.trim() ? reasoning : undefined };
}

/**
 * The assistant text of a call: the model's message content when the response is kept (what
 * OpenHands sends back to the model: a `think` call's thought is its argument, not its text),
 * else the action's thought (runs without function calling).
 */
export function assistantText(meta: CallMeta | null, args: JsonObject | undefined): string | ContentPart[] {
  const thought = readThought(args);
  const said = meta?.message?.['content'];
  const text = meta?.message ? (typeof said === 'string' && said.trim() !== '' ? said : '') : thought.text;
  if (!thought.reasoning) return text;
  const parts: ContentPart[] = [{ type: 'reasoning', reasoning_content: thought.reasoning }];
  if (text !== '') parts.push({ type: 'text', text });
  return parts;
}

/**
 * Text plus the images of `image_urls` (`images_urls` in older files), as OpenHands sends them:
 * one Chat Completions `image_url` part per URL (its ImageContent), opaque to the stabilizer.
 */
export function withImages(text: string, holder: JsonObject | undefined): string | ContentPart[] {
  const urls = holder?.['image_urls'] ?? holder?.['images_urls'];
  if (!Array.isArray(urls)) return text;
  const images: ContentPart[] = urls
    .filter((url): url is string => typeof url === 'string' && url.trim() !== '')
    .map((url) => ({ type: 'image_url', image_url: { url } }));
  return images.length === 0 ? text : [{ type: 'text', text }, ...images];
}

/**
 * The exit code of a command observation: `extras.metadata.exit_code` (CmdOutputMetadata) or the
 * older `extras.exit_code`. -1 is OpenHands' "no exit code yet" (the command is still running or
 * timed out), which is no exit code at all.
 */
export function exitCodeOf(extras: JsonObject | undefined): number | undefined {
  const code = obj(extras, 'metadata')?.['exit_code'] ?? extras?.['exit_code'];
  return typeof code === 'number' && Number.isInteger(code) && code !== -1 ? code : undefined;
}

/** Event ids a condensation forgets: `forgotten_event_ids`, or the start..end id range. */
export interface Forgotten {
  ids: Set<string>;
  ranges: [number, number][];
}

export function addForgotten(args: JsonObject | undefined, into: Forgotten): void {
  const ids = args?.['forgotten_event_ids'];
  if (Array.isArray(ids))
    for (const id of ids) {
      const key = eventKey(id);
      if (key !== undefined) into.ids.add(key);
    }
  const start = args?.['forgotten_events_start_id'];
  const end = args?.['forgotten_events_end_id'];
  if (typeof start === 'number' && typeof end === 'number' && start <= end) into.ranges.push([start, end]);
}

export function isForgotten(id: unknown, forgotten: Forgotten): boolean {
  const key = eventKey(id);
  if (key === undefined) return false;
  if (forgotten.ids.has(key)) return true;
  return typeof id === 'number' && forgotten.ranges.some(([a, b]) => id >= a && id <= b);
}
