// LangChain serialized messages reader (Python and JS): the `lc: 1` constructor form
// (`{lc:1, type:"constructor", id:[...,"AIMessage"], kwargs:{...}}`, what dumpd / JSON.stringify
// write) and the `messages_to_dict` / StoredMessage form (`{type:"ai", data:{...}}`), as a bare
// list or under `messages` (a LangSmith run's `messages: [[...]]` batch of one is unwrapped).
// Message i becomes artifact `m<i>`: human → user, ai → assistant (tool_calls), system →
// system (developer when so marked), tool → tool (call_id = tool_call_id, status error →
// is_error), function → tool answering the legacy function_call before it, chat → by its role.
// RemoveMessage is a LangGraph instruction, not a message: left out with a warning.
import type { Artifact, ArtifactKind, Diagnostic } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { ReadContext } from './context.js';
import { CODE, readAiCalls, readLcContent, type FieldSite } from './langchain-message.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, joinPath, safeName, scalarFields, type JsonObject } from './values.js';

type LcType = 'human' | 'ai' | 'system' | 'developer' | 'tool' | 'function' | 'chat' | 'remove';

const CLASS_TYPES: Record<string, LcType> = {
  HumanMessage: 'human',
  AIMessage: 'ai',
  SystemMessage: 'system',
  ToolMessage: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'chat',
  RemoveMessage: 'remove',
};
/** `type` of the dict form: Python's message types (chunks keep their class name), JS's StoredMessage. */
const DICT_TYPES: Record<string, LcType> = {
  human: 'human',
  ai: 'ai',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
  function: 'function',
  chat: 'chat',
  generic: 'chat',
  remove: 'remove',
};
const CHAT_ROLES: Record<string, ArtifactKind> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  system: 'system',
  developer: 'system',
};

function classType(id: unknown): LcType | undefined {
  if (!Array.isArray(id) || id.length === 0) return undefined;
  const last = id[id.length - 1];
  if (typeof last !== 'string') return undefined;
  const name = last.endsWith('Chunk') ? last.slice(0, -'Chunk'.length) : last;
  return Object.hasOwn(CLASS_TYPES, name) ? CLASS_TYPES[name] : undefined;
}

function dictType(type: unknown): LcType | undefined {
  if (typeof type !== 'string') return undefined;
  if (Object.hasOwn(DICT_TYPES, type)) return DICT_TYPES[type];
  return type.endsWith('MessageChunk') ? classType([type]) : undefined;
}

function isLangChainMessage(item: unknown): boolean {
  if (!isObject(item)) return false;
  if (item['lc'] === 1)
    return item['type'] === 'constructor' && classType(item['id']) !== undefined && isObject(item['kwargs']);
  return dictType(item['type']) !== undefined && isObject(item['data']);
}

/** Shaped like one of the two forms, even if malformed: the reader says what is wrong with it. */
function looksLangChain(item: unknown): boolean {
  return isObject(item) && ('lc' in item || (typeof item['type'] === 'string' && 'data' in item));
}

function messagesOf(root: unknown): { key: string; messages: unknown[] } | null {
  if (Array.isArray(root)) return { key: '', messages: root };
  if (!isObject(root) || !Array.isArray(root['messages'])) return null;
  const messages = root['messages'];
  // LangSmith chat-model runs record their input as a batch: `messages: [[...]]`.
  if (messages.length === 1 && Array.isArray(messages[0]))
    return { key: 'messages[0]', messages: messages[0] };
  return { key: 'messages', messages };
}

const CHECKED = 5;

/** The first few items are LangChain messages (at least one exactly so, none of another shape). */
export function isLangChainDocument(root: unknown): boolean {
  const found = messagesOf(root);
  if (!found || found.messages.length === 0) return false;
  const head = found.messages.slice(0, CHECKED);
  return head.every(looksLangChain) && head.some(isLangChainMessage);
}

interface Message {
  type: LcType;
  fields: JsonObject;
  site: FieldSite;
}

/** The message's type and fields in either form, or null after reporting why it is neither. */
function normalize(item: unknown, path: string, ctx: ReadContext): Message | null {
  const near = ctx.pos(item);
  if (isObject(item) && item['lc'] === 1) {
    const type = item['type'] === 'constructor' ? classType(item['id']) : undefined;
    const kwargs = item['kwargs'];
    if (type !== undefined && isObject(kwargs))
      return {
        type,
        fields: kwargs,
        site: { ctx, path: joinPath(path, 'kwargs'), near: ctx.pos(kwargs, near) },
      };
    ctx.error(
      CODE,
      near,
      `\`${path}\` must be a serialized LangChain message: {"lc": 1, "type": "constructor", "id": [..., "<Message class>"], "kwargs": {...}}.`,
      'Serialize message objects (HumanMessage, AIMessage, SystemMessage, ToolMessage…), or pass --input-format to choose another reader.',
    );
    return null;
  }
  const type = isObject(item) ? dictType(item['type']) : undefined;
  const data = isObject(item) ? item['data'] : undefined;
  if (type !== undefined && isObject(data))
    return { type, fields: data, site: { ctx, path: joinPath(path, 'data'), near: ctx.pos(data, near) } };
  const typeName = isObject(item) && typeof item['type'] === 'string' ? safeName(item['type']) : null;
  ctx.error(
    CODE,
    near,
    isObject(item) && type === undefined
      ? `\`${joinPath(path, 'type')}\` must be human, ai, system, tool, function or chat${typeName ? `; found ${typeName}` : `; found ${describeValue(item['type'])}`}.`
      : `\`${path}\` must be {"type": ..., "data": {...}}; found ${isObject(item) ? `${describeValue(data)} as data` : describeValue(item)}.`,
    'Write each message as messages_to_dict does, or pass --input-format to choose another reader.',
  );
  return null;
}

