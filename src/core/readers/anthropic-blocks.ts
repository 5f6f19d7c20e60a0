// Anthropic content blocks → artifacts. Shared by the Anthropic Messages reader and the Claude
// Code session reader, whose `message` field holds the same blocks.
//
// - text → a text part; thinking, redacted_thinking, image, document and any other block → an
//   opaque part kept as parsed (thinking blocks are provider-signed and must not be altered);
// - tool_use → a ToolCall of the message (arguments = JSON.stringify(input));
// - tool_result → its own `tool` artifact `<id>.<blockIndex>` with call_id = tool_use_id.
import type { Artifact, Content, ContentPart, SourcePos, ToolCall } from '../types.js';
import { buildArtifact, isEmptyContent } from './artifact-builder.js';
import { readContent, readPart, type ContentSite } from './content.js';
import { describeValue, isObject, joinPath, type JsonObject } from './values.js';

export interface ToolResultBlock {
  blockIndex: number;
  node: JsonObject;
  callId: string;
  content: Content;
  isError: boolean;
}

export interface AnthropicContent {
  /** The message's own content: the string, or every block that is not tool_use/tool_result. */
  content: Content;
  toolCalls: ToolCall[];
  results: ToolResultBlock[];
}

function requireString(block: JsonObject, field: string, site: ContentSite): string | null {
  const value = block[field];
  if (typeof value === 'string' && value !== '') return value;
  site.ctx.error(
    site.code,
    site.ctx.pos(block, site.near),
    `\`${joinPath(site.path, field)}\` must be a non-empty string; found ${describeValue(value)}.`,
    `Every ${String(block['type'])} block needs its \`${field}\`.`,
  );
  return null;
}

function readToolUse(block: JsonObject, site: ContentSite): ToolCall | null {
  const id = requireString(block, 'id', site);
  const name = requireString(block, 'name', site);
  if (id === null || name === null) return null;
  return { id, name, arguments: JSON.stringify(block['input'] ?? {}) };
}

function readToolResult(block: JsonObject, blockIndex: number, site: ContentSite): ToolResultBlock | null {
  const callId = requireString(block, 'tool_use_id', site);
  const near = site.ctx.pos(block, site.near);
  const content = readContent(block['content'], { ...site, path: joinPath(site.path, 'content'), near });
  const isError = block['is_error'];
  if (isError !== undefined && isError !== null && typeof isError !== 'boolean') {
    site.ctx.error(
      site.code,
      near,
      `\`${joinPath(site.path, 'is_error')}\` must be a boolean; found ${describeValue(isError)}.`,
      'Write is_error as true or false.',
    );
    return null;
  }
  if (callId === null || content === null) return null;
  return { blockIndex, node: block, callId, content, isError: isError === true };
}

/** Reads a message's `content`; null when anything in it is invalid (each problem reported). */
export function readAnthropicContent(value: unknown, site: ContentSite): AnthropicContent | null {
  if (typeof value === 'string') return { content: value, toolCalls: [], results: [] };
  if (!Array.isArray(value)) {
    site.ctx.error(
      site.code,
      site.near,
      `\`${site.path}\` must be a string or an array of content blocks; found ${describeValue(value)}.`,
      'Write the content as a string or as an array of {"type":...} blocks.',
    );
    return null;
  }
  const parts: ContentPart[] = [];
  const toolCalls: ToolCall[] = [];
  const results: ToolResultBlock[] = [];
  let ok = true;
  value.forEach((block, i) => {
    const blockSite = { ...site, path: joinPath(site.path, i), near: site.ctx.pos(value, site.near) };
    if (isObject(block) && block['type'] === 'tool_use') {
      const call = readToolUse(block, blockSite);
      if (call) toolCalls.push(call);
      else ok = false;
    } else if (isObject(block) && block['type'] === 'tool_result') {
      const result = readToolResult(block, i, blockSite);
      if (result) results.push(result);
      else ok = false;
    } else {
      const part = readPart(block, blockSite);
      if (part) parts.push(part);
      else ok = false;
    }
  });
  return ok ? { content: parts, toolCalls, results } : null;
}

export interface MessageBase {
  id: string;
  kind: 'user' | 'assistant';
  source: SourcePos;
  sidechain?: boolean;
}

/**
 * The artifacts of one message: its tool results first (the API requires tool_result blocks to
 * lead a user turn, so this is the order the model saw), then the message itself, which is left
 * out only when it held tool results and nothing else.
 */
export function messageArtifacts(
  msg: AnthropicContent,
  base: MessageBase,
  resultSource: (result: ToolResultBlock) => SourcePos,
): Artifact[] {
  const out: Artifact[] = msg.results.map((r) =>
    buildArtifact({
      id: `${base.id}.${r.blockIndex}`,
      kind: 'tool',
      content: r.content,
      call_id: r.callId,
      // A failure is an `error` to the stabilizer through is_error, as in every format (protect.ts).
      is_error: r.isError ? true : undefined,
      sidechain: base.sidechain,
      source: resultSource(r),
    }),
  );
  const hasOwn = !isEmptyContent(msg.content) || msg.toolCalls.length > 0;
  if (msg.results.length === 0 || hasOwn) {
    out.push(
      buildArtifact({
        id: base.id,
        kind: base.kind,
        content: msg.content,
        tool_calls: msg.toolCalls.length > 0 ? msg.toolCalls : undefined,
        sidechain: base.sidechain,
        source: base.source,
      }),
    );
  }
  return out;
}
