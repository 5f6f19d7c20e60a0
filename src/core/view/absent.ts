// What the viewer page says of an artifact that is not in the context (dropped, deduplicated,
// expired, collapsed): its kind and its size, never its content. The golden keeps only a ledger
// entry for such an artifact, so the run that read the transcript hands the page these few facts
// (absentArtifacts); without them the page falls back on what the goldens say (absentKind). Pure.
import type { Golden } from '../golden/golden.js';
import type { ContextItem, LedgerEntry } from '../stabilize/types.js';
import type { Artifact, ArtifactKind } from '../types.js';

/** An artifact the context left out, as the page describes it: counts only, no text. */
export interface AbsentArtifact {
  id: string;
  kind: ArtifactKind;
  /** Tool calls it made (an assistant message). */
  calls: number;
  /** Characters of its text, parts and tool-call arguments (UTF-16 units). */
  chars: number;
  /** Lines of its text (0 when it has none). */
  lines: number;
}

function lineCount(text: string): number {
  if (text === '') return 0;
  let n = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) n++;
  return n;
}

function shapeOf(a: Artifact): AbsentArtifact {
  const texts: string[] = [];
  if (typeof a.content === 'string') texts.push(a.content);
  else
    for (const part of a.content)
      if (part.type === 'text' && typeof part.text === 'string') texts.push(part.text);
  for (const call of a.tool_calls ?? []) texts.push(call.arguments);
  return {
    id: a.id,
    kind: a.kind,
    calls: a.tool_calls?.length ?? 0,
    chars: texts.reduce((n, t) => n + t.length, 0),
    lines: texts.reduce((n, t) => n + lineCount(t), 0),
  };
}

/** The facts the page shows of each artifact of `golden`'s ledger that its context left out. */
export function absentArtifacts(artifacts: readonly Artifact[], golden: Golden): AbsentArtifact[] {
  const inContext = new Set(golden.context.map((c) => c.id));
  const wanted = new Set(golden.ledger.filter((e) => !inContext.has(e.id)).map((e) => e.id));
  const out: AbsentArtifact[] = [];
  for (const a of artifacts) {
    if (!wanted.has(a.id)) continue;
    wanted.delete(a.id);
    out.push(shapeOf(a));
  }
  return out;
}

/** What an absent artifact was, in words: `tool result`, `assistant, 2 tool calls`, `user`. */
export function kindWords(kind: string, calls: number): string {
  if (kind === 'tool') return 'tool result';
  if (calls > 0) return `${kind}, ${calls} tool call${calls === 1 ? '' : 's'}`;
  return kind;
}

/** Reasons that name the kind of what they left out. */
const KIND_BY_REASON: Record<string, { kind: ArtifactKind; calls: number }> = {
  verbose_tool_output: { kind: 'tool', calls: 0 },
  unpaired_result: { kind: 'tool', calls: 0 },
  superseded: { kind: 'tool', calls: 0 },
  unpaired_call: { kind: 'assistant', calls: 1 },
  summary_expired: { kind: 'summary', calls: 0 },
  summary_invalid: { kind: 'summary', calls: 0 },
  summary_superseded: { kind: 'summary', calls: 0 },
  aggressive_chatter: { kind: 'assistant', calls: 0 },
};

/**
 * The kind of an absent artifact from the goldens alone, when the run gave no facts: the stored
 * golden's context when it held the artifact, the ids of the summaries log, or a reason that
 * names the kind.
 */
export function absentKind(
  entry: LedgerEntry,
  summaries: ReadonlySet<string>,
  stored: ReadonlyMap<string, ContextItem>,
): { kind: string; calls: number } | null {
  const before = stored.get(entry.id);
  if (before) return { kind: before.kind, calls: before.tool_calls?.length ?? 0 };
  if (summaries.has(entry.id)) return { kind: 'summary', calls: 0 };
  return KIND_BY_REASON[entry.reason] ?? null;
}
