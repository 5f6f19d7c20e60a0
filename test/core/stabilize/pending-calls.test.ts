// Issue 31: a call the history ends on, whose result has not come back (or that waits for the
// user's approval), cannot stay as a call (every provider API rejects a call without its result),
// so its message says so in a note, ledger `pending_call` / `pending_approval`: per format.
import { describe, expect, it } from 'vitest';
import { readTranscript, type FormatOption } from '../../../src/core/readers/index.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import { policy, wordTokenizer } from './helpers.js';

const PENDING = '[tool call bash is pending: its result has not come back yet]';
const APPROVAL = "[tool call bash is waiting for the user's approval]";

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join('\n');

const CASES: { format: FormatOption; file: string; text: string; note?: string }[] = [
  {
    format: 'openai',
    file: 'chat.json',
    text: JSON.stringify([
      { role: 'user', content: 'run the tests' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"npm test"}' } },
        ],
      },
    ]),
  },
  {
    format: 'anthropic',
    file: 'messages.json',
    text: JSON.stringify({
      messages: [
        { role: 'user', content: 'run the tests' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Running them.' },
            { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
          ],
        },
      ],
    }),
  },
  {
    format: 'responses',
    file: 'items.json',
    text: JSON.stringify([
      { role: 'user', content: 'run the tests' },
      { type: 'function_call', call_id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' },
    ]),
  },
  {
    format: 'gemini',
    file: 'contents.json',
    text: JSON.stringify({
      contents: [
        { role: 'user', parts: [{ text: 'run the tests' }] },
        { role: 'model', parts: [{ functionCall: { name: 'bash', args: { command: 'npm test' } } }] },
      ],
    }),
  },
  {
    format: 'native',
    file: 'session.json',
    text: JSON.stringify({
      artifacts: [
        { id: 'u', kind: 'user', content: 'run the tests' },
        {
          id: 'a',
          kind: 'assistant',
          content: '',
          tool_calls: [{ id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }],
        },
      ],
    }),
  },
  {
    format: 'claude-code',
    file: 'session.jsonl',
    text: jsonl([
      { type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'run the tests' } },
      {
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        message: {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } }],
        },
      },
    ]),
  },
  {
    format: 'codex',
    file: 'rollout.jsonl',
    text: jsonl([
      { type: 'session_meta', payload: { id: 's1', cwd: '/repo' } },
      {
        type: 'response_item',
        payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'run the tests' }] },
      },
      {
        type: 'response_item',
        payload: { type: 'function_call', name: 'bash', arguments: '{"command":"npm test"}', call_id: 'c1' },
      },
    ]),
  },
  {
    format: 'langchain',
    file: 'messages.json',
    text: JSON.stringify([
      { type: 'human', data: { content: 'run the tests' } },
      {
        type: 'ai',
        data: { content: '', tool_calls: [{ id: 'c1', name: 'bash', args: { command: 'npm test' } }] },
      },
    ]),
  },
  {
    format: 'native',
    file: 'approval.json',
    note: APPROVAL,
    text: JSON.stringify({
      artifacts: [
        { id: 'u', kind: 'user', content: 'clean the build folder' },
        {
          id: 'a',
          kind: 'assistant',
          content: 'Cleaning.',
          tool_calls: [
            { id: 'c1', name: 'bash', arguments: '{"command":"rm -rf build"}', approval: 'requested' },
          ],
        },
      ],
    }),
  },
  {
    format: 'vercel-ai',
    file: 'messages.json',
    note: APPROVAL,
    text: JSON.stringify([
      { role: 'user', content: 'clean the build folder' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'rm -rf build' } },
          { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
        ],
      },
    ]),
  },
];

describe('a pending call says so in the context', () => {
  it.each(CASES)('$format', ({ format, file, text, note }) => {
    const read = readTranscript(text, { file, format });
    if (!read.ok) throw new Error(JSON.stringify(read.diagnostics));
    const r = stabilizeTranscript(read.transcript, { policy: policy(), tokenizer: wordTokenizer });
    const noted = r.context.filter((c) => JSON.stringify(c.content).includes(note ?? PENDING));
    expect(noted).toHaveLength(1);
    expect(noted[0]?.tool_calls ?? []).toEqual([]);
    const e = r.ledger.find((x) => x.id === noted[0]?.id);
    expect(e?.reason).toBe(note === APPROVAL ? 'pending_approval' : 'pending_call');
  });

  it('vercel-ai: an approved call whose result came back is a decision', () => {
    const text = JSON.stringify([
      { role: 'user', content: 'clean the build folder' },
      {
        role: 'assistant',
        content: [
          { type: 'tool-call', toolCallId: 'c1', toolName: 'bash', input: { command: 'rm -rf build' } },
          { type: 'tool-approval-request', approvalId: 'ap1', toolCallId: 'c1' },
        ],
      },
      {
        role: 'tool',
        content: [
          { type: 'tool-approval-response', approvalId: 'ap1', approved: true },
          {
            type: 'tool-result',
            toolCallId: 'c1',
            toolName: 'bash',
            output: { type: 'text', value: 'done' },
          },
        ],
      },
    ]);
    const read = readTranscript(text, { file: 'messages.json', format: 'vercel-ai' });
    if (!read.ok) throw new Error('unreadable');
    const result = read.transcript.artifacts.find((a) => a.kind === 'tool');
    expect(result?.tags).toEqual(['decision']);
    const r = stabilizeTranscript(read.transcript, { policy: policy(), tokenizer: wordTokenizer });
    expect(r.ledger.find((e) => e.id === result?.id)?.protected_by).toContain('tag:decision');
    expect(r.ledger.every((e) => !e.reason.startsWith('pending'))).toBe(true);
  });
});
