// `explain FILE ID`: what happened to one artifact and why, in plain words.
import type { ContextItem, LedgerEntry, StabilizeResult } from '../stabilize/types.js';
import type { Artifact } from '../types.js';

const ACTION_WORDS: Record<string, string> = {
  kept: 'was kept verbatim',
  masked: 'was kept, with parts masked',
  compressed: 'was kept in a compressed form',
  excerpted:
    'was kept as an excerpt (its head, its tail and the lines naming errors; a marker says how many tokens were left out)',
  collapsed: 'was collapsed',
  deduplicated: 'was removed as a duplicate',
  expired: 'was removed as an expired or invalid summary',
  dropped: 'was dropped',
};

const REASON_WORDS: Record<string, string> = {
  in_budget: 'it fit in the budget after the protected artifacts',
  protected: 'it is protected',
  pii: 'personal data or secrets were masked',
  scope_reset: 'it belongs to an earlier task (scope reset)',
  verbose_tool_output: 'the tool output was over tool_output.max_tokens',
  tool_output_fields: 'the JSON tool output was masked to tool_output.keep_fields',
  superseded: 'a later result of the same command supersedes it',
  duplicate: 'a later artifact has the same text',
  near_duplicate: 'a later artifact is nearly the same text',
  retry_run: 'it was a failed retry of a command that failed again later',
  budget: 'it did not fit in the token budget',
  excerpt: 'it is protected but did not fit in the token budget whole',
  aggressive_chatter: 'aggressive mode drops old assistant chatter',
  pair_unit: 'it went together with its tool call or result',
  pair_placeholder: 'its result had to go but its call is kept, so a placeholder keeps the pair valid',
  summary_expired: 'the summary is older than its ttl',
  summary_invalid: 'the summary failed validation',
  summary_superseded: 'a later or refreshed compaction summary replaces it (the detail names that summary)',
  compacted_into:
    'a compaction summary of the earlier turns stands for it in the context (the detail names that summary)',
  unpaired_call: 'its tool calls have no results, which a provider would reject',
  pending_call:
    'its tool call is still waiting for a result: a provider rejects a call without one, so a note in the message says so',
  pending_approval:
    "its tool call is waiting for the user's approval: a provider rejects a call without a result, so a note in the message says so",
  unpaired_result: 'it answers no tool call, which a provider would reject',
  sidechain: 'it is a side-chain (sub-agent) record',
  abandoned_branch: 'it is on a branch the session abandoned (a rewind)',
  compacted: 'it is before the compaction boundary the session continues from',
};

function describeProtection(p: string): string {
  if (p === 'recent') return 'the user message or the latest answer of one of the keep_recent newest turns';
  if (p === 'pinned') return 'pinned by its author';
  if (p === 'scope') return 'the phase marker that sets the current task and phase';
  if (p === 'task_statement') return 'the task statement of the current scope (its first user message)';
  if (p === 'latest_request') return 'the latest user request';
  if (p.startsWith('tag:')) return `tagged "${p.slice(4)}" (resilience.protected_message_kinds)`;
  if (p.startsWith('latest_success:'))
    return `the latest successful outcome of the command family ${p.slice(15)}, whose latest run failed`;
  if (p.startsWith('latest:')) return `the latest invocation or outcome of the command family ${p.slice(7)}`;
  if (p.startsWith('pair:')) return `it made the call answered by protected result ${p.slice(5)}`;
  if (p.startsWith('tool:')) return `a result of protected tool ${p.slice(5)}`;
  return `its kind is ${p}`;
}

export function explainArtifact(artifact: Artifact, entry: LedgerEntry, result: StabilizeResult): string {
  const lines: string[] = [];
  const position = result.context.findIndex((c: ContextItem) => c.id === artifact.id);
  lines.push(
    `${artifact.id} (${artifact.kind}, ${artifact.source.file}:${artifact.source.line}:${artifact.source.column})`,
  );
  lines.push(
    `  ${ACTION_WORDS[entry.action] ?? entry.action} at stage "${entry.stage}": ${REASON_WORDS[entry.reason] ?? entry.reason}.`,
  );
  if (entry.detail) lines.push(`  Detail: ${entry.detail}.`);
  if (entry.duplicate_of) lines.push(`  Duplicate of: ${entry.duplicate_of} (the later copy stays).`);
  const before =
    entry.tokens_before === null ? 'not counted (certainly dropped)' : String(entry.tokens_before);
  lines.push(`  Tokens: ${before} before, ${entry.tokens_after} in the context.`);
  if (entry.pii) {
    const kinds = Object.entries(entry.pii)
      .map(([k, n]) => `${n} ${k}`)
      .join(', ');
    lines.push(`  Masked: ${kinds}.`);
  }
  if (entry.protected_by?.length) {
    lines.push(`  Protected because: ${entry.protected_by.map(describeProtection).join('; ')}.`);
  }
  const summary = result.summaries.find((s) => s.id === artifact.id);
  if (summary) {
    lines.push(
      `  Summary: ${summary.status}, age ${summary.age} of ttl ${summary.ttl} turns${summary.reasons.length ? `; ${summary.reasons.join(', ')}` : ''}.`,
    );
  }
  lines.push(
    position >= 0
      ? `  Position in the stabilized context: ${position + 1} of ${result.context.length}.`
      : '  Not in the stabilized context.',
  );
  lines.push(`  Run status: ${result.status}; budget ${result.budget.used}/${result.budget.limit} tokens.`);
  return `${lines.join('\n')}\n`;
}
