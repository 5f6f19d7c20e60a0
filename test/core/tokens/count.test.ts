import { describe, it, expect } from 'vitest';
import { countArtifactTokens, partCategory } from '../../../src/core/tokens/count.js';
import type { TokenCostConfig } from '../../../src/core/tokens/count.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Artifact } from '../../../src/core/types.js';
import { loadTokenizer } from '../../../src/tokens/load.js';

// One token per character: makes every expected total checkable by eye.
const perChar: Tokenizer = { name: 'per-char', version: '0', count: (t) => t.length };

const cfg: TokenCostConfig = {
  message_overhead: 3,
  part_tokens: { image: 765, audio: 1000, file: 900, other: 256 },
};

function artifact(fields: Partial<Artifact>): Artifact {
  return { id: 'a0', kind: 'user', content: '', source: { file: 'f.json', line: 1, column: 1 }, ...fields };
}

describe('countArtifactTokens', () => {
  it('adds the message overhead to string content', () => {
    expect(countArtifactTokens(artifact({ content: 'hello' }), perChar, cfg)).toBe(3 + 5);
  });

  it('counts only the overhead for empty content', () => {
    expect(countArtifactTokens(artifact({ content: '' }), perChar, cfg)).toBe(3);
    expect(countArtifactTokens(artifact({ content: [] }), perChar, { ...cfg, message_overhead: 0 })).toBe(0);
  });

  it('counts every text part', () => {
    const a = artifact({
      content: [
        { type: 'text', text: 'abc' },
        { type: 'text', text: 'defg' },
      ],
    });
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 3 + 4);
  });

  it('charges each non-text part its declared cost by category', () => {
    const a = artifact({
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        { type: 'image', source: { type: 'base64', data: 'AAAA' } },
        { type: 'input_image', image_url: 'https://example.test/x.png' },
        { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
        { type: 'audio', data: 'AAAA' },
        { type: 'file', file: { file_id: 'f1' } },
        { type: 'document', source: { type: 'text', data: 'long document text that is not counted' } },
        { type: 'input_file', file_id: 'f2' },
        { type: 'refusal', refusal: 'no' },
      ],
    });
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 3 * 765 + 2 * 1000 + 3 * 900 + 256);
  });

  it('counts thinking text and charges redacted thinking as other', () => {
    const a = artifact({
      kind: 'assistant',
      content: [
        { type: 'thinking', thinking: 'let me see', signature: 'sig-not-counted' },
        { type: 'redacted_thinking', data: 'opaque-encrypted-payload' },
        { type: 'text', text: 'ok' },
      ],
    });
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 10 + 256 + 2);
  });

  it("counts the readable text of every format's reasoning parts; encrypted reasoning costs other", () => {
    const a = artifact({
      kind: 'assistant',
      content: [
        { type: 'reasoning', text: 'vercel' },
        { type: 'reasoning', reasoning: 'langchain' },
        { type: 'thought', text: 'gemini' },
        { type: 'text-plain', text: 'plain', mime_type: 'text/plain' },
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'sum' }], encrypted_content: 'x' },
        { type: 'reasoning', summary: [], encrypted_content: 'opaque' },
        { type: 'thoughtSignature', thoughtSignature: 'c2lnbmF0dXJl' },
      ],
    });
    // The Gemini signature costs nothing: no emitter sends it.
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 6 + 9 + 6 + 5 + 3 + 256 + 0);
  });

  it('charges a file by the media type it declares (an image file costs an image)', () => {
    const a = artifact({
      content: [
        { type: 'file', data: 'AAAA', mediaType: 'image/png' },
        { type: 'file', data: 'AAAA', mediaType: 'application/pdf' },
        { type: 'inlineData', inlineData: { mimeType: 'image/jpeg', data: 'AAAA' } },
        { type: 'fileData', fileData: { mimeType: 'audio/mp3', fileUri: 'gs://a' } },
        { type: 'image-data', data: 'AAAA', mediaType: 'image/png' },
        { type: 'file-url', url: 'https://x', mediaType: 'text/csv' },
      ],
    });
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 765 + 900 + 765 + 1000 + 765 + 900);
  });

  it('counts tool-call names and arguments but not call ids', () => {
    const a = artifact({
      kind: 'assistant',
      content: 'hi',
      tool_calls: [
        { id: 'call_0123456789', name: 'bash', arguments: '{"cmd":"ls"}' },
        { id: 'x', name: 'read', arguments: '{}' },
      ],
    });
    expect(countArtifactTokens(a, perChar, cfg)).toBe(3 + 2 + (4 + 12) + (4 + 2));
    const sameCallsOtherIds = {
      ...a,
      tool_calls: a.tool_calls?.map((c) => ({ ...c, id: `${c.id}-longer-id` })),
    };
    expect(countArtifactTokens(sameCallsOtherIds, perChar, cfg)).toBe(countArtifactTokens(a, perChar, cfg));
  });

  it('does not count the tool name of a tool result', () => {
    const result = artifact({ kind: 'tool', tool: 'retrieve_entity_info', call_id: 'c1', content: 'done' });
    expect(countArtifactTokens(result, perChar, cfg)).toBe(3 + 4);
  });

  it('follows the overhead and part costs given in the config', () => {
    const a = artifact({ content: [{ type: 'image_url', image_url: { url: 'u' } }] });
    const other: TokenCostConfig = {
      message_overhead: 7,
      part_tokens: { image: 85, audio: 0, file: 0, other: 0 },
    };
    expect(countArtifactTokens(a, perChar, other)).toBe(7 + 85);
  });

  it('uses the real tokenizer for content and arguments, special tokens included', async () => {
    const tok = await loadTokenizer('o200k_base');
    const a = artifact({
      kind: 'assistant',
      content: [{ type: 'text', text: 'hello world' }],
      tool_calls: [{ id: 'toolu_1', name: 'retrieve_entity_info', arguments: '{"name":"Alice"}' }],
    });
    // overhead 3 + "hello world" 2 + name 3 + arguments 5 (see test/tokens/load.test.ts)
    expect(countArtifactTokens(a, tok, cfg)).toBe(3 + 2 + 3 + 5);
    expect(countArtifactTokens(artifact({ content: '<|endoftext|>' }), tok, cfg)).toBe(3 + 7);
  });
});

describe('partCategory', () => {
  it.each([
    ['image_url', 'image'],
    ['image', 'image'],
    ['input_image', 'image'],
    ['input_audio', 'audio'],
    ['audio', 'audio'],
    ['file', 'file'],
    ['document', 'file'],
    ['input_file', 'file'],
    ['inlineData', 'file'],
    ['image-url', 'image'],
    ['file-data', 'file'],
    ['redacted_thinking', 'other'],
    ['constructor', 'other'],
    ['toString', 'other'],
  ])('%s → %s', (type, expected) => {
    expect(partCategory(type)).toBe(expected);
  });
});
