// Vercel AI SDK reader: `ModelMessage[]` (v5+; v4 `CoreMessage[]` too), bare or as the options of
// generateText/streamText: `{system?, messages}` (or `prompt`, and v7 `instructions`). Message i
// becomes artifact `m<i>`; each tool-result part of a tool message its own `tool` artifact
// `m<i>.<part>` positioned at the part; a top-level system prompt becomes `system` (or
// `instructions`). Parts: text → text; tool-call → a ToolCall of the assistant artifact; images,
// files, reasoning and provider-executed tool calls and results → opaque parts kept as parsed.
// Tool approval requests and responses are not sent to the model, but say which call waits for the
// user and which result follows the user's decision (vercel-ai-approvals.ts).
import type { Artifact, ArtifactKind, ContentPart, SourcePos, ToolCall } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { readPart, type ContentSite } from './content.js';
import { ReadContext } from './context.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, joinPath, scalarFields, type JsonObject } from './values.js';
import { readToolCall, readToolResult } from './vercel-ai-parts.js';
import { applyApprovals, approvalStates } from './vercel-ai-approvals.js';
import { pushAll } from '../collections.js';

const CODE = 'invalid-message';
const ROOT_KEYS = ['messages', 'prompt', 'system', 'instructions'] as const;
const ROLES: Record<string, ArtifactKind> = {
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
};
/** Part types no other chat format puts in a `{role, content}` message. */
const VERCEL_PARTS = new Set([
  'tool-call',
  'tool-result',
  'reasoning',
  'redacted-reasoning',
  'reasoning-file',
  'tool-approval-request',
  'tool-approval-response',
]);
const APPROVALS = new Set(['tool-approval-request', 'tool-approval-response']);

function isVercelPart(part: unknown): boolean {
  if (!isObject(part) || typeof part['type'] !== 'string') return false;
  // Anthropic images carry `source`, OpenAI chat files a `file` object: only the SDK's have these.
  if (part['type'] === 'image') return 'image' in part;
  if (part['type'] === 'file') return 'data' in part && !('file' in part);
  return VERCEL_PARTS.has(part['type']);
}

function messagesOf(root: unknown): { key: string | null; messages: unknown[] } | null {
  if (Array.isArray(root)) return { key: null, messages: root };
  if (!isObject(root)) return null;
  if (Array.isArray(root['messages'])) return { key: 'messages', messages: root['messages'] };
  if (Array.isArray(root['prompt'])) return { key: 'prompt', messages: root['prompt'] };
  return null;
}

/**
 * A message array with a part only the AI SDK writes, or a tool message whose content is parts
 * (OpenAI tool messages name their call in `tool_call_id` instead). Plain text chats look the same
 * in every format and are left to the OpenAI reader, which reads them identically.
 */
export function isVercelAiDocument(root: unknown): boolean {
  const found = messagesOf(root);
  if (!found) return false;
  return found.messages.some((m) => {
    if (!isObject(m) || typeof m['role'] !== 'string') return false;
    const content = m['content'];
    if (!Array.isArray(content)) return false;
    if (m['role'] === 'tool' && !('tool_call_id' in m) && !('tool_call_ids' in m)) return true;
    return content.some(isVercelPart);
  });
}

interface MessageSite {
  ctx: ReadContext;
  path: string;
  near: SourcePos;
  id: string;
}

function bad(site: MessageSite, field: string, expected: string, value: unknown, hint: string): void {
  site.ctx.error(
    CODE,
    site.near,
    `\`${joinPath(site.path, field)}\` must be ${expected}; found ${describeValue(value)}.`,
    hint,
  );
}

function partSite(site: MessageSite, parts: unknown[], i: number): ContentSite {
  const item = parts[i];
  return {
    ctx: site.ctx,
    path: joinPath(joinPath(site.path, 'content'), i),
    near: site.ctx.pos(item, site.ctx.pos(parts, site.near)),
    code: CODE,
  };
}

function misplaced(site: ContentSite, type: string, role: string): null {
  site.ctx.error(
    CODE,
    site.near,
    `\`${site.path}\` is a ${type} part, which a ${role} message cannot hold.`,
    'Tool calls belong in assistant messages and tool results in tool messages.',
  );
  return null;
}

/** One part of a system, user or assistant message: a part, a call (pushed), left out, or invalid. */
function readOwnPart(
  item: unknown,
  site: ContentSite,
  role: string,
  calls: ToolCall[],
): ContentPart | 'call' | 'left-out' | null {
  const type = isObject(item) ? item['type'] : undefined;
  if (!isObject(item) || typeof type !== 'string') return readPart(item, site);
  if (APPROVALS.has(type)) return role === 'assistant' ? 'left-out' : misplaced(site, type, role);
  if (type === 'tool-call' || type === 'tool-result') {
    if (role !== 'assistant') return misplaced(site, type, role);
    // Provider-executed tools (web search…) run at the provider: call and result are both in the
    // assistant turn and are replayed to that provider as they are, like Anthropic server tools.
    if (type === 'tool-result' || item['providerExecuted'] === true) return item as ContentPart;
    const call = readToolCall(item, site);
    if (!call) return null;
    calls.push(call);
    return 'call';
  }
  return readPart(item, site);
}

