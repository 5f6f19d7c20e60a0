// Shared steps of the stabilizer property tests: run the stabilizer with the word tokenizer, recount
// a context independently of the stabilizer's meter, and compare contexts on what a model receives.
import type { Policy } from '../../../src/core/policy/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { TokenCache } from '../../../src/core/stabilize/meter.js';
import type { ContextItem, StabilizeResult } from '../../../src/core/stabilize/types.js';
import type { ArtifactKind, Transcript } from '../../../src/core/types.js';
import { countWords, wordTokenizer } from './tokenizer.js';

export function stabilize(transcript: Transcript, policy: Policy, cache?: TokenCache): StabilizeResult {
  return stabilizeTranscript(transcript, { policy, tokenizer: wordTokenizer, ...(cache ? { cache } : {}) });
}

/** Tokens of one context item by the cost rules of DESIGN §4 stage 1, counted from scratch. */
export function recountItem(item: Pick<ContextItem, 'content' | 'tool_calls'>, policy: Policy): number {
  let n = policy.message_overhead;
  if (typeof item.content === 'string') n += countWords(item.content);
  else {
    for (const part of item.content) {
      if (part.type === 'text') n += countWords(String(part.text));
      else if (part.type === 'image_url') n += policy.part_tokens.image;
      else throw new Error(`the arbitraries produce no ${part.type} part`);
    }
  }
  for (const c of item.tool_calls ?? []) n += countWords(c.name) + countWords(c.arguments);
  return n;
}

export function recount(context: readonly ContextItem[], policy: Policy): number {
  return context.reduce((sum, item) => sum + recountItem(item, policy), 0);
}

/** What a model receives of each item: the comparison key of "the context is unchanged". */
export function projection(context: readonly ContextItem[]): unknown[] {
  return context.map((c) => ({
    id: c.id,
    kind: c.kind,
    content: c.content,
    ...(c.tool_calls ? { tool_calls: c.tool_calls } : {}),
    ...(c.call_id !== undefined ? { call_id: c.call_id } : {}),
  }));
}

const SECTION_OF: Record<ArtifactKind, string> = {
  system: 'system',
  policy: 'policy',
  task: 'task',
  phase: 'task',
  user: 'conversation',
  assistant: 'conversation',
  tool: 'conversation',
  retrieval: 'conversation',
  summary: 'summaries',
};
const DEFAULT_ORDER = ['system', 'policy', 'task', 'conversation', 'summaries'];

/** The section of a kind and its rank under `order` (sections it leaves out follow in default order). */
export function sectionRank(kind: ArtifactKind, order: readonly string[]): { section: string; rank: number } {
  const ranks = [...order, ...DEFAULT_ORDER.filter((s) => !order.includes(s))];
  const section = SECTION_OF[kind];
  return { section, rank: ranks.indexOf(section) };
}
