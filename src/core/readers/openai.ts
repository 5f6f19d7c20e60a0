// OpenAI Chat Completions reader: a bare message array, `{messages:[...]}`, or a run record with
// its messages under `traj` (tau-bench), `history` or `trajectory` (SWE-agent). Message i becomes
// artifact `m<i>`.
//
// SWE-agent thought/action runs (issue 31) carry no tool calls: the model writes its command as text
// (`message_type: "action"`, the command also in `action`) and the command's output comes back as a
// `user` message with `message_type: "observation"`. An observation that directly follows such an
// action is that command's output, not a request: the action gets a synthetic `bash` call (id
// `swe_m<i>`, arguments `{"command": …}`) and the observation is a `tool` artifact answering it. The
// first observation (the issue statement, after the system prompt) follows no action and stays the
// user's message. Function-calling runs have real calls and `tool` observations: read as they are.
import type { Artifact, ArtifactKind, SourcePos, ToolCall } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { readContent } from './content.js';
import { ReadContext } from './context.js';
import { findMessageArray, MESSAGE_KEYS } from './message-array.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, joinPath, scalarFields, type JsonObject } from './values.js';

const CODE = 'invalid-message';

const ROLE_KINDS: Record<string, ArtifactKind> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};
const ROLES = Object.keys(ROLE_KINDS).join(', ');

/** The call id of a SWE-agent action's synthetic call: derived from the artifact id `m<i>`. */
function sweCallId(assistantIndex: number): string {
  return `swe_m${assistantIndex}`;
}

/** The tool SWE-agent's commands run in: every thought/action command is a line of its shell. */
const SWE_TOOL = 'bash';

/** The last fenced code block of a text (lines between ``` lines): where SWE-agent finds the command. */
function lastFencedBlock(text: string): string | undefined {
  let open: string[] | null = null;
  let last: string | undefined;
  for (const line of text.split('\n')) {
    if (!line.startsWith('```')) open?.push(line);
    else if (open === null) open = [];
    else {
      last = open.join('\n');
      open = null;
    }
  }
  return last;
}

function textOfContent(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((p) => (isObject(p) && p['type'] === 'text' && typeof p['text'] === 'string' ? p['text'] : ''))
    .join('\n');
}

/**
 * The command of a SWE-agent thought/action message: its `action` field, else the last fenced block
 * of its text; undefined for any other message (one with tool calls, a plain assistant turn).
 */
function sweCommand(message: unknown): string | undefined {
  if (!isObject(message) || message['role'] !== 'assistant') return undefined;
  const calls = message['tool_calls'];
  if (Array.isArray(calls) ? calls.length > 0 : calls !== undefined && calls !== null) return undefined;
  if (message['function_call'] !== undefined && message['function_call'] !== null) return undefined;
  const action = message['action'];
  if (typeof action === 'string' && action.trim() !== '') return action.trimEnd();
  if (message['message_type'] !== 'action') return undefined;
  const fenced = lastFencedBlock(textOfContent(message['content']));
  return fenced !== undefined && fenced.trim() !== '' ? fenced.trimEnd() : undefined;
}

function isSweObservation(message: unknown): boolean {
  return isObject(message) && message['role'] === 'user' && message['message_type'] === 'observation';
}

/**
 * SWE-agent thought/action steps: observation index → the index of the action it answers, when
 * the observation directly follows an action whose command is known. Exported for readers of one
 * message at a time: such messages read differently alone (their neighbour decides).
 */
export function sweSteps(messages: readonly unknown[]): Map<number, number> {
  const steps = new Map<number, number>();
  messages.forEach((m, i) => {
    if (i > 0 && isSweObservation(m) && sweCommand(messages[i - 1]) !== undefined) steps.set(i, i - 1);
  });
  return steps;
}

/** A legacy `function_call` has no id: both sides get this one, derived from the caller's index. */
function legacyCallId(assistantIndex: number): string {
  return `fc_${assistantIndex}`;
}

