// Format detection by content (DESIGN §2). Order of the rules, first match wins:
// JSON:  {artifacts:[...]}                                    → native
//        {loglines:[...]} (Claude web session export)         → claude-web
//        OpenHands events (`action`/`observation` + `source`), bare or under `history` → openhands
//        LangChain messages (`lc: 1` constructors, or `{type, data}` dicts)             → langchain
//        Gemini `contents` (`role` user/model with `parts`), `systemInstruction`       → gemini
//        OpenAI Responses items (`input`, typed items, input_text/output_text parts)    → responses
//        Vercel AI SDK ModelMessage[] (tool-call / tool-result / reasoning / file parts) → vercel-ai
//        (each of these predicates lives in its reader and only matches its own shape)
//        messages with a top-level `system`, or content blocks only Anthropic uses
//        (tool_use, tool_result, thinking, redacted_thinking, image, document)  → anthropic
//        messages (bare array, `messages`, `traj`, `history`, `trajectory`)      → openai
//        a single-line record                                  → as JSONL below
// JSONL: records typed user/assistant/summary with `message`, `summary` or `leafUuid`
//        → claude-code; records with a string `kind` (or a `{"meta":{}}` line) → native;
//        when both appear, the more numerous wins (ties go to claude-code);
//        records `{type: session_meta|response_item|turn_context|event_msg, payload}` → codex
//        when they outnumber both; OpenHands evaluation rows (`{instance_id, history: [events]}`,
//        one run per line: `output.jsonl`) → openhands when they outnumber every other kind.
import type { TranscriptFormat } from '../types.js';
import { isClaudeWebDocument } from './claude-web.js';
import { isCodexRecord } from './codex.js';
import { isGeminiDocument } from './gemini.js';
import { isLangChainDocument } from './langchain.js';
import { isOpenHandsDocument, isOpenHandsRow } from './openhands.js';
import { isResponsesDocument } from './responses.js';
import { isVercelAiDocument } from './vercel-ai.js';
import { asJsonl, parseContainer } from './container.js';
import { findMessageArray } from './message-array.js';
import type { Container } from './reader-types.js';
import { isObject } from './values.js';

export interface Detection {
  format: TranscriptFormat;
  /** The container the reader gets (a one-line JSON document may have become one JSONL record). */
  container: Container;
}

const CLAUDE_TYPES = ['user', 'assistant', 'summary'];
const ANTHROPIC_BLOCKS = ['tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'image', 'document'];

function isClaudeRecord(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value['type'] === 'string' &&
    CLAUDE_TYPES.includes(value['type']) &&
    ('message' in value || 'summary' in value || 'leafUuid' in value)
  );
}

function isNativeRecord(value: unknown): boolean {
  if (!isObject(value)) return false;
  if (typeof value['kind'] === 'string') return true;
  return Object.keys(value).length === 1 && 'meta' in value;
}

function detectJsonl(container: Extract<Container, { kind: 'jsonl' }>): Detection | null {
  let claude = 0;
  let native = 0;
  let codex = 0;
  let rows = 0;
  for (const { value } of container.lines) {
    if (isClaudeRecord(value)) claude++;
    else if (isNativeRecord(value)) native++;
    else if (isCodexRecord(value)) codex++;
    else if (isOpenHandsRow(value)) rows++;
  }
  // Rows ({history: [events]}) share no shape with the others: a majority of them decides.
  if (rows > claude && rows > native && rows > codex) return { format: 'openhands', container };
  // Codex records ({type, payload}) share no shape with the others: the majority decides.
  if (codex > claude && codex > native) return { format: 'codex', container };
  if (claude > 0 && claude >= native) return { format: 'claude-code', container };
  if (native > 0) return { format: 'native', container };
  return null;
}

function hasAnthropicBlocks(messages: unknown[]): boolean {
  return messages.some((message) => {
    const content = isObject(message) ? message['content'] : undefined;
    return (
      Array.isArray(content) &&
      content.some((block) => isObject(block) && ANTHROPIC_BLOCKS.includes(block['type'] as string))
    );
  });
}

/** JSON shapes with a reader of their own, in the order they are tried (before the chat shapes). */
const JSON_SHAPES: readonly [TranscriptFormat, (root: unknown) => boolean][] = [
  ['claude-web', isClaudeWebDocument],
  ['openhands', isOpenHandsDocument],
  ['langchain', isLangChainDocument],
  ['gemini', isGeminiDocument],
  ['responses', isResponsesDocument],
  ['vercel-ai', isVercelAiDocument],
];

export function detectContainer(container: Container): Detection | null {
  if (container.kind === 'jsonl') return detectJsonl(container);
  const root = container.doc.value;
  if (isObject(root) && Array.isArray(root['artifacts'])) return { format: 'native', container };
  for (const [format, matches] of JSON_SHAPES) if (matches(root)) return { format, container };
  const found = findMessageArray(root);
  if (found) {
    const hasSystem = isObject(root) && (typeof root['system'] === 'string' || Array.isArray(root['system']));
    const chatKey = found.key === null || found.key === 'messages';
    if (chatKey && (hasSystem || hasAnthropicBlocks(found.messages)))
      return { format: 'anthropic', container };
    return { format: 'openai', container };
  }
  const single = asJsonl(container);
  return single ? detectJsonl(single) : null;
}

/** The format and container of a transcript, or null when no reader recognises it. */
export function detectFormat(
  text: string,
  file: string,
): { format: TranscriptFormat; container: 'json' | 'jsonl' } | null {
  const parsed = parseContainer(text, file);
  if (!parsed.ok) return null;
  const detection = detectContainer(parsed.container);
  return detection ? { format: detection.format, container: detection.container.kind } : null;
}
