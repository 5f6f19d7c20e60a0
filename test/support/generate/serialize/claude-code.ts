// Claude Code session JSONL: one record per line, `{type, uuid, parentUuid, sessionId, timestamp,
// isSidechain, message:{role, content:[blocks]}}` chained by parentUuid; each tool result is its
// own user record. Claude Code never records the system prompt, so system/policy artifacts are
// not written (nor phase markers); summaries become `summary` records. Uuids and timestamps come
// from the seed, never from the clock.

import type { Artifact } from '../../../../src/core/types.js';
import { Rng, deriveSeed } from '../rng.js';
import { anthropicToolId } from './anthropic.js';
import type { ArtifactRef, SerializeOptions, Serialized } from './types.js';
import { contentBlocks, contentText, parseArguments } from './types.js';

const EPOCH_2024 = Date.UTC(2024, 0, 1);
const YEAR_MS = 365 * 24 * 3600 * 1000;

export function serializeClaudeCode(artifacts: readonly Artifact[], opts: SerializeOptions): Serialized {
  const rng = new Rng(deriveSeed(opts.seed ?? 0, 'claude-code'));
  const sessionId = rng.uuid();
  let clock = EPOCH_2024 + Math.floor(rng.next() * YEAR_MS);
  let parentUuid: string | null = null;
  const lines: string[] = [];
  const refs = new Map<string, ArtifactRef>();

  for (const a of artifacts) {
    if (a.kind === 'system' || a.kind === 'policy' || a.kind === 'phase') continue;
    clock += rng.int(400, a.kind === 'user' ? 90_000 : 20_000);
    const timestamp = new Date(clock).toISOString();
    if (a.kind === 'summary') {
      refs.set(a.id, { id: `L${lines.length + 1}`, line: lines.length + 1 });
      lines.push(JSON.stringify({ type: 'summary', summary: contentText(a.content), leafUuid: parentUuid }));
      continue;
    }
    const uuid = rng.uuid();
    const base = {
      parentUuid,
      isSidechain: false,
      userType: 'external',
      cwd: '/workspace',
      sessionId,
      version: '1.0.98',
    };
    let record: Record<string, unknown>;
    if (a.kind === 'assistant') {
      const content = contentBlocks(a.content);
      for (const c of a.tool_calls ?? []) {
        content.push({
          type: 'tool_use',
          id: anthropicToolId(c.id),
          name: c.name,
          input: parseArguments(c.arguments),
        });
      }
      const message = {
        id: `msg_${rng.base62(24)}`,
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content,
      };
      record = { ...base, message, type: 'assistant', uuid, timestamp };
    } else if (a.kind === 'tool') {
      const block = {
        tool_use_id: anthropicToolId(a.call_id ?? ''),
        type: 'tool_result',
        content: contentText(a.content),
        ...(a.is_error ? { is_error: true } : {}),
      };
      record = { ...base, type: 'user', message: { role: 'user', content: [block] }, uuid, timestamp };
    } else {
      record = {
        ...base,
        type: 'user',
        message: { role: 'user', content: contentBlocks(a.content) },
        uuid,
        timestamp,
      };
    }
    // A tool result is the record's block 0, named like the Anthropic reader names result blocks.
    refs.set(a.id, { id: a.kind === 'tool' ? `${uuid}.0` : uuid, line: lines.length + 1 });
    lines.push(JSON.stringify(record));
    parentUuid = uuid;
  }
  return { text: lines.length > 0 ? `${lines.join('\n')}\n` : '', refs };
}