interface Site {
  ctx: ReadContext;
  path: string;
  near: SourcePos;
}

function bad(site: Site, field: string, expected: string, value: unknown, hint: string): null {
  site.ctx.error(
    CODE,
    site.near,
    `\`${joinPath(site.path, field)}\` must be ${expected}; found ${describeValue(value)}.`,
    hint,
  );
  return null;
}

/** Arguments are a JSON string in the API; recorded runs sometimes store them parsed. */
function readArguments(value: unknown, site: Site): string | null {
  if (typeof value === 'string') return value;
  if (value === undefined || value === null) return '{}';
  if (typeof value === 'object') return JSON.stringify(value);
  return bad(site, 'arguments', 'a JSON string', value, 'Write the arguments as a JSON-encoded string.');
}

function readFunction(fn: unknown, id: string, site: Site): ToolCall | null {
  if (!isObject(fn)) return bad(site, '', 'an object', fn, 'Write {"name": "...", "arguments": "{...}"}.');
  const near = site.ctx.pos(fn, site.near);
  const name = fn['name'];
  if (typeof name !== 'string' || name === '') {
    return bad({ ...site, near }, 'name', 'a non-empty string', name, 'Name the function that was called.');
  }
  const args = readArguments(fn['arguments'], { ...site, near });
  return args === null ? null : { id, name, arguments: args };
}

const CALL_HINT = 'Each tool call is {"id": "...", "type": "function", "function": {"name", "arguments"}}.';

function readToolCall(call: unknown, site: Site): ToolCall | null {
  if (!isObject(call)) return bad(site, '', 'an object', call, CALL_HINT);
  const near = site.ctx.pos(call, site.near);
  const id = call['id'];
  if (typeof id !== 'string' || id === '')
    return bad({ ...site, near }, 'id', 'a non-empty string', id, CALL_HINT);
  if (call['type'] !== undefined && call['type'] !== 'function') {
    return bad(
      { ...site, near },
      'type',
      '"function"',
      call['type'],
      'Only function tool calls are supported.',
    );
  }
  return readFunction(call['function'], id, { ...site, path: joinPath(site.path, 'function'), near });
}

function readToolCalls(value: unknown, site: Site): ToolCall[] | null {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) return bad(site, 'tool_calls', 'an array', value, CALL_HINT);
  const calls: ToolCall[] = [];
  let ok = true;
  value.forEach((call, i) => {
    const parsed = readToolCall(call, { ...site, path: joinPath(joinPath(site.path, 'tool_calls'), i) });
    if (parsed) calls.push(parsed);
    else ok = false;
  });
  return ok ? calls : null;
}

/** `tool_call_id`, or SWE-agent's `tool_call_ids` list: the first is call_id, all are call_ids. */
function readResultIds(message: JsonObject, site: Site): { call_id?: string; call_ids?: string[] } | null {
  const single = message['tool_call_id'];
  // An empty id names no call: the output is a log of its own (as native outputs without call_id).
  if (single === '') return {};
  if (typeof single === 'string') return { call_id: single };
  if (single !== undefined && single !== null) {
    return bad(
      site,
      'tool_call_id',
      'a string',
      single,
      'Give the id of the tool call this message answers.',
    );
  }
  const list = message['tool_call_ids'];
  if (list === undefined || list === null) return {};
  if (!Array.isArray(list) || list.length === 0 || !list.every((id) => typeof id === 'string')) {
    return bad(
      site,
      'tool_call_ids',
      'a non-empty array of strings',
      list,
      'List the ids of the calls answered.',
    );
  }
  const ids = list as string[];
  return ids.length > 1 ? { call_id: ids[0], call_ids: ids } : { call_id: ids[0] };
}

interface Legacy {
  /** Index of the nearest earlier assistant message, and whether it made a legacy function_call. */
  lastAssistant: number | null;
  lastHadFunctionCall: boolean;
  /** SWE-agent thought/action steps of the array (sweSteps). */
  swe: Map<number, number>;
}

