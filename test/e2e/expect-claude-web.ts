// Expected artifact and pairing counts of a Claude web session export (`{loglines: [...]}`),
// computed straight from the raw JSON with plain code and no project import beyond the type, so
// the e2e tests compare the CLI against an independent reading of the file (as corpus-expectations
// does for the other formats). The rules, from docs/formats.md:
// - a `user` or `assistant` logline with a readable `message` gives one artifact per tool_result
//   block, plus one for the message itself unless it held tool_result blocks and nothing else;
// - a `summary` logline with a string `summary` gives one artifact;
// - every other logline gives none;
// - a tool_use answers the nearest earlier pending tool_result with its id.
import type { Expected } from './corpus-expectations.js';

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const nonEmpty = (v: unknown): boolean => typeof v === 'string' && v !== '';

/** A block the reader can read: text needs its text, tool_use its id and name, tool_result its id. */
function readable(block: unknown): boolean {
  if (!isObject(block) || typeof block['type'] !== 'string') return false;
  if (block['type'] === 'text') return typeof block['text'] === 'string';
  if (block['type'] === 'tool_use') return nonEmpty(block['id']) && nonEmpty(block['name']);
  if (block['type'] === 'tool_result') return nonEmpty(block['tool_use_id']);
  return true;
}

function readableContent(message: unknown): string | Json[] | undefined {
  if (!isObject(message)) return undefined;
  const content = message['content'];
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && content.every(readable)) return content as Json[];
  return undefined;
}

export function expectClaudeWeb(text: string): Expected {
  const root = JSON.parse(text) as Json;
  const loglines = root['loglines'] as unknown[];
  let artifacts = 0;
  let sidechain = 0;
  // Pending calls per id; a result takes one when there is one.
  const pending = new Map<string, number>();
  let paired = 0;
  for (const record of loglines) {
    if (!isObject(record)) continue;
    let count = 0;
    if (record['type'] === 'summary' && typeof record['summary'] === 'string') count = 1;
    if (record['type'] === 'user' || record['type'] === 'assistant') {
      const content = readableContent(record['message']);
      if (typeof content === 'string') count = 1;
      else if (content) {
        const results = content.filter((b) => b['type'] === 'tool_result');
        count = results.length + (results.length === 0 || results.length < content.length ? 1 : 0);
        // Results come first in the artifacts (they lead the turn), then the message's own calls.
        for (const r of results) {
          const id = r['tool_use_id'] as string;
          const n = pending.get(id) ?? 0;
          if (n > 0) {
            pending.set(id, n - 1);
            paired++;
          }
        }
        for (const b of content) {
          if (b['type'] === 'tool_use')
            pending.set(b['id'] as string, (pending.get(b['id'] as string) ?? 0) + 1);
        }
      }
    }
    artifacts += count;
    if (record['isSidechain'] === true) sidechain += count;
  }
  const unpairedCalls = [...pending.values()].reduce((a, b) => a + b, 0);
  return {
    format: 'claude-web',
    artifacts,
    pairedResults: paired,
    unpairedCalls,
    sidechain,
    invalidLines: 0,
  };
}
