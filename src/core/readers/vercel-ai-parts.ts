// Vercel AI SDK content parts that need more than "text or opaque": tool calls and tool results,
// in both shapes the SDK has written (v5+: `input` / `output: {type, value}`; v4 CoreMessage:
// `args` / `result` + `isError`). A tool result's content is what the SDK sends the provider for
// it: text and error-text as they are, json and error-json serialized, `content` as its parts,
// and an `execution-denied` output as its reason (or the SDK's own fallback sentence).
import type { Content, ContentPart, ToolCall } from '../types.js';
import { readPart, type ContentSite } from './content.js';
import { describeValue, isObject, joinPath, type JsonObject } from './values.js';

const CALL_HINT = 'A tool-call part is {"type":"tool-call","toolCallId","toolName","input"}.';
const RESULT_HINT =
  'A tool-result part is {"type":"tool-result","toolCallId","toolName","output":{"type":"text"|"json"|...,"value"}}.';

/** What the SDK sends for a denied execution without a reason (its provider adapters' wording). */
export const DENIED_TEXT = 'Tool execution denied.';

export interface ToolResult {
  callId: string;
  toolName?: string;
  content: Content;
  isError: boolean;
}

function bad(site: ContentSite, field: string, expected: string, value: unknown, hint: string): null {
  site.ctx.error(
    site.code,
    site.near,
    `\`${joinPath(site.path, field)}\` must be ${expected}; found ${describeValue(value)}.`,
    hint,
  );
  return null;
}

function requiredId(part: JsonObject, field: string, site: ContentSite, hint: string): string | null {
  const value = part[field];
  return typeof value === 'string' && value !== ''
    ? value
    : bad(site, field, 'a non-empty string', value, hint);
}

/** `site.near` must already be the part's own position. */
export function readToolCall(part: JsonObject, site: ContentSite): ToolCall | null {
  const id = requiredId(part, 'toolCallId', site, CALL_HINT);
  const name = requiredId(part, 'toolName', site, CALL_HINT);
  if (id === null || name === null) return null;
  // v5 renamed `args` to `input`; both are the parsed arguments object.
  const input = 'input' in part ? part['input'] : part['args'];
  return { id, name, arguments: JSON.stringify(input ?? {}) };
}

function json(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** Parts of a `content` output (or v4 `experimental_content`): text reduced, the rest as parsed. */
function outputParts(value: unknown, site: ContentSite): ContentPart[] | null {
  if (!Array.isArray(value)) {
    return bad(site, '', 'an array of parts', value, 'A content output lists {"type":...} parts.');
  }
  const parts: ContentPart[] = [];
  let ok = true;
  value.forEach((item, i) => {
    const part = readPart(item, {
      ...site,
      path: joinPath(site.path, i),
      near: site.ctx.pos(value, site.near),
    });
    if (part) parts.push(part);
    else ok = false;
  });
  return ok ? parts : null;
}

function readOutput(output: unknown, site: ContentSite): { content: Content; isError: boolean } | null {
  if (!isObject(output) || typeof output['type'] !== 'string') {
    return bad(site, '', 'an object with a string `type`', output, RESULT_HINT);
  }
  const at = { ...site, near: site.ctx.pos(output, site.near) };
  const value = output['value'];
  switch (output['type']) {
    case 'text':
    case 'error-text':
      if (typeof value !== 'string') return bad(at, 'value', 'a string', value, RESULT_HINT);
      return { content: value, isError: output['type'] === 'error-text' };
    case 'json':
    case 'error-json':
      return { content: json(value), isError: output['type'] === 'error-json' };
    case 'execution-denied': {
      const reason = output['reason'];
      if (reason !== undefined && typeof reason !== 'string')
        return bad(at, 'reason', 'a string', reason, 'Give the denial reason as text, or leave it out.');
      return { content: reason ?? DENIED_TEXT, isError: true };
    }
    case 'content': {
      const parts = outputParts(value, { ...at, path: joinPath(at.path, 'value') });
      return parts ? { content: parts, isError: false } : null;
    }
    default:
      site.ctx.error(
        site.code,
        at.near,
        `\`${joinPath(site.path, 'type')}\` is not a tool output type of the AI SDK.`,
        'Use text, json, error-text, error-json, execution-denied or content.',
      );
      return null;
  }
}

/** v4 result: any JSON value; `experimental_content`, when present, is what the model was sent. */
function readV4Result(part: JsonObject, site: ContentSite): { content: Content; isError: boolean } | null {
  const isError = part['isError'];
  if (isError !== undefined && isError !== null && typeof isError !== 'boolean')
    return bad(site, 'isError', 'a boolean', isError, 'Write isError as true or false.');
  const rich = part['experimental_content'];
  if (Array.isArray(rich)) {
    const parts = outputParts(rich, { ...site, path: joinPath(site.path, 'experimental_content') });
    return parts ? { content: parts, isError: isError === true } : null;
  }
  return { content: json(part['result']), isError: isError === true };
}

/** `site.near` must already be the part's own position. */
export function readToolResult(part: JsonObject, site: ContentSite): ToolResult | null {
  const callId = requiredId(part, 'toolCallId', site, RESULT_HINT);
  const name = part['toolName'];
  if (name !== undefined && typeof name !== 'string')
    return bad(site, 'toolName', 'a string', name, RESULT_HINT);
  let read: { content: Content; isError: boolean } | null;
  if ('output' in part) read = readOutput(part['output'], { ...site, path: joinPath(site.path, 'output') });
  else if ('result' in part) read = readV4Result(part, site);
  else read = bad(site, 'output', 'a tool output', undefined, RESULT_HINT);
  if (callId === null || read === null) return null;
  return { callId, toolName: name === '' ? undefined : name, ...read };
}
