// A file of many sessions is parsed once for all of them (issue 31): reading each session must not
// split or parse the whole text again, which made a file of n sessions cost n² (aider did).
import { describe, expect, it, vi } from 'vitest';
import { readSessions } from '../../../src/core/readers/index.js';
import { aiderHistory } from './aider-history.js';
import type * as AiderLines from '../../../src/core/readers/aider-lines.js';
import type * as JsonParse from '../../../src/core/json/parse.js';

const calls = vi.hoisted(() => ({ splitLines: 0, parseJson: 0 }));

vi.mock('../../../src/core/readers/aider-lines.js', async (importOriginal) => {
  const actual = await importOriginal<typeof AiderLines>();
  return {
    ...actual,
    splitLines: (text: string) => {
      calls.splitLines++;
      return actual.splitLines(text);
    },
  };
});
vi.mock('../../../src/core/json/parse.js', async (importOriginal) => {
  const actual = await importOriginal<typeof JsonParse>();
  return {
    ...actual,
    parseJson: (...args: Parameters<typeof actual.parseJson>) => {
      calls.parseJson++;
      return actual.parseJson(...args);
    },
  };
});

describe('a multi-session file is parsed once', () => {
  it('aider: the text is split into lines once for detection and once for all sessions', () => {
    calls.splitLines = 0;
    const read = readSessions(aiderHistory(200, new Set([5])), { file: 'h.md' });
    expect(read.sessions).toHaveLength(199);
    expect(calls.splitLines).toBeLessThanOrEqual(2);
  });

  it('OpenHands output: each line is parsed once, however many rows are read', () => {
    const row = (i: number): string =>
      JSON.stringify({
        instance_id: `r-${i}`,
        history: [
          { id: 0, source: 'user', action: 'message', args: { content: `task ${i}` } },
          { id: 1, source: 'agent', action: 'message', args: { content: 'done' } },
        ],
      });
    const text = `${Array.from({ length: 300 }, (_, i) => row(i)).join('\n')}\n`;
    calls.parseJson = 0;
    const read = readSessions(text, { file: 'output.jsonl' });
    expect(read.sessions).toHaveLength(300);
    expect(read.sessions.every((s) => s.result.ok)).toBe(true);
    // The whole text once (not one value), the first line to decide JSONL, then every line.
    expect(calls.parseJson).toBeLessThanOrEqual(300 + 2);
  });
});
