// Text for the viewer page: escaping, number words, the masked-span highlighter and the content of
// a context item (text, parts, tool calls), all escaped. Pure.
import { LABEL_TEMPLATE, TYPE_NAME_PATTERN } from '../pii/template.js';
import type { ContextItem } from '../stabilize/types.js';
import type { ContentPart } from '../types.js';

export const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  ':': '&#58;',
};

/**
 * Text safe in HTML content and in a quoted attribute. The colon of `://` is written `&#58;` too:
 * a URL in the content reads the same, yet the page's source holds no URL at all.
 */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']|:(?=\/\/)/g, (ch) => ENTITIES[ch] ?? ch);
}
export const esc = escapeHtml;
/** The patterns of the masked spans (maskOf); none: nothing is highlighted. */
export type Mask = readonly RegExp[];

/** A class or data-token made of a name from the input: letters, digits, `_` and `-` only. */
export function token(name: string): string {
  return name.replace(/[^A-Za-z0-9_-]/g, '_') || '_';
}

/** 12345 → '12,345' (no locale: the page is the same everywhere). */
export function formatCount(n: number): string {
  const digits = String(Math.abs(Math.round(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 ? `−${digits}` : digits;
}

export function plural(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

export function percent(part: number, whole: number): string {
  return whole > 0 ? `${Math.round((part / whole) * 100)}%` : '–';
}

export function width(part: number, whole: number): string {
  return whole > 0 ? `${((part / whole) * 100).toFixed(3)}%` : '0%';
}

/**
 * The masked spans of the policy's replacement template: `[REDACTED_{TYPE}]` finds
 * `[REDACTED_EMAIL]`, `[{TYPE}_{N}]` finds `[EMAIL_3]`, the type captured (a template without `{TYPE}` finds itself, type PII).
 */
export function maskPattern(template: string): RegExp | null {
  if (template === '') return null;
  // `{N}` and `{HASH}` (numbered and hashed aliases, `[EMAIL_3]`) match the number or hash.
  const quote = (s: string): string =>
    s
      .replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')
      .replaceAll('\\{N\\}', '[1-9][0-9]{0,9}')
      .replaceAll('\\{HASH\\}', '[a-z2-7]{8}');
  const pieces = template.split('{TYPE}').map(quote);
  const body = pieces.reduce(
    (acc, piece, i) => (i === 0 ? piece : `${acc}${i === 1 ? `(${TYPE_NAME_PATTERN})` : '\\1'}${piece}`),
    '',
  );
  return new RegExp(body, 'g');
}

const maskCache = new Map<string, Mask>();

/**
 * What counts as masked on the page, as the PII stage sees it (src/core/pii/template.ts,
 * replacementOccurrences): the policy's template, and the label form `[REDACTED_{TYPE}]`
 * (LABEL_TEMPLATE), which the stage also leaves alone as already masked, and which a recording
 * masked before it was written holds. Cached per template.
 */
export function maskOf(template: string): Mask {
  let mask = maskCache.get(template);
  if (!mask) {
    const templates = template === LABEL_TEMPLATE ? [template] : [template, LABEL_TEMPLATE];
    mask = templates.map(maskPattern).filter((re): re is RegExp => re !== null);
    if (maskCache.size > 16) maskCache.clear();
    maskCache.set(template, mask);
  }
  return mask;
}

/** One masked span: where it stands and its type (`PII` when the template names none). */
export interface MaskedSpan {
  start: number;
  end: number;
  type: string;
}

/** The masked spans of `text`, in order and disjoint (the earlier, then the longer, wins). */
export function maskedSpans(text: string, mask: Mask): MaskedSpan[] {
  const found: MaskedSpan[] = [];
  for (const re of mask) {
    for (const m of text.matchAll(re)) {
      if (m[0] === '') continue;
      found.push({ start: m.index, end: m.index + m[0].length, type: token(m[1] ?? 'PII') });
    }
  }
  if (mask.length < 2) return found;
  found.sort((a, b) => a.start - b.start || b.end - a.end);
  const out: MaskedSpan[] = [];
  for (const span of found) if (out.length === 0 || span.start >= out[out.length - 1]!.end) out.push(span);
  return out;
}

/** `text` escaped, every masked span as `<mark class="pii pii-TYPE" title="TYPE">`. */
export function marked(text: string, mask: Mask): string {
  let out = '';
  let last = 0;
  for (const span of maskedSpans(text, mask)) {
    out += `${esc(text.slice(last, span.start))}<mark class="pii pii-${span.type}" title="${span.type}">${esc(text.slice(span.start, span.end))}</mark>`;
    last = span.end;
  }
  return out + esc(text.slice(last));
}

/** At most `max` UTF-16 units, never ending inside a surrogate pair. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return `${text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max)}…`;
}

/** What the page shows of a part that is not text: its JSON, cut short. */
function partJson(part: ContentPart): string {
  return clip(JSON.stringify(part), 300);
}

export function partHtml(part: ContentPart, mask: Mask): string {
  if (part.type === 'text' && typeof part.text === 'string') return `<pre>${marked(part.text, mask)}</pre>`;
  return `<div class="part"><span class="part-type">${esc(part.type)}</span><code>${marked(partJson(part), mask)}</code></div>`;
}

/** The texts the page shows of one context item, in the places contentHtml marks spans. */
function shownTexts(item: ContextItem): string[] {
  const out: string[] = [];
  if (typeof item.content === 'string') out.push(item.content);
  else
    for (const part of item.content)
      out.push(part.type === 'text' && typeof part.text === 'string' ? part.text : partJson(part));
  for (const call of item.tool_calls ?? []) out.push(call.arguments);
  return out;
}

/** How many masked spans of each type (upper case) the page shows of one context item. */
export function maskedCounts(item: ContextItem, mask: Mask): Map<string, number> {
  const counts = new Map<string, number>();
  for (const text of shownTexts(item))
    for (const span of maskedSpans(text, mask)) counts.set(span.type, (counts.get(span.type) ?? 0) + 1);
  return counts;
}

/** What the model reads of one context item: its text, parts and tool calls. */
export function contentHtml(item: ContextItem, mask: Mask): string {
  const out: string[] = [];
  if (typeof item.content === 'string') {
    if (item.content !== '') out.push(`<pre>${marked(item.content, mask)}</pre>`);
  } else {
    for (const part of item.content) out.push(partHtml(part, mask));
  }
  for (const call of item.tool_calls ?? []) {
    out.push(
      `<div class="call"><span class="call-name">${esc(call.name)}</span><span class="call-id">${esc(call.id)}</span><pre>${marked(call.arguments, mask)}</pre></div>`,
    );
  }
  if (out.length === 0) out.push('<p class="empty">(no content)</p>');
  return `<div class="content">${out.join('')}</div>`;
}

export function contentDetails(item: ContextItem, mask: Mask, open: boolean): string {
  return `<details class="a-content"${open ? ' open' : ''}><summary>content (${plural(item.tokens, 'token')})</summary>${contentHtml(item, mask)}</details>`;
}

export function kindHtml(item: ContextItem | undefined): string {
  if (!item) return '<span class="a-kind">–</span>';
  const extra = [item.role && item.role !== item.kind ? item.role : '', item.tool ?? '']
    .filter((s) => s !== '')
    .map((s) => ` · ${esc(s)}`)
    .join('');
  return `<span class="a-kind"><span class="k kind-${token(item.kind)}"></span>${esc(item.kind)}${extra}</span>`;
}

/** The first item of each id (the ledger and the context hold one per artifact). */
export function firstById<T extends { id: string }>(items: readonly T[]): Map<string, T> {
  const map = new Map<string, T>();
  for (const item of items) if (!map.has(item.id)) map.set(item.id, item);
  return map;
}
