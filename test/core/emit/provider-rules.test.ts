// The provider check's view of the request: each finding names the context items the offending
// message or block was written from, so it can be annotated at the transcript line.
import { describe, expect, it } from 'vitest';
import { providerIssues } from '../../../src/core/emit/provider-rules.js';
import type { ContextItem } from '../../../src/core/stabilize/types.js';
import type { Artifact } from '../../../src/core/types.js';

function item(id: string, kind: ContextItem['kind'], extra: Partial<ContextItem> = {}): ContextItem {
  return { id, kind, tokens: 1, content: `${id} text`, line: Number(id.slice(1)), ...extra };
}
const calls = (id: string) => [{ id, name: 'bash', arguments: '{}' }];

describe('providerIssues', () => {
  it('finds nothing in a well-formed tool loop, for either API', () => {
    const context = [
      item('a1', 'task'),
      item('a2', 'assistant', { content: '', tool_calls: calls('c1') }),
      item('a3', 'tool', { call_id: 'c1' }),
      item('a4', 'user'),
    ];
    expect(providerIssues(context, 'openai')).toEqual([]);
    expect(providerIssues(context, 'anthropic')).toEqual([]);
  });

  it('writes a reused call id once per request for Anthropic: later uses renamed, results with them', () => {
    const context = [
      item('a1', 'task'),
      item('a2', 'assistant', { content: '', tool_calls: calls('c1') }),
      item('a3', 'tool', { call_id: 'c1' }),
      item('a4', 'assistant', { content: '', tool_calls: calls('c1') }),
      item('a5', 'tool', { call_id: 'c1' }),
    ];
    expect(providerIssues(context, 'anthropic')).toEqual([]);
    expect(providerIssues(context, 'openai')).toEqual([]);
  });

  it('names the items a rule broke at: a result whose call is not in the context', () => {
    const context = [item('a1', 'task'), item('a2', 'user'), item('a3', 'tool', { call_id: 'c9' })];
    expect(providerIssues(context, 'openai').map((i) => [i.rule, i.ids])).toEqual([
      ['openai-tool-answers-call', ['a3']],
    ]);
    expect(providerIssues(context, 'anthropic').map((i) => [i.rule, i.ids])).toEqual([
      ['anthropic-tool-result-first', ['a3']],
      ['anthropic-tool-result-matches-use', ['a3']],
    ]);
  });

  it('reports an empty context as a request with no messages, for both APIs', () => {
    expect(providerIssues([], 'openai').map((i) => [i.rule, i.ids])).toEqual([
      ['openai-messages-nonempty', []],
    ]);
    expect(providerIssues([], 'anthropic').map((i) => i.rule)).toEqual(['anthropic-messages-nonempty']);
    // System text alone goes to Anthropic's top-level `system`: still no message.
    expect(providerIssues([item('a1', 'system')], 'anthropic').map((i) => i.rule)).toEqual([
      'anthropic-messages-nonempty',
    ]);
  });

  it('checks the repaired request: an assistant turn first gets a placeholder user turn, no finding', () => {
    const context = [item('a1', 'system'), item('a2', 'assistant'), item('a3', 'user')];
    expect(providerIssues(context, 'anthropic')).toEqual([]);
    expect(providerIssues(context, 'openai')).toEqual([]);
  });

  it('a finding on the placeholder user turn is annotated at the item it stands before', () => {
    const context = [item('a1', 'system'), item('a2', 'assistant'), item('a3', 'user')];
    // A blank text (the policy refuses one; a library caller can still pass it) makes the repaired request invalid.
    expect(
      providerIssues(context, 'anthropic', undefined, { leadingUserText: '  ' }).map((i) => [i.rule, i.ids]),
    ).toEqual([['anthropic-empty-text', ['a2']]]);
  });

  it('leaves Anthropic-only parts out of an OpenAI request; a turn of only thinking goes entirely', () => {
    const context = [
      item('a1', 'task'),
      item('a2', 'assistant', {
        content: [
          { type: 'thinking', thinking: 'hm', signature: 'sig' },
          { type: 'text', text: 'ok' },
        ],
      }),
      item('a3', 'user'),
      item('a4', 'assistant', { content: [{ type: 'redacted_thinking', data: 'xx' }] }),
    ];
    expect(providerIssues(context, 'openai')).toEqual([]);
  });

  describe('thinking of the last assistant turn in a tool loop', () => {
    const thinking = { type: 'thinking', thinking: 'plan: call bash', signature: 'sig' };
    const original = new Map<string, Artifact>([
      [
        'a2',
        {
          id: 'a2',
          kind: 'assistant',
          content: [thinking],
          source: { file: 's.jsonl', line: 2, column: 1 },
        } as Artifact,
      ],
    ]);
    const loop = (part: Record<string, unknown>): ContextItem[] => [
      item('a1', 'task'),
      item('a2', 'assistant', { content: [part as never], tool_calls: calls('c1') }),
      item('a3', 'tool', { call_id: 'c1' }),
    ];

    it('passes when the block is passed back as the model wrote it', () => {
      expect(providerIssues(loop(thinking), 'anthropic', original)).toEqual([]);
    });

    it('fails when it was changed (masked), at the assistant item, without quoting it', () => {
      const issues = providerIssues(
        loop({ ...thinking, thinking: 'plan: call [EMAIL]' }),
        'anthropic',
        original,
      );
      expect(issues.map((i) => [i.rule, i.ids])).toEqual([['anthropic-thinking-unchanged', ['a2']]]);
      expect(issues[0]?.message).not.toContain('plan');
    });

    it('does not apply once a new user request closed the loop (the API strips older thinking)', () => {
      const context = [...loop({ ...thinking, thinking: 'changed' }), item('a4', 'user')];
      expect(providerIssues(context, 'anthropic', original)).toEqual([]);
    });
  });
});
