// Issue 31: the tags an OpenHands history gives: `result` on the agent's `finish` (the run's result
// as the agent states it), `decision` on a `user_rejected` observation (the user refused the action
// in confirmation mode), which is also an error.
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../../src/core/readers/index.js';

const events = [
  { id: 1, source: 'user', action: 'message', args: { content: 'Delete the temp folder.' } },
  { id: 2, source: 'agent', action: 'run', args: { command: 'rm -rf /tmp/x', thought: 'Removing it.' } },
  {
    id: 3,
    source: 'user',
    observation: 'user_rejected',
    content: 'Action has been rejected by the user.',
    extras: {},
    cause: 2,
  },
  {
    id: 4,
    source: 'agent',
    action: 'finish',
    args: { final_thought: 'The user declined; nothing was deleted.' },
  },
];

describe('openhands tags', () => {
  it('tags finish `result` and a user rejection `decision`', () => {
    const read = readTranscript(JSON.stringify(events), { file: 'trajectory.json' });
    if (!read.ok) throw new Error('did not load');
    const tags = read.transcript.artifacts.map((a) => [a.kind, a.tags ?? []]);
    expect(tags).toEqual([
      ['user', []],
      ['assistant', []],
      ['tool', ['decision']],
      ['assistant', ['result']],
    ]);
    expect(read.transcript.artifacts[2]?.is_error).toBe(true);
  });
});
