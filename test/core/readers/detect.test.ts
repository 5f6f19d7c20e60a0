import { describe, expect, it } from 'vitest';
import { detectFormat } from '../../../src/core/readers/index.js';

const j = (value: unknown): string => JSON.stringify(value);
const lines = (...values: unknown[]): string => values.map(j).join('\n');

const claudeUser = { type: 'user', uuid: 'u', message: { role: 'user', content: 'hi' } };
const claudeSummary = { type: 'summary', summary: 's', leafUuid: 'u' };

describe('detectFormat', () => {
  const table: [string, string, string, string | null][] = [
    ['native document', 'x.json', j({ meta: {}, artifacts: [] }), 'native/json'],
    ['native JSONL', 'x.jsonl', lines({ kind: 'user' }, { kind: 'assistant' }), 'native/jsonl'],
    ['native JSONL, other extension', 'x.log', lines({ kind: 'user' }, { kind: 'tool' }), 'native/jsonl'],
    ['native JSONL with a meta line', 'x.jsonl', lines({ meta: {} }, { kind: 'user' }), 'native/jsonl'],
    ['one native record on one line', 'x.json', j({ kind: 'user', content: 'x' }), 'native/jsonl'],
    [
      'native outnumbers claude-code',
      'x.jsonl',
      lines(claudeUser, { kind: 'a' }, { kind: 'b' }),
      'native/jsonl',
    ],
    [
      'Claude Code session',
      'x.jsonl',
      lines({ type: 'file-history-snapshot' }, claudeUser),
      'claude-code/jsonl',
    ],
    ['Claude Code .ndjson', 'x.ndjson', lines(claudeUser), 'claude-code/jsonl'],
    ['Claude Code summary only', 'x.jsonl', lines(claudeSummary), 'claude-code/jsonl'],
    ['one Claude Code record, no extension', 'session', j(claudeUser), 'claude-code/jsonl'],
    ['OpenAI {messages}', 'x.json', j({ messages: [{ role: 'user', content: 'x' }] }), 'openai/json'],
    ['OpenAI bare array', 'x.json', j([{ role: 'developer', content: 'x' }]), 'openai/json'],
    ['tau-bench traj', 'x.json', j({ task_id: 1, traj: [{ role: 'system', content: 's' }] }), 'openai/json'],
    [
      'SWE-agent history',
      'x.traj',
      j({ trajectory: [{ action: 'ls' }], history: [{ role: 'user', content: 'x' }] }),
      'openai/json',
    ],
    [
      'Anthropic system string',
      'x.json',
      j({ system: 's', messages: [{ role: 'user', content: 'x' }] }),
      'anthropic/json',
    ],
    [
      'Anthropic system blocks',
      'x.json',
      j({ system: [{ type: 'text', text: 's' }], messages: [] }),
      'anthropic/json',
    ],
    [
      'Anthropic tool_result blocks',
      'x.json',
      j({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'x' }] }] }),
      'anthropic/json',
    ],
    [
      'Anthropic thinking in a bare array',
      'x.json',
      j([{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 's' }] }]),
      'anthropic/json',
    ],
    [
      'OpenAI content parts are not Anthropic',
      'x.json',
      j([{ role: 'user', content: [{ type: 'image_url' }] }]),
      'openai/json',
    ],
    [
      'pretty-printed JSON is one document',
      'x.txt',
      '{\n  "messages": [\n    {"role": "user", "content": "x"}\n  ]\n}',
      'openai/json',
    ],
    ['unrelated object', 'x.json', j({ foo: 1 }), null],
    ['array of numbers', 'x.json', '[1, 2]', null],
    ['a number', 'x.json', '42', null],
    ['JSONL of unrelated objects', 'x.jsonl', lines({ foo: 1 }, { bar: 2 }), null],
    ['Claude Code types without message', 'x.jsonl', lines({ type: 'user' }), null],
    ['invalid JSON', 'x.json', '{"messages": [', null],
  ];

  it.each(table)('%s', (_name, file, text, expected) => {
    const found = detectFormat(text, file);
    expect(found ? `${found.format}/${found.container}` : null).toBe(expected);
  });
});
