// The naive baseline of the decisions bench: what an agent framework does without a stabilizer
// (LangChain `trimMessages` with strategy "last"). Every system and policy artifact is kept; then the
// newest whole artifacts, newest first, while they fit the budget, stopping at the first that does
// not; then no tool pair is left half: a result whose call's assistant is not kept is dropped, and a
// kept assistant loses the calls whose results are not all kept (it is dropped when nothing is left).
// Nothing is masked, excerpted or summarized.
import { resultCallIds } from '../../src/core/readers/pairing.js';
import { inHistory } from '../../src/core/retention/facts.js';
import type { ContextItem } from '../../src/core/stabilize/types.js';
import { countArtifactTokens } from '../../src/core/tokens/count.js';
import type { TokenCostConfig } from '../../src/core/tokens/count.js';
import type { Tokenizer } from '../../src/core/tokens/tokenizer.js';
import type { Artifact, Content, Transcript } from '../../src/core/types.js';

/** The token cost the stabilizer gives an artifact: the tokenizer over its text and call arguments, plus message_overhead. */
export function artifactCost(a: Artifact, tokenizer: Tokenizer, cost: TokenCostConfig): number {
  return countArtifactTokens(a, tokenizer, cost);
}

/** What the agent's own history holds: the one definition the retention check uses too. */
export { inHistory };

export interface NaiveTrim {
  context: ContextItem[];
  /** Sum of the kept artifacts' costs (after pairs were repaired). */
  used: number;
  /** Ids of the artifacts kept (a kept assistant may have lost some calls). */
  kept: Set<string>;
}

function hasContent(content: Content): boolean {
  if (typeof content === 'string') return content.trim() !== '';
  return content.some((p) => p.type !== 'text' || (typeof p.text === 'string' && p.text.trim() !== ''));
}

function itemOf(a: Artifact, tokens: number): ContextItem {
  const item: ContextItem = { id: a.id, kind: a.kind, tokens, content: a.content, line: a.source.line };
  if (a.role !== undefined) item.role = a.role;
  if (a.tool !== undefined) item.tool = a.tool;
  if (a.call_id !== undefined) item.call_id = a.call_id;
  if (a.call_ids !== undefined) item.call_ids = a.call_ids;
  if (a.tool_calls !== undefined) item.tool_calls = a.tool_calls;
  if (a.is_error !== undefined) item.is_error = a.is_error;
  return item;
}

/** The naive newest-first trim of `history` (its pairing must be its own) to `budget` tokens. */
export function naiveTrim(
  history: Transcript,
  opts: { tokenizer: Tokenizer; cost: TokenCostConfig; budget: number },
): NaiveTrim {
  const { tokenizer, cost, budget } = opts;
  const artifacts = history.artifacts.filter(inHistory);
  const costOf = (a: Artifact): number => artifactCost(a, tokenizer, cost);
  const keep = new Set<string>();
  let used = 0;
  for (const a of artifacts) {
    if (a.kind === 'system' || a.kind === 'policy') {
      keep.add(a.id);
      used += costOf(a);
    }
  }
  for (let i = artifacts.length - 1; i >= 0; i--) {
    const a = artifacts[i] as Artifact;
    if (keep.has(a.id)) continue;
    const c = costOf(a);
    if (used + c > budget) break;
    keep.add(a.id);
    used += c;
  }

  // No orphaned pairs. Results first: one whose call's assistant left (or that answers no call of
  // the history) goes; an output that names no call is a standalone output and stays.
  const resultToCall = history.pairing.resultToCall;
  const answered = new Map<string, Set<string>>();
  for (const a of artifacts) {
    if (a.kind !== 'tool' || !keep.has(a.id)) continue;
    const ids = resultCallIds(a);
    if (ids.length === 0) continue;
    const caller = resultToCall[a.id];
    if (caller === undefined || !keep.has(caller)) {
      keep.delete(a.id);
      continue;
    }
    const set = answered.get(caller) ?? new Set<string>();
    for (const id of ids) set.add(id);
    answered.set(caller, set);
  }
  const context: ContextItem[] = [];
  used = 0;
  for (const a of artifacts) {
    if (!keep.has(a.id)) continue;
    let out = a;
    if (a.tool_calls && a.tool_calls.length > 0) {
      const ok = answered.get(a.id);
      const calls = a.tool_calls.filter((c) => ok?.has(c.id) === true);
      if (calls.length !== a.tool_calls.length) {
        if (calls.length === 0 && !hasContent(a.content)) {
          keep.delete(a.id);
          continue;
        }
        out = { ...a };
        if (calls.length > 0) out.tool_calls = calls;
        else delete out.tool_calls;
      }
    }
    const tokens = costOf(out);
    used += tokens;
    context.push(itemOf(out, tokens));
  }
  // A result whose assistant was just dropped (it lost every call) cannot be: its call was answered.
  return { context, used, kept: keep };
}
