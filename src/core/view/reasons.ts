// The ledger's reasons (src/core/stabilize/types.ts, docs/stabilizer.md) in plain words for the
// viewer page: a short phrase for the row and, for its tooltip and the page's glossary, the exact
// reason name and what it means. A reason not listed here is shown by its name. Pure.

export interface ReasonWords {
  /** A few plain words for the row: `went with its tool call or result`. */
  words: string;
  /** What the reason means, in a sentence. */
  meaning: string;
}

// `action:reason` first (a reason some actions share with another meaning), then `reason`.
const REASONS: Record<string, ReasonWords> = {
  in_budget: {
    words: 'fits the budget',
    meaning: 'Kept as it was: there was room for it in the token budget.',
  },
  protected: {
    words: 'held by a protection rule',
    meaning:
      'Kept because a protection rule holds it: system prompt, task, latest request, pinned, the open tool loop, error evidence… (docs/protection.md).',
  },
  pii: {
    words: 'personal data masked',
    meaning: 'Personal data (PII) found in it was replaced by placeholders such as [EMAIL_1] (docs/pii.md).',
  },
  tool_output_fields: {
    words: 'long JSON output cut to its key fields',
    meaning: 'A verbose JSON tool output was reduced to the fields of tool_output.keep_fields.',
  },
  pii_thinking: {
    words: 'thinking block with personal data left out',
    meaning: 'A signed thinking block held personal data; it cannot be masked, so it was left out.',
  },
  sidechain: {
    words: 'sub-agent record, kept apart',
    meaning: 'A Claude Code side-chain (sub-agent) record: kept apart from the main conversation.',
  },
  abandoned_branch: {
    words: 'on a branch abandoned by a rewind',
    meaning: 'A Claude Code record on a branch the conversation left when it was rewound.',
  },
  compacted: {
    words: 'replaced by a compaction summary',
    meaning:
      'A Claude Code record from before the compaction point: the summary the conversation continues from stands for it.',
  },
  unpaired_result: {
    words: 'tool result without its call',
    meaning: 'A tool result that answers no call in the transcript: a provider would reject it.',
  },
  unpaired_call: {
    words: 'tool call without a result',
    meaning: 'A tool call with no result in the transcript: a provider would reject it.',
  },
  'compressed:unpaired_call': {
    words: 'a tool call without a result taken out',
    meaning:
      'The message stays, minus a tool call that has no result in the transcript (a provider would reject it).',
  },
  scope_reset: {
    words: 'from an earlier task',
    meaning: 'A phase marker started a new task; what belonged to the earlier task was left out.',
  },
  verbose_tool_output: {
    words: 'tool output too long',
    meaning: 'An older tool output over tool_output.max_tokens, left out under budget pressure.',
  },
  'excerpted:verbose_tool_output': {
    words: 'tool output too long, cut to an excerpt',
    meaning:
      'A protected tool output over tool_output.max_tokens, kept as its head, its last lines and the lines naming an error.',
  },
  superseded: {
    words: 'stale: the same call ran again later',
    meaning: 'A result made stale by a later identical call (same tool, same normalized arguments).',
  },
  budget: {
    words: 'did not fit the budget',
    meaning: 'Left out to keep the context within the token budget.',
  },
  degraded: {
    words: 'protected evidence left out to fit the budget',
    meaning:
      'Evidence a rule wanted kept was older than the context’s cut point and left with its step (status warning).',
  },
  aggressive_chatter: {
    words: 'older assistant chatter',
    meaning: 'Aggressive mode leaves out assistant chatter older than the recent window.',
  },
  pair_unit: {
    words: 'went with its tool call or result',
    meaning: 'A tool call and its results are one unit: this one left the context because its partner did.',
  },
  'compressed:pair_unit': {
    words: 'lost a tool call whose result left',
    meaning:
      'The assistant message stays, minus a tool call whose result left the context (a call and its results are one unit).',
  },
  summary_expired: {
    words: 'summary too old',
    meaning: 'A summary older than its ttl, counted in user turns.',
  },
  summary_invalid: {
    words: 'summary not valid',
    meaning: 'A summary whose sources, scope or role do not hold (the detail says which).',
  },
  summary_superseded: {
    words: 'summary replaced by a newer one',
    meaning: 'A compaction summary replaced by a later or refreshed one (docs/compaction.md).',
  },
  duplicate: {
    words: 'same as a later copy',
    meaning: 'An exact duplicate: the latest copy stays.',
  },
  near_duplicate: {
    words: 'nearly the same as a later copy',
    meaning: 'A near duplicate (similarity at least dedup.similarity): the latest copy stays.',
  },
  retry_run: {
    words: 'failed retries folded into one',
    meaning:
      'Failed attempts of one command with no success between them: all but the latest failure became one compact artifact.',
  },
  compacted_into: {
    words: 'folded into a compaction summary',
    meaning: 'Left the context; the compaction summary named in the detail stands for it.',
  },
  excerpt: {
    words: 'cut to its head and tail',
    meaning: 'Protected evidence cut to its head and tail to fit the budget.',
  },
  pair_placeholder: {
    words: 'result replaced by a placeholder',
    meaning: 'The result was replaced by a short placeholder that keeps its call valid.',
  },
  pending_call: {
    words: 'call still waiting for its result',
    meaning: 'The history ends on this call with no result yet: a note in the message says so.',
  },
  pending_approval: {
    words: 'call waiting for the user’s approval',
    meaning:
      'The history ends on this call, which waits for the user’s approval: a note in the message says so.',
  },
};

/** The reason in plain words; an unknown one by its name with `_` as spaces. */
export function reasonWords(action: string, reason: string): ReasonWords {
  const known = REASONS[`${action}:${reason}`] ?? REASONS[reason];
  if (known) return known;
  return { words: reason.replace(/_/g, ' '), meaning: 'A reason this viewer has no description for.' };
}

/** The tooltip of a reason: its exact ledger name and action, then what it means. */
export function reasonTitle(action: string, reason: string): string {
  return `ledger reason ${reason} (action ${action}): ${reasonWords(action, reason).meaning}`;
}
