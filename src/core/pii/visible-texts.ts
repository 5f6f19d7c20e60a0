// Every text of a context item that reaches an output: the emitted request, the golden, the report.
// The `pii` check and the golden guard search exactly these, so nothing an output holds escapes
// them (findPiiIn decodes JSON texts, so an escape hides nothing): text parts, every string inside any other part (thinking, documents, server tool results,
// citations, urls), tool-call arguments, and the ids and names that are written out with it.
import type { ContextItem } from '../stabilize/types.js';

/**
 * Keys whose strings are opaque encodings or protocol vocabulary, not text anyone wrote: base64
 * payloads (`data`), provider signatures and encrypted reasoning, media types and part types.
 * Scanning them would only report the random digits of an encoding.
 */
const OPAQUE_KEYS = new Set(['type', 'signature', 'data', 'media_type', 'encrypted_content']);

/**
 * A `data` that is plain text rather than an encoding: a document source of `type: text`
 * (Anthropic's plain-text documents carry the document itself there).
 */
function isTextData(owner: Record<string, unknown>): boolean {
  return owner['type'] === 'text' && typeof owner['data'] === 'string';
}

function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    const owner = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(owner)) {
      if (!OPAQUE_KEYS.has(k) || (k === 'data' && isTextData(owner))) stringsOf(v, out);
    }
  }
}

type Visible = Pick<ContextItem, 'id' | 'content'> &
  Partial<Pick<ContextItem, 'tool' | 'call_id' | 'call_ids' | 'tool_calls' | 'role'>>;

/** The raw texts an item puts into outputs (content, arguments, ids, names). */
export function visibleTexts(item: Visible): string[] {
  const out: string[] = [item.id];
  if (typeof item.content === 'string') out.push(item.content);
  else stringsOf(item.content, out);
  if (item.tool !== undefined) out.push(item.tool);
  if (item.role !== undefined) out.push(item.role);
  if (item.call_id !== undefined) out.push(item.call_id);
  for (const id of item.call_ids ?? []) out.push(id);
  for (const c of item.tool_calls ?? []) out.push(c.id, c.name, c.arguments);
  return out;
}
