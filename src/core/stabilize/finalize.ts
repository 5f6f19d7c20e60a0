// PII masking and exact counts, applied lazily to what can still reach the context. The visible
// result is the same as masking every artifact up front (stage 4), at a fraction of the cost: an
// artifact that leaves the context is never shown, so its text needs neither masking nor counting.
import type { AliasOf } from '../pii/aliases.js';
import { maskText } from '../pii/mask.js';
import { maskJsonText } from '../pii/mask-json.js';
import type { Detector } from '../pii/types.js';
import { mapPartStrings } from '../pii/visible-texts.js';
import type { Artifact, Content, ContentPart, ToolCall } from '../types.js';
import type { MaskMemoEntry } from './memo.js';
import type { TokenMeter } from './meter.js';
import type { Work } from './work.js';

export interface Masker {
  detectors: readonly Detector[];
  /** The policy's template (`pii.replacement`): what a value becomes, or what its aliases look like. */
  replacement: string;
  allow: readonly string[];
  /**
   * Renders a found value under a numbered or hashed template (pii/aliases.ts). A masker with one
   * is tied to its numbering table: its memo must be too (memo.ts keeps both per session).
   */
  alias?: AliasOf;
  /** Texts already masked with these detectors (a session's memo, memo.ts). */
  memo?: Map<string, MaskMemoEntry>;
}

export interface Final {
  content: Content;
  toolCalls: ToolCall[] | undefined;
  tokens: number;
  pii: Record<string, number>;
}

function addCounts(into: Record<string, number>, counts: Record<string, number>): void {
  for (const [k, v] of Object.entries(counts)) into[k] = (into[k] ?? 0) + v;
}

export function maskString(text: string, masker: Masker, pii: Record<string, number>): string {
  if (masker.detectors.length === 0 || text.length === 0) return text;
  const known = masker.memo?.get(text);
  if (known !== undefined) {
    addCounts(pii, known.counts);
    return known.text;
  }
  const opts = { replacement: masker.replacement, allow: masker.allow, alias: masker.alias };
  const r = maskJsonText(text, masker.detectors, opts) ?? maskText(text, masker.detectors, opts);
  masker.memo?.set(text, { text: r.text, counts: r.counts });
  addCounts(pii, r.counts);
  return r.text;
}

/** Signed by the API: altering one breaks its signature (thinking.ts leaves one with PII out). */
const SIGNED = new Set(['thinking', 'redacted_thinking']);

export function maskContent(content: Content, masker: Masker, pii: Record<string, number>): Content {
  if (typeof content === 'string') return maskString(content, masker, pii);
  // Every string any part shows is masked (documents, refusals, urls, citations), except encodings
  // (base64, data: urls, signatures) and signed thinking blocks.
  return content.map((p): ContentPart => {
    if (p.type === 'text' && typeof p.text === 'string')
      return { ...p, text: maskString(p.text, masker, pii) };
    if (SIGNED.has(p.type)) return p;
    let changed = false;
    const out = mapPartStrings(p, (s) => {
      const m = maskString(s, masker, pii);
      if (m !== s) changed = true;
      return m;
    });
    return changed ? (out as ContentPart) : p;
  });
}

/**
 * Masks every artifact's content, then its tool arguments, in transcript order, so that a numbered
 * masker numbers values by first occurrence whatever order the stages mask in later (the memo
 * keeps the results, so nothing is masked twice).
 */
export function numberValues(artifacts: readonly Artifact[], masker: Masker): void {
  const none: Record<string, number> = {};
  for (const a of artifacts) {
    maskContent(a.content, masker, none);
    for (const c of a.tool_calls ?? []) maskString(c.arguments, masker, none);
  }
}

/** Masked content and its exact tokens; recomputed only when a stage changed the content since. */
export function finalOf(w: Work, masker: Masker, meter: TokenMeter): Final {
  const known = peekFinal(w);
  if (known) return known;
  const pii: Record<string, number> = { ...w.piiCarried };
  const content = maskContent(w.content, masker, pii);
  const toolCalls = w.toolCalls?.map((c) => ({ ...c, arguments: maskString(c.arguments, masker, pii) }));
  const tokens = meter.artifact({ content, tool_calls: toolCalls });
  const value: Final = { content, toolCalls, tokens, pii };
  w.final = { content: w.content, toolCalls: w.toolCalls, value };
  return value;
}

/** The final state if it was computed for the work's current content, else undefined. */
export function peekFinal(w: Work): Final | undefined {
  const f = w.final;
  return f && f.content === w.content && f.toolCalls === w.toolCalls ? f.value : undefined;
}
