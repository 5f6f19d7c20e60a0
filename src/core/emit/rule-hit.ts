// What a provider rule reports about an emitted request: where (message and block indexes) and why,
// in plain words plus the error text the API answers. Never the content itself: it may hold PII.

/** A message of the request, or one block/part of it. */
export interface Loc {
  message: number;
  block?: number;
}

export interface RuleHit {
  /** Stable kebab-case rule name, e.g. `anthropic-first-message-user`. */
  rule: string;
  message: string;
  /** Where the problem is, the first being where it is annotated; empty for the whole request. */
  at: Loc[];
}

/** `messages.3.content.1` (Anthropic's way of naming a place in the request). */
export function anthropicPath(loc: Loc): string {
  return loc.block === undefined ? `messages.${loc.message}` : `messages.${loc.message}.content.${loc.block}`;
}

/** `messages[3].content[1]` (OpenAI's way of naming a place in the request). */
export function openaiPath(loc: Loc): string {
  return loc.block === undefined
    ? `messages[${loc.message}]`
    : `messages[${loc.message}].content[${loc.block}]`;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Findings in request order: whole-request ones first, then by message, block, and rule order. */
export function sortHits(hits: RuleHit[], ruleOrder: readonly string[]): RuleHit[] {
  const key = (h: RuleHit): [number, number, number] => {
    const loc = h.at[0];
    return [loc ? loc.message : -1, loc?.block ?? -1, ruleOrder.indexOf(h.rule)];
  };
  return hits
    .map((h, i) => ({ h, i, k: key(h) }))
    .sort((a, b) => a.k[0] - b.k[0] || a.k[1] - b.k[1] || a.k[2] - b.k[2] || a.i - b.i)
    .map((x) => x.h);
}
