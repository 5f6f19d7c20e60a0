// toNative and the `--emit` format choice.
import { describe, expect, it } from 'vitest';
import { emitContext, resolveEmitFormat } from '../../../src/core/emit/index.js';
import { toNative } from '../../../src/core/emit/native.js';
import { ci, tc } from './helpers.js';

describe('toNative', () => {
  it('writes the native document: artifact fields only, no stabilizer bookkeeping', () => {
    const doc = toNative(
      [
        ci('s', 'system', 'Be brief.', { role: 'developer' }),
        ci('a', 'assistant', '', { tool_calls: [tc('c', 'bash', '{"command":"ls"}')] }),
        ci('r', 'tool', '[tool result omitted: over the context budget]', {
          tool: 'bash',
          call_id: 'c',
          is_error: true,
          placeholder: true,
        }),
      ],
      { source: 'run-7' },
    );
    expect(doc).toEqual({
      meta: { source: 'run-7' },
      artifacts: [
        { id: 's', kind: 'system', role: 'developer', content: 'Be brief.' },
        { id: 'a', kind: 'assistant', content: '', tool_calls: [tc('c', 'bash', '{"command":"ls"}')] },
        {
          id: 'r',
          kind: 'tool',
          content: '[tool result omitted: over the context budget]',
          tool: 'bash',
          call_id: 'c',
          is_error: true,
        },
      ],
    });
  });
});

describe('emit format', () => {
  it('resolves `same` to the format the transcript came in; Claude Code talks to Anthropic', () => {
    expect(resolveEmitFormat('same', 'openai')).toBe('openai');
    expect(resolveEmitFormat('same', 'anthropic')).toBe('anthropic');
    expect(resolveEmitFormat('same', 'native')).toBe('native');
    expect(resolveEmitFormat('same', 'claude-code')).toBe('anthropic');
    expect(resolveEmitFormat('openai', 'anthropic')).toBe('openai');
  });

  it('wraps OpenAI messages in a request body and passes the others through', () => {
    const context = [ci('u', 'user', 'hi')];
    expect(emitContext(context, 'openai')).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
    expect(emitContext(context, 'anthropic')).toEqual({
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(emitContext(context, 'native')).toEqual({
      meta: {},
      artifacts: [{ id: 'u', kind: 'user', content: 'hi' }],
    });
  });
});