function str(fields: JsonObject, key: string): string | undefined {
  const v = fields[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

interface State {
  /** Index of the latest AI message when it made a legacy function_call (a FunctionMessage answers it). */
  legacyCaller: number | null;
  model?: string;
}

function kindOf(m: Message): { kind: ArtifactKind; role?: string } | null {
  const f = m.fields;
  switch (m.type) {
    case 'human':
      return { kind: 'user' };
    case 'ai':
      return { kind: 'assistant' };
    case 'system': {
      const extra = f['additional_kwargs'];
      const dev = isObject(extra) && extra['__openai_role__'] === 'developer';
      return dev ? { kind: 'system', role: 'developer' } : { kind: 'system' };
    }
    case 'developer':
      return { kind: 'system', role: 'developer' };
    case 'tool':
      return { kind: 'tool' };
    case 'function':
      return { kind: 'tool', role: 'function' };
    default: {
      const role = f['role'];
      const kind = typeof role === 'string' && Object.hasOwn(CHAT_ROLES, role) ? CHAT_ROLES[role] : undefined;
      if (kind === undefined || typeof role !== 'string') {
        m.site.ctx.error(
          CODE,
          m.site.near,
          `\`${joinPath(m.site.path, 'role')}\` of a chat message must be one of ${Object.keys(CHAT_ROLES).join(', ')}; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
          'Use a HumanMessage, AIMessage or SystemMessage, or a chat role the model API knows.',
        );
        return null;
      }
      return role === kind ? { kind } : { kind, role };
    }
  }
}

function readMessage(
  item: unknown,
  index: number,
  path: string,
  ctx: ReadContext,
  state: State,
): Artifact | null {
  const m = normalize(item, path, ctx);
  if (!m) return null;
  const source = ctx.pos(item);
  if (m.type === 'remove') {
    ctx.warning(
      'langchain-remove-message',
      source,
      `\`${path}\` is a RemoveMessage: a LangGraph instruction to delete a message, not a message the model saw. It is left out.`,
      'Record the conversation after LangGraph applied its reducers.',
    );
    return null;
  }
  const kind = kindOf(m);
  if (!kind) return null;
  const f = m.fields;
  const base = { id: `m${index}`, ...kind, source };
  if (m.type === 'ai') {
    const calls = readAiCalls(f, m.site, `fc_${index}`);
    const content = readLcContent(f['content'], m.site, calls?.ids ?? new Set());
    if (!calls || content === null) return null;
    state.legacyCaller = calls.legacy ? index : null;
    const meta = f['response_metadata'];
    state.model ??= isObject(meta) ? (str(meta, 'model_name') ?? str(meta, 'model')) : undefined;
    return buildArtifact({ ...base, content, tool_calls: calls.calls.length > 0 ? calls.calls : undefined });
  }
  const content = readLcContent(f['content'], m.site, new Set());
  if (content === null) return null;
  if (m.type === 'tool') {
    const callId = f['tool_call_id'];
    if (typeof callId !== 'string' || callId === '') {
      ctx.error(
        CODE,
        m.site.near,
        `\`${joinPath(m.site.path, 'tool_call_id')}\` must be a non-empty string; found ${describeValue(callId)}.`,
        'A ToolMessage names the id of the tool call it answers.',
      );
      return null;
    }
    const error = f['status'] === 'error' ? true : undefined;
    return buildArtifact({ ...base, content, tool: str(f, 'name'), call_id: callId, is_error: error });
  }
  if (m.type === 'function') {
    // A FunctionMessage has no id: it answers the legacy function_call of the AI message before it.
    const caller = state.legacyCaller;
    return buildArtifact({
      ...base,
      content,
      tool: str(f, 'name'),
      call_id: caller === null ? undefined : `fc_${caller}`,
    });
  }
  return buildArtifact({ ...base, content });
}

export function readLangChain(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: Diagnostic[] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const found = messagesOf(doc.value);
  if (!found) {
    ctx.error(
      CODE,
      ctx.pos(doc.value),
      `A LangChain transcript must be a list of serialized messages or an object with a \`messages\` list; found ${describeValue(doc.value)}.`,
      'Write the messages with messages_to_dict or dumpd, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const state: State = { legacyCaller: null };
  const artifacts: Artifact[] = [];
  found.messages.forEach((item, i) => {
    const artifact = readMessage(item, i, joinPath(found.key, i), ctx, state);
    if (artifact) artifacts.push(artifact);
  });
  const meta = isObject(doc.value) ? scalarFields(doc.value, ['messages']) : {};
  if (state.model !== undefined && meta['model'] === undefined) meta['model'] = state.model;
  return { artifacts, meta, diagnostics };
}
