// OpenAI Chat Completions `{messages:[...]}`. Kinds without an OpenAI role are mapped to the
// nearest one (policy → developer, summary → system, task/retrieval → user); phase markers and
// native-only fields (tags, pin, pressure, scope, ttl…) have no place in this format and are lost.

import type { Artifact } from '../../../../src/core/types.js';
import type { ArtifactRef, Serialized } from './types.js';
import { contentText, linesInWrapper } from './types.js';

function toMessage(a: Artifact): Record<string, unknown> | null {
  const text = contentText(a.content);
  switch (a.kind) {
    case 'phase':
      return null;
    case 'system':
    case 'summary':
      return { role: 'system', content: text };
    case 'policy':
      return { role: 'developer', content: text };
    case 'assistant': {
      const calls = a.tool_calls ?? [];
      if (calls.length === 0) return { role: 'assistant', content: text };
      return {
        role: 'assistant',
        content: text.length > 0 ? text : null,
        tool_calls: calls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: c.arguments },
        })),
      };
    }
    case 'tool':
      return { role: 'tool', tool_call_id: a.call_id ?? '', content: text };
    default:
      return { role: 'user', content: text };
  }
}

export function serializeOpenAi(artifacts: readonly Artifact[]): Serialized {
  const refs = new Map<string, ArtifactRef>();
  const messages: Record<string, unknown>[] = [];
  for (const a of artifacts) {
    const m = toMessage(a);
    if (!m) continue;
    refs.set(a.id, { id: `m${messages.length}`, line: messages.length + 2 });
    messages.push(m);
  }
  return { text: linesInWrapper('{"messages":[', messages, ']}'), refs };
}
