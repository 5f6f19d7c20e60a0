// One input per transcript format at the caps (issue 34): 50,000 records (the record cap; for
// aider, which has no records, 50,000 messages), each about 1 KB so the file stays under 50 MiB.
// A session repeats one turn: the user asks, the assistant calls a tool, the tool answers, the
// assistant answers; every text is distinct seeded prose, every id unique. Used by caps.ts.
import type { TranscriptFormat } from '../src/core/types.js';

const MIB = 1024 * 1024;
export const CAP_RECORDS = 50_000;

const WORDS = (
  'agent ran tests read log changed parser fixed bug added flag build failed passed retry commit ' +
  'branch review diff file line column token budget policy golden check drift error warning user'
).split(' ');

/** About `chars` characters of seeded words: distinct texts, as a session's messages are. */
export function prose(i: number, chars: number): string {
  let seed = (i * 2654435761) >>> 0;
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    seed = (seed * 1103515245 + 12345) >>> 0;
    const word = WORDS[(seed >>> 16) % WORDS.length] as string;
    out.push(word);
    length += word.length + 1;
  }
  return out.join(' ');
}

/** The role of record `i` in the repeated turn. */
type Step = 'user' | 'call' | 'result' | 'answer';
const STEPS: readonly Step[] = ['user', 'call', 'result', 'answer'];
const stepOf = (i: number): Step => STEPS[i % 4] as Step;
const callId = (i: number): string => `call_${Math.floor(i / 4)}`;
const command = (i: number): string => `npm test -- --shard ${i % 97}`;

type Record_ = (i: number, text: string) => unknown;
interface Shape {
  /** One record (a JSONL line or an element of the document's list). */
  record: Record_;
  /** The document around the records; absent for JSONL. */
  wrap?: (records: unknown[]) => unknown;
  /** Records before the turns (session header, system prompt). */
  head?: unknown[];
}

const chat: Record_ = (i, text) => {
  const step = stepOf(i);
  if (step === 'user') return { role: 'user', content: text };
  if (step === 'answer') return { role: 'assistant', content: text };
  if (step === 'call') {
    return {
      role: 'assistant',
      content: text,
      tool_calls: [
        {
          id: callId(i),
          type: 'function',
          function: { name: 'bash', arguments: JSON.stringify({ command: command(i) }) },
        },
      ],
    };
  }
  return { role: 'tool', tool_call_id: callId(i), content: text };
};

const anthropicMessage = (i: number, text: string): { role: string; content: unknown } => {
  const step = stepOf(i);
  if (step === 'user') return { role: 'user', content: text };
  if (step === 'answer') return { role: 'assistant', content: [{ type: 'text', text }] };
  if (step === 'call') {
    return {
      role: 'assistant',
      content: [
        { type: 'text', text },
        { type: 'tool_use', id: callId(i), name: 'bash', input: { command: command(i) } },
      ],
    };
  }
  return { role: 'user', content: [{ type: 'tool_result', tool_use_id: callId(i), content: text }] };
};

/** Claude Code and Claude web log lines: a uuid chain, each line's parent the line before. */
const claudeLine = (i: number, text: string): unknown => ({
  type: anthropicMessage(i, text).role,
  uuid: `u${i}`,
  parentUuid: i === 0 ? null : `u${i - 1}`,
  isSidechain: false,
  sessionId: 'caps',
  cwd: '/repo',
  timestamp: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(),
  message: anthropicMessage(i, text),
});

const responsesItem = (i: number, text: string): unknown => {
  const step = stepOf(i);
  if (step === 'user') return { type: 'message', role: 'user', content: [{ type: 'input_text', text }] };
  if (step === 'answer')
    return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text }] };
  if (step === 'call') {
    return {
      type: 'function_call',
      call_id: callId(i),
      name: 'shell',
      arguments: JSON.stringify({ command: command(i), note: text }),
    };
  }
  return { type: 'function_call_output', call_id: callId(i), output: text };
};

