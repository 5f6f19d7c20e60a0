// What the emitters change on the way out, per context item, for the ledger (issue 10): parts the
// target API has no place for, and call ids renamed to be unique. Types, counts and ids only, never
// content (the stabilizer masks the notes like every ledger detail).
import type { ContextItem } from '../stabilize/types.js';
import { uniqueToolUseIds } from './anthropic.js';
import { openaiPart, roleOf } from './openai.js';
import type { ProviderApi } from './provider-rules.js';
import { isStandaloneOutput } from './standalone.js';
import { OPENAI_ONLY_PARTS } from './anthropic.js';

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** Parts the Chat Completions request leaves out of an item, by part type. */
function openaiLeftOut(item: ContextItem): Map<string, number> {
  const left = new Map<string, number>();
  if (typeof item.content === 'string') return left;
  // Tool results (and outputs sent as user text) carry text only.
  const textOnly = item.kind === 'tool' || isStandaloneOutput(item);
  const role = roleOf(item);
  for (const p of item.content) {
    const gone = textOnly ? p.type !== 'text' : openaiPart(p, role) === undefined;
    if (gone) left.set(p.type, (left.get(p.type) ?? 0) + 1);
  }
  return left;
}

/** Notes by context item id, for the APIs the context is written for. */
export function emitNotes(
  context: readonly ContextItem[],
  apis: readonly ProviderApi[],
): Map<string, string[]> {
  const notes = new Map<string, string[]>();
  const add = (id: string, note: string): void => {
    notes.set(id, [...(notes.get(id) ?? []), note]);
  };
  if (apis.includes('openai')) {
    for (const item of context) {
      for (const [type, n] of openaiLeftOut(item))
        add(
          item.id,
          `openai: left out ${plural(n, `${type} part`)} (Chat Completions takes no such part here)`,
        );
    }
  }
  if (apis.includes('anthropic')) {
    const ids = uniqueToolUseIds(context);
    for (const item of context) {
      const left = new Map<string, number>();
      for (const p of typeof item.content === 'string' ? [] : item.content)
        if (OPENAI_ONLY_PARTS.has(p.type)) left.set(p.type, (left.get(p.type) ?? 0) + 1);
      for (const [type, n] of left)
        add(
          item.id,
          `anthropic: left out ${plural(n, `${type} part`)} (the Messages API takes no such part)`,
        );
      for (const c of item.tool_calls ?? []) {
        const name = ids.next(c.id);
        if (name !== c.id)
          add(
            item.id,
            `anthropic: tool call id ${c.id} sent as ${name} (tool_use ids must be unique in a request)`,
          );
      }
    }
  }
  return notes;
}