function readOwnMessage(
  message: JsonObject,
  role: string,
  kind: ArtifactKind,
  site: MessageSite,
): Artifact | null {
  const content = message['content'];
  const base = { id: site.id, kind, source: site.near };
  if (typeof content === 'string') return buildArtifact({ ...base, content });
  if (!Array.isArray(content)) {
    bad(
      site,
      'content',
      'a string or an array of parts',
      content,
      'Write the content as text or as {"type":...} parts.',
    );
    return null;
  }
  const parts: ContentPart[] = [];
  const calls: ToolCall[] = [];
  let ok = true;
  let leftOut = 0;
  content.forEach((item, i) => {
    const part = readOwnPart(item, partSite(site, content, i), role, calls);
    if (part === null) ok = false;
    else if (part === 'left-out') leftOut++;
    else if (part !== 'call') parts.push(part);
  });
  if (!ok) return null;
  // A turn that only held approval requests said nothing to the model.
  if (parts.length === 0 && calls.length === 0 && leftOut > 0) return null;
  return buildArtifact({ ...base, content: parts, tool_calls: calls.length > 0 ? calls : undefined });
}

function readToolMessage(message: JsonObject, site: MessageSite): Artifact[] {
  const content = message['content'];
  if (!Array.isArray(content)) {
    bad(
      site,
      'content',
      'an array of tool-result parts',
      content,
      'A tool message lists {"type":"tool-result",...} parts.',
    );
    return [];
  }
  const out: Artifact[] = [];
  let ok = true;
  content.forEach((item, i) => {
    const ps = partSite(site, content, i);
    const type = isObject(item) ? item['type'] : undefined;
    if (type === 'tool-approval-response') return;
    if (!isObject(item) || type !== 'tool-result') {
      site.ctx.error(
        CODE,
        ps.near,
        `\`${ps.path}\` must be a tool-result part; found ${isObject(item) ? 'another part type' : describeValue(item)}.`,
        'A tool message holds only tool-result (and tool-approval-response) parts.',
      );
      ok = false;
      return;
    }
    const result = readToolResult(item, ps);
    if (!result) {
      ok = false;
      return;
    }
    out.push(
      buildArtifact({
        id: `${site.id}.${i}`,
        kind: 'tool',
        content: result.content,
        tool: result.toolName,
        call_id: result.callId,
        is_error: result.isError ? true : undefined,
        source: ps.near,
      }),
    );
  });
  return ok ? out : [];
}

function readMessage(message: unknown, site: MessageSite): Artifact[] {
  if (!isObject(message)) {
    bad(site, '', 'a message object', message, 'Write each message as {"role", "content"}.');
    return [];
  }
  const role = message['role'];
  const kind = typeof role === 'string' && Object.hasOwn(ROLES, role) ? ROLES[role] : undefined;
  if (typeof role !== 'string' || kind === undefined) {
    site.ctx.error(
      CODE,
      site.near,
      `\`${joinPath(site.path, 'role')}\` must be one of system, user, assistant, tool; found ${typeof role === 'string' ? 'another role' : describeValue(role)}.`,
      'Fix the role, or pass --input-format to choose another reader.',
    );
    return [];
  }
  if (role === 'tool') return readToolMessage(message, site);
  const artifact = readOwnMessage(message, role, kind, site);
  return artifact ? [artifact] : [];
}

/** `system` / `instructions`: a string, a system message, or a list of system messages. */
function readSystemField(key: string, value: unknown, ctx: ReadContext, root: JsonObject): Artifact[] {
  if (value === undefined || value === null || value === '') return [];
  const near = ctx.pos(root);
  if (typeof value === 'string')
    return [buildArtifact({ id: key, kind: 'system', content: value, source: near })];
  const list = Array.isArray(value) ? value : [value];
  const out: Artifact[] = [];
  list.forEach((item, i) => {
    const id = Array.isArray(value) ? `${key}.${i}` : key;
    const path = Array.isArray(value) ? joinPath(key, i) : key;
    const site: MessageSite = { ctx, path, near: ctx.pos(item, ctx.pos(value, near)), id };
    if (!isObject(item) || (item['role'] !== undefined && item['role'] !== 'system')) {
      bad(
        site,
        '',
        'a string or a system message',
        item,
        'Write the system prompt as a string or {"role":"system","content":"..."}.',
      );
      return;
    }
    const artifact = readOwnMessage(item, 'system', 'system', site);
    if (artifact) out.push(artifact);
  });
  return out;
}

export function readVercelAi(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: ReaderOutput['diagnostics'] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const root = doc.value;
  const rootObj = isObject(root) ? root : null;
  const artifacts: Artifact[] = [];
  if (rootObj) {
    pushAll(artifacts, readSystemField('system', rootObj['system'], ctx, rootObj));
    pushAll(artifacts, readSystemField('instructions', rootObj['instructions'], ctx, rootObj));
  }
  const found = messagesOf(root);
  if (!found && rootObj && typeof rootObj['prompt'] === 'string') {
    // generateText({prompt: "..."}) is one user message.
    artifacts.push(
      buildArtifact({ id: 'prompt', kind: 'user', content: rootObj['prompt'], source: ctx.pos(root) }),
    );
  } else if (!found) {
    ctx.error(
      CODE,
      ctx.pos(root),
      `An AI SDK transcript must be an array of messages or an object with a \`messages\` array; found ${describeValue(root)}.`,
      'Write the ModelMessage[] (or {"system": "...", "messages": [...]}), or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  } else {
    found.messages.forEach((message, i) => {
      const path = joinPath(found.key ?? '', i);
      pushAll(artifacts, readMessage(message, { ctx, path, near: ctx.pos(message), id: `m${i}` }));
    });
  }
  const meta = rootObj ? scalarFields(rootObj, ROOT_KEYS) : {};
  const approvals = approvalStates(found?.messages ?? []);
  return { artifacts: applyApprovals(artifacts, approvals), meta, diagnostics };
}