const SHAPES: Record<Exclude<TranscriptFormat, 'aider'>, Shape> = {
  native: {
    head: [{ id: 'sys', kind: 'system', content: 'You are a careful coding agent.' }],
    record: (i, text) => {
      const step = stepOf(i);
      if (step === 'call') {
        return {
          kind: 'assistant',
          content: text,
          tool_calls: [{ id: callId(i), name: 'bash', arguments: JSON.stringify({ command: command(i) }) }],
        };
      }
      if (step === 'result') return { kind: 'tool', call_id: callId(i), content: text };
      return { kind: step === 'user' ? 'user' : 'assistant', content: text };
    },
  },
  openai: {
    head: [{ role: 'system', content: 'You are a careful coding agent.' }],
    record: chat,
    wrap: (r) => r,
  },
  anthropic: {
    record: anthropicMessage,
    wrap: (messages) => ({ model: 'claude-sonnet-4-5', system: 'You are a careful coding agent.', messages }),
  },
  'claude-code': { record: claudeLine },
  'claude-web': {
    record: claudeLine,
    wrap: (loglines) => ({ sessionId: 'web-caps', exportedAt: '2026-01-05T10:00:00.000Z', loglines }),
  },
  codex: {
    head: [
      {
        timestamp: '2026-03-01T09:00:00.000Z',
        type: 'session_meta',
        payload: { id: 'caps', cwd: '/repo', originator: 'codex_cli_rs', cli_version: '0.50.0' },
      },
    ],
    record: (i, text) => ({
      timestamp: new Date(Date.UTC(2026, 2, 1) + i * 1000).toISOString(),
      type: 'response_item',
      payload: responsesItem(i, text),
    }),
  },
  responses: {
    record: responsesItem,
    wrap: (input) => ({ model: 'gpt-5', instructions: 'You are a careful coding agent.', input }),
  },
  'vercel-ai': {
    record: (i, text) => {
      const step = stepOf(i);
      if (step === 'user') return { role: 'user', content: [{ type: 'text', text }] };
      if (step === 'answer') return { role: 'assistant', content: [{ type: 'text', text }] };
      if (step === 'call') {
        return {
          role: 'assistant',
          content: [
            { type: 'text', text },
            { type: 'tool-call', toolCallId: callId(i), toolName: 'bash', input: { command: command(i) } },
          ],
        };
      }
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: callId(i),
            toolName: 'bash',
            output: { type: 'text', value: text },
          },
        ],
      };
    },
    wrap: (messages) => ({
      model: 'anthropic/claude-sonnet-4',
      system: 'You are a careful coding agent.',
      messages,
    }),
  },
  langchain: {
    record: (i, text) => {
      const step = stepOf(i);
      const base = { content: text, additional_kwargs: {}, response_metadata: {}, name: null, id: null };
      if (step === 'user') return { type: 'human', data: { ...base, type: 'human' } };
      if (step === 'answer') return { type: 'ai', data: { ...base, type: 'ai', tool_calls: [] } };
      if (step === 'call') {
        const args = { command: command(i) };
        return {
          type: 'ai',
          data: { ...base, type: 'ai', tool_calls: [{ id: callId(i), name: 'bash', args }] },
        };
      }
      return { type: 'tool', data: { ...base, type: 'tool', tool_call_id: callId(i), status: 'success' } };
    },
    wrap: (messages) => ({ session_id: 'caps', messages }),
  },
  gemini: {
    record: (i, text) => {
      const step = stepOf(i);
      if (step === 'user') return { role: 'user', parts: [{ text }] };
      if (step === 'answer') return { role: 'model', parts: [{ text }] };
      if (step === 'call')
        return {
          role: 'model',
          parts: [{ text }, { functionCall: { name: 'bash', args: { command: command(i) } } }],
        };
      return { role: 'user', parts: [{ functionResponse: { name: 'bash', response: { output: text } } }] };
    },
    wrap: (contents) => ({
      model: 'gemini-2.5-pro',
      systemInstruction: { parts: [{ text: 'You are a careful coding agent.' }] },
      contents,
    }),
  },
  openhands: {
    record: (i, text) => {
      const step = stepOf(i);
      const at = { id: i, timestamp: new Date(Date.UTC(2025, 2, 14) + i * 1000).toISOString() };
      if (step === 'user')
        return { ...at, source: 'user', message: text, action: 'message', args: { content: text } };
      if (step === 'answer')
        return { ...at, source: 'agent', message: text, action: 'message', args: { content: text } };
      if (step === 'call') {
        return {
          ...at,
          source: 'agent',
          message: `Running command: ${command(i)}`,
          action: 'run',
          args: { command: command(i), thought: text },
        };
      }
      return {
        ...at,
        source: 'agent',
        message: `Command \`${command(i - 1)}\` executed with exit code 0.`,
        cause: i - 1,
        observation: 'run',
        content: text,
        extras: { command: command(i - 1), metadata: { exit_code: 0 } },
      };
    },
    wrap: (events) => events,
  },
};

/** An aider chat history: one session, `#### ` user turns, assistant prose, `> ` tool output. */
function aider(records: number, chars: number): string {
  const out = ['# aider chat started at 2024-10-21 17:40:02', '', '> Aider v0.60.0  ', ''];
  for (let i = 0; i < records; i++) {
    const text = prose(i, chars);
    const step = stepOf(i);
    if (step === 'user') out.push(`#### ${text}  `, '');
    else if (step === 'result') out.push(`> ${text}  `, '');
    else out.push(text, '');
  }
  return `${out.join('\n')}\n`;
}

function serialize(shape: Shape, records: number, chars: number): string {
  const head = shape.head ?? [];
  const items: unknown[] = [...head];
  for (let i = 0; items.length < records; i++) items.push(shape.record(i, prose(i, chars)));
  if (shape.wrap) return JSON.stringify(shape.wrap(items));
  return `${items.map((r) => JSON.stringify(r)).join('\n')}\n`;
}

export const CAP_FORMATS = [...Object.keys(SHAPES), 'aider'] as TranscriptFormat[];

/** The file name of a format's input (JSONL formats by extension). */
export function capsFileName(format: TranscriptFormat): string {
  if (format === 'aider') return 'caps.aider.chat.history.md';
  const shape = SHAPES[format];
  return `caps.${format}.${shape.wrap ? 'json' : 'jsonl'}`;
}

/**
 * The input of `format` at the caps: CAP_RECORDS records with the longest prose that keeps the
 * file within 97% of 50 MiB.
 */
export function capsInput(format: TranscriptFormat, records = CAP_RECORDS): string {
  const make = (chars: number): string =>
    format === 'aider' ? aider(records, chars) : serialize(SHAPES[format], records, chars);
  const limit = 0.97 * 50 * MIB;
  let chars = 900;
  let text = make(chars);
  // Bytes grow with the prose by one byte per character (ASCII), the rest is the format's overhead.
  const bytes = Buffer.byteLength(text);
  if (bytes > limit) {
    chars = Math.max(100, Math.floor(chars - (bytes - limit) / records) - 8);
    text = make(chars);
  }
  return text;
}
