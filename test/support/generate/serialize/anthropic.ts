// Anthropic Messages `{system, messages}`. Leading system/policy artifacts form `system`; tool_use
// blocks carry the assistant's calls; the results of a turn become tool_result blocks placed FIRST
// in the next user message (the API rejects anything else); consecutive same-role artifacts share
// one message, since roles must alternate. Later system-like kinds become user text; phase markers
// and native-only fields are lost.

import type { Artifact } from '../../../../src/core/types.js';
import type { ArtifactRef, Serialized } from './types.js';
import { contentBlocks, contentText, linesInWrapper, parseArguments } from './types.js';

type Block = Record<string, unknown>;
interface Message {
  role: 'user' | 'assistant';
  content: Block[];
}

/** Anthropic tool ids look like `toolu_…`; the mapping is one-to-one so pairing is unchanged. */
export function anthropicToolId(id: string): string {
  return id.startsWith('call_') ? `toolu_${id.slice(5)}` : id;
}

export function serializeAnthropic(artifacts: readonly Artifact[]): Serialized {
  const system: string[] = [];
  const systemIds: string[] = [];
  const messages: Message[] = [];
  const position = new Map<Message, number>();
  // Resolved to ids after all blocks are placed: tool_result insertion can shift block indices.
  const placed: { artifact: string; message: Message; block?: Block }[] = [];
  let leading = true;

  const current = (role: Message['role']): Message => {
    const last = messages[messages.length - 1];
    if (last && last.role === role) return last;
    const m: Message = { role, content: [] };
    position.set(m, messages.length);
    messages.push(m);
    return m;
  };

  for (const a of artifacts) {
    if (leading && (a.kind === 'system' || a.kind === 'policy')) {
      system.push(contentText(a.content));
      systemIds.push(a.id);
      continue;
    }
    if (a.kind === 'phase') continue;
    leading = false;
    if (a.kind === 'assistant') {
      const m = current('assistant');
      m.content.push(...contentBlocks(a.content));
      for (const c of a.tool_calls ?? []) {
        m.content.push({
          type: 'tool_use',
          id: anthropicToolId(c.id),
          name: c.name,
          input: parseArguments(c.arguments),
        });
      }
      placed.push({ artifact: a.id, message: m });
    } else if (a.kind === 'tool') {
      const m = current('user');
      const block: Block = {
        type: 'tool_result',
        tool_use_id: anthropicToolId(a.call_id ?? ''),
        content: contentText(a.content),
        ...(a.is_error ? { is_error: true } : {}),
      };
      const firstOther = m.content.findIndex((b) => b.type !== 'tool_result');
      if (firstOther < 0) m.content.push(block);
      else m.content.splice(firstOther, 0, block);
      placed.push({ artifact: a.id, message: m, block });
    } else {
      const m = current('user');
      m.content.push(...contentBlocks(a.content));
      placed.push({ artifact: a.id, message: m });
    }
  }

  const refs = new Map<string, ArtifactRef>();
  for (const id of systemIds) refs.set(id, { id: 'system', line: 1 });
  for (const p of placed) {
    const index = position.get(p.message) ?? 0;
    const id = p.block ? `m${index}.${p.message.content.indexOf(p.block)}` : `m${index}`;
    refs.set(p.artifact, { id, line: index + 2 });
  }
  const head =
    system.length > 0 ? `{"system":${JSON.stringify(system.join('\n\n'))},"messages":[` : '{"messages":[';
  return { text: linesInWrapper(head, messages, ']}'), refs };
}
