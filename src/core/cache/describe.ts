// What the report surfaces say of the prompt-cache prefix replay (text, Markdown, impact table).
import type { CachePrefixSummary } from './prefix.js';

/** A share as a percentage with one decimal, rounded down: 49.96% never reads as a passing 50.0%. */
export function percent(share: number): string {
  return `${(Math.floor(share * 1000 + 1e-9) / 10).toFixed(1)}%`;
}

function shareOrDash(share: number | null | undefined): string {
  return share === null || share === undefined ? '—' : percent(share);
}

/**
 * `prompt cache prefix (openai requests): mean 91.4%, lowest 27.2% at the call after m21 (line 268);
 * 8349 of 11334 tokens sent repeat the previous request; 8 of 9 model calls replayed`.
 */
export function describeCachePrefix(s: CachePrefixSummary): string {
  const head = `prompt cache prefix (${s.format} requests)`;
  if (s.replayed === 0) {
    return `${head}: no two model calls to compare (${s.calls} call${s.calls === 1 ? '' : 's'})`;
  }
  const lowest = s.lowest ? ` at the call after ${s.lowest.id} (line ${s.lowest.line})` : '';
  return (
    `${head}: mean ${shareOrDash(s.mean_share)}, lowest ${shareOrDash(s.min_share)}${lowest}; ` +
    `${s.reused_tokens} of ${s.sent_tokens} tokens sent repeat the previous request; ` +
    `${s.replayed} of ${s.calls} model calls replayed`
  );
}

/** `mean 97.7% → 41.0%, lowest 43.2% → 8.3%`: base → head, for the policy impact. */
export function describeCacheImpact(
  base: { mean_share: number | null; min_share: number | null } | undefined,
  head: { mean_share: number | null; min_share: number | null } | undefined,
): string {
  return (
    `mean ${shareOrDash(base?.mean_share)} → ${shareOrDash(head?.mean_share)}, ` +
    `lowest ${shareOrDash(base?.min_share)} → ${shareOrDash(head?.min_share)}`
  );
}