/** The synthetic call of a SWE-agent action whose observation follows it. */
function sweCall(message: unknown, index: number): ToolCall | undefined {
  const command = sweCommand(message);
  if (command === undefined) return undefined;
  return { id: sweCallId(index), name: SWE_TOOL, arguments: JSON.stringify({ command }) };
}

function readMessage(
  message: unknown,
  index: number,
  path: string,
  ctx: ReadContext,
  legacy: Legacy,
): Artifact | null {
  const near = ctx.pos(message);
  const site: Site = { ctx, path, near };
  if (!isObject(message)) {
    return bad(site, '', 'a message object', message, 'Write each message as {"role", "content"}.');
  }
  const role = message['role'];
  const kind = typeof role === 'string' ? ROLE_KINDS[role] : undefined;
  if (typeof role !== 'string' || kind === undefined) {
    ctx.error(
      CODE,
      near,
      `\`${joinPath(path, 'role')}\` must be one of ${ROLES}; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
      'Fix the role, or pass --input-format to choose another reader.',
    );
    return null;
  }
  const content = readContent(message['content'], { ctx, path: joinPath(path, 'content'), near, code: CODE });
  if (content === null) return null;
  const id = `m${index}`;
  const name = typeof message['name'] === 'string' ? message['name'] : undefined;
  const base = { id, kind, role: role === kind ? undefined : role, content, source: near };

  if (role === 'assistant') {
    const calls = readToolCalls(message['tool_calls'], site);
    if (calls === null) return null;
    const fc = message['function_call'];
    const hadFunctionCall = fc !== undefined && fc !== null;
    if (hadFunctionCall) {
      const call = readFunction(fc, legacyCallId(index), { ...site, path: joinPath(path, 'function_call') });
      if (call === null) return null;
      calls.push(call);
    }
    const swe = legacy.swe.get(index + 1) === index ? sweCall(message, index) : undefined;
    if (swe) calls.push(swe);
    legacy.lastAssistant = index;
    legacy.lastHadFunctionCall = hadFunctionCall;
    return buildArtifact({ ...base, tool_calls: calls.length > 0 ? calls : undefined });
  }
  if (role === 'function') {
    // A legacy function result answers the function_call of the assistant message before it.
    const callId =
      legacy.lastAssistant !== null && legacy.lastHadFunctionCall
        ? legacyCallId(legacy.lastAssistant)
        : undefined;
    return buildArtifact({ ...base, tool: name, call_id: callId });
  }
  if (role === 'tool') {
    const ids = readResultIds(message, site);
    if (ids === null) return null;
    return buildArtifact({ ...base, tool: name, ...ids });
  }
  const action = legacy.swe.get(index);
  if (action !== undefined) {
    // A SWE-agent observation: the output of the action before it (role `user` kept as written).
    return buildArtifact({ ...base, kind: 'tool', role, tool: SWE_TOOL, call_id: sweCallId(action) });
  }
  return buildArtifact(base);
}

export function readOpenAi(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: ReaderOutput['diagnostics'] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const found = findMessageArray(doc.value);
  if (!found) {
    ctx.error(
      CODE,
      ctx.pos(doc.value),
      `An OpenAI chat transcript must be an array of messages or an object with a \`messages\` array; found ${describeValue(doc.value)}.`,
      `Put the messages under one of ${MESSAGE_KEYS.join(', ')}, or pass --input-format to choose another reader.`,
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const legacy: Legacy = { lastAssistant: null, lastHadFunctionCall: false, swe: sweSteps(found.messages) };
  const artifacts: Artifact[] = [];
  found.messages.forEach((message, i) => {
    const artifact = readMessage(message, i, joinPath(found.key ?? '', i), ctx, legacy);
    if (artifact) artifacts.push(artifact);
  });
  const meta = isObject(doc.value) ? scalarFields(doc.value, MESSAGE_KEYS) : {};
  return { artifacts, meta, diagnostics };
}
