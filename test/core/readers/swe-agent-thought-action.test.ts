// SWE-agent thought/action trajectories (issue 31): the model's command is assistant text and its
// output comes back as a `user` message with `message_type: "observation"`. The reader turns each
// observation that follows an action into the output of a synthetic `bash` call on that action, so
// the task statement and the latest request are the issue statement, not the last observation, and
// the emitted requests pair every call with its result.
import { beforeAll, describe, expect, it } from 'vitest';
import { resolvePolicy } from '../../../src/api/policy.js';
import type { AnthropicRequest } from '../../../src/core/emit/anthropic.js';
import { emitContext } from '../../../src/core/emit/index.js';
import type { OpenAIMessage } from '../../../src/core/emit/openai.js';
import { verifyAnthropic, verifyOpenAI } from '../../../src/core/emit/verify.js';
import { failingChecks } from '../../../src/core/report/report.js';
import { latestUserRequest, taskStatement } from '../../../src/core/scope/task.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import { fixture, load } from './helpers.js';

const FILE = 'openai-swe-agent-thought-action.traj';

function history(messages: unknown[]): Transcript {
  return load(JSON.stringify({ history: messages }), { file: 'x.traj' });
}

const issue = { role: 'user', message_type: 'observation', content: 'ISSUE: slugify keeps double dashes' };
const action = (command: string): Record<string, unknown> => ({
  role: 'assistant',
  message_type: 'action',
  content: `Let's run it.\n\`\`\`\n${command}\n\`\`\``,
  thought: "Let's run it.",
  action: `${command}\n`,
});
const observation = (text: string): Record<string, unknown> => ({
  role: 'user',
  message_type: 'observation',
  content: text,
});

describe('SWE-agent thought/action trajectory (fixture)', () => {
  const t = load(fixture(FILE), { file: FILE });

  it('reads each observation after an action as that action’s bash output', () => {
    expect(t.format).toBe('openai');
    expect(t.artifacts.map((a) => `${a.id}:${a.kind}${a.call_id ? `>${a.call_id}` : ''}`)).toEqual([
      'm0:system',
      'm1:user',
      'm2:assistant',
      'm3:tool>swe_m2',
      'm4:assistant',
      'm5:tool>swe_m4',
      'm6:assistant',
    ]);
    expect(t.artifacts[2]?.tool_calls).toEqual([
      { id: 'swe_m2', name: 'bash', arguments: JSON.stringify({ command: 'find_file "text.py" src' }) },
    ]);
    // No `action` field: the command is the last fenced block of the text, as SWE-agent parses it.
    expect(t.artifacts[4]?.tool_calls).toEqual([
      {
        id: 'swe_m4',
        name: 'bash',
        arguments: JSON.stringify({ command: 'python -m pytest -q tests/test_text.py' }),
      },
    ]);
    expect(t.artifacts[3]).toMatchObject({ role: 'user', tool: 'bash' });
    // The last action (submit) has no observation: no call, so nothing is left pending.
    expect(t.artifacts[6]?.tool_calls).toBeUndefined();
    expect(t.pairing).toEqual({
      resultToCall: { m3: 'm2', m5: 'm4' },
      unpairedCalls: [],
      unpairedResults: [],
    });
    expect(t.diagnostics).toEqual([]);
  });

  it('keeps the assistant text as written (thought and fenced command)', () => {
    expect(t.artifacts[2]?.content).toBe(
      'Let\'s find the function first.\n```\nfind_file "text.py" src\n```\n',
    );
  });

  it('takes the issue statement as the task statement and as the latest request', () => {
    expect(taskStatement(t.artifacts).artifacts.map((a) => a.id)).toEqual(['m1']);
    expect(latestUserRequest(t.artifacts)?.id).toBe('m1');
  });
});

describe('SWE-agent thought/action: which messages pair', () => {
  it('leaves the first observation (no action before it) the user’s message', () => {
    const t = history([issue, action('ls'), observation('a.py')]);
    expect(t.artifacts.map((a) => a.kind)).toEqual(['user', 'assistant', 'tool']);
  });

  it('pairs only an observation that directly follows the action', () => {
    const t = history([issue, action('ls'), { role: 'assistant', content: 'thinking' }, observation('a.py')]);
    expect(t.artifacts.map((a) => a.kind)).toEqual(['user', 'assistant', 'assistant', 'user']);
    expect(t.artifacts[1]?.tool_calls).toBeUndefined();
  });

  it('leaves a user message that is not an observation alone', () => {
    const t = history([issue, action('ls'), { role: 'user', content: 'stop and explain' }]);
    expect(t.artifacts.map((a) => a.kind)).toEqual(['user', 'assistant', 'user']);
    expect(t.artifacts[1]?.tool_calls).toBeUndefined();
  });

  it('needs a command: an action message with neither `action` nor a fenced block makes no call', () => {
    const t = history([
      issue,
      { role: 'assistant', message_type: 'action', content: 'no command' },
      observation('x'),
    ]);
    expect(t.artifacts.map((a) => a.kind)).toEqual(['user', 'assistant', 'user']);
  });

  it('leaves function-calling trajectories (real calls, `tool` observations) as they are', () => {
    const t = history([
      issue,
      {
        role: 'assistant',
        message_type: 'action',
        content: 'Run it.',
        action: 'ls',
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'bash', arguments: '{"command":"ls"}' } },
        ],
      },
      { role: 'tool', message_type: 'observation', content: 'a.py', tool_call_ids: ['call_1'] },
    ]);
    expect(t.artifacts[1]?.tool_calls?.map((c) => c.id)).toEqual(['call_1']);
    expect(t.artifacts[2]).toMatchObject({ kind: 'tool', call_id: 'call_1' });
    expect(t.pairing.resultToCall).toEqual({ m2: 'm1' });
  });
});

describe('SWE-agent thought/action: stabilized and emitted', () => {
  let tokenizer: Tokenizer;
  beforeAll(async () => {
    tokenizer = await loadTokenizer('o200k_base');
  });

  it.each(['openai', 'anthropic'] as const)('makes a %s request every check accepts', (target) => {
    const t = load(fixture(FILE), { file: FILE });
    const { policy, rules } = resolvePolicy({ budget: 20000, target });
    const result = stabilizeTranscript(t, { policy, tokenizer, rules });
    const checks = validateResult(t, result, { policy, tokenizer, rules });
    expect(failingChecks(checks).map((c) => c.name)).toEqual([]);
    const body = emitContext(result.context, target);
    const issues =
      target === 'openai'
        ? verifyOpenAI((body as { messages: OpenAIMessage[] }).messages)
        : verifyAnthropic(body as AnthropicRequest);
    expect(issues).toEqual([]);
    if (target === 'openai') {
      const roles = (body as { messages: OpenAIMessage[] }).messages.map((m) => m.role);
      expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'assistant']);
    } else {
      const request = body as AnthropicRequest;
      const blocks = request.messages.flatMap((m) => m.content.map((b) => `${m.role}:${b.type}`));
      expect(blocks.filter((b) => b.endsWith('tool_use') || b.endsWith('tool_result'))).toEqual([
        'assistant:tool_use',
        'user:tool_result',
        'assistant:tool_use',
        'user:tool_result',
      ]);
    }
  });
});
