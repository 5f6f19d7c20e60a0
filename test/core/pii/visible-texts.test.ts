// What the pii check and the golden guard search: every text an output would hold, and nothing
// that is only an encoding.
import { describe, expect, it } from 'vitest';
import { visibleTexts } from '../../../src/core/pii/visible-texts.js';

describe('visibleTexts', () => {
  it('holds thinking, plain-text documents, tool arguments, ids and names', () => {
    const texts = visibleTexts({
      id: 'm1',
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'the signer is ann@example.net', signature: 'c2lnbmF0dXJl' },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'call 415 555 2671' } },
        {
          type: 'web_search_tool_result',
          content: [{ type: 'web_search_result', title: 'bob@example.org' }],
        },
      ],
      tool_calls: [{ id: 'toolu_1', name: 'send_mail', arguments: '{"to":"carl@example.com"}' }],
    });
    expect(texts).toEqual(
      expect.arrayContaining([
        'm1',
        'assistant',
        'the signer is ann@example.net',
        'call 415 555 2671',
        'bob@example.org',
        'toolu_1',
        'send_mail',
        '{"to":"carl@example.com"}',
      ]),
    );
  });

  it('leaves out encodings: base64 sources, signatures, redacted thinking', () => {
    const texts = visibleTexts({
      id: 'm2',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo4155552671' } },
        { type: 'redacted_thinking', data: 'EmwKAhgBEgy3va3pzix' },
        { type: 'thinking', thinking: 'ok', signature: 'sig4155552671' },
      ],
    });
    expect(texts).toEqual(['m2', 'ok']);
  });
});
