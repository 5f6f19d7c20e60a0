// Every text of a context item that reaches an output: the emitted request, the golden, the report.
// The `pii` check and the golden guard search exactly these, so nothing an output holds escapes
// them (findPiiIn decodes JSON texts, so an escape hides nothing): text parts, every string inside
// any other part (thinking, documents, server tool results, citations, urls), tool-call arguments,
// and the ids and names that are written out with it. The masker rewrites the same strings of every
// part but a signed thinking block (mapPartStrings).
import type { ContextItem } from '../stabilize/types.js';

/**
 * Keys whose strings are opaque encodings or protocol vocabulary, not text anyone wrote: base64
 * payloads (`data`), provider signatures and encrypted reasoning, media types and part types.
 * Scanning them would only report the random digits of an encoding.
 */
const OPAQUE_KEYS = new Set(['type', 'signature', 'data', 'file_data', 'media_type', 'encrypted_content']);

/** A `data:` URL is an encoding too (an inline image's `url`). */
function isDataUrl(s: string): boolean {
  return s.startsWith('data:');
}

/**
 * A `data` that is plain text rather than an encoding: a document source of `type: text`
 * (Anthropic's plain-text documents carry the document itself there).
 */
function isTextData(owner: Record<string, unknown>): boolean {
  return owner['type'] === 'text' && typeof owner['data'] === 'string';
}

function stringsOf(value: unknown, out: string[]): void {
  if (typeof value === 'string') {
    if (!isDataUrl(value)) out.push(value);
  } else if (typeof value === 'number') out.push(String(value));
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value !== null && typeof value === 'object') {
    const owner = value as Record<string, unknown>;
    for (const [k, v] of Object.entries(owner)) {
      if (!OPAQUE_KEYS.has(k) || (k === 'data' && isTextData(owner))) stringsOf(v, out);
    }
  }
}

/**
 * `value` with `fn` applied to each string stringsOf would search (a number `fn` changes becomes
 * the string it returns); everything else, keys and opaque members included, stays as it is.
 */
export function mapPartStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return isDataUrl(value) ? value : fn(value);
  if (typeof value === 'number') {
    const s = String(value);
    const m = fn(s);
    return m === s ? value : m;
  }
  if (Array.isArray(value)) return value.map((v) => mapPartStrings(v, fn));
  if (value !== null && typeof value === 'object') {
    const owner = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(owner)) {
      out[k] = !OPAQUE_KEYS.has(k) || (k === 'data' && isTextData(owner)) ? mapPartStrings(v, fn) : v;
    }
    return out;
  }
  return value;
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
