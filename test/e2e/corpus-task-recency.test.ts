// The task statement and the latest user request of every supported corpus recording (issue 31),
// checked by hand against the files: what the `task` and `recency` checks (and the stabilizer's
// protection) hold the context to. A reader that starts taking a tool output, a command stub or a
// client-written record for what the user asked fails here. In-process; skipped without the corpus.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/core/diagnostics.js';
import { readTranscript } from '../../src/core/readers/index.js';
import { latestUserRequest, taskStatement } from '../../src/core/scope/task.js';
import type { Transcript } from '../../src/core/types.js';
import { CORPUS, HAS_CORPUS, corpusFiles, warnIfNoCorpus } from '../support/corpus.js';

warnIfNoCorpus('e2e corpus task and recency');

/** Recordings checked elsewhere: the OpenHands resolver output holds several runs (its own tests). */
const ELSEWHERE = new Set(['openhands/resolver_mock_output.jsonl']);

/** `task`: ids of the task statement; `latest`: id of the latest user request. */
const EXPECTED: Record<string, { task: string[]; latest: string }> = {
  // `#### ` inputs at lines 16, 45, 73 and 114.
  'aider/examples_hello-world-flask.md': { task: ['L16'], latest: 'L114' },
  // One user text message; the other user messages hold only tool_result blocks.
  'anthropic-messages/test_anthropic_mixed_strict_tool_run.messages.json': { task: ['m0'], latest: 'm0' },
  'anthropic-messages/test_multiple_parallel_tool_calls.messages.json': { task: ['m0'], latest: 'm0' },
  // Lines 1-8 are before the compaction boundary (line 9); the compaction summary (line 10, which
  // carries the compacted task) opens the chain, line 11 is the last thing the user typed.
  'claude-code/claude-code-log/dag_compact_after_rewind.jsonl': { task: ['cs'], latest: 'p1u' },
  // Lines 6-8 are the caveat, a command stub and its local output (meta); line 18 is empty.
  'claude-code/claude-code-log/edge_cases.jsonl': { task: ['edge_001'], latest: 'edge_011' },
  'claude-code/claude-code-log/representative_messages.jsonl': { task: ['msg_001'], latest: 'msg_011' },
  'claude-code/claude-code-log/session_b.jsonl': { task: ['session_b_001'], latest: 'session_b_003' },
  // user_005 (line 11) holds only a tool_result.
  'claude-code/claude-code-log/todowrite_examples.jsonl': { task: ['user_001'], latest: 'user_004' },
  // Line 1 is the /init stub; line 2 the prompt Claude Code wrote for it (isMeta), the only request.
  'claude-code/claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl': {
    task: ['d78d1de2-52bd-4e64-ad0f-affcbcc1dabf'],
    latest: 'd78d1de2-52bd-4e64-ad0f-affcbcc1dabf',
  },
  // Line 1 is the /orchestrator stub with arguments; line 2 its prompt, ending `ARGUMENTS: …`. The
  // user records of lines 16 and 26 are sub-agent prompts (side chain).
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': {
    task: ['e3b9327b-507e-4eca-b3cd-6a1fdabfc1fc'],
    latest: 'e3b9327b-507e-4eca-b3cd-6a1fdabfc1fc',
  },
  // Loglines 0, 11, 18, 22 and 29 are typed; 28 is a compaction summary (no boundary: file order).
  'claude-code/claude-code-transcripts/sample_session.json': { task: ['m0'], latest: 'm29' },
  // The one user message item (line 4); line 3 is the UI event repeating it.
  'codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl': {
    task: ['L4'],
    latest: 'L4',
  },
  // The one user `message` action (event 4, resp. 0).
  'openhands/trajs_basic_gui_mode.json': { task: ['m4'], latest: 'm4' },
  'openhands/trajs_wrong_initial_state.json': { task: ['m0'], latest: 'm0' },
  // tau-bench: the simulated user's first and last turns (m0 is the system prompt).
  'openai-chat/tau-bench/gpt-4o-airline_idx000_task0_trial0.json': { task: ['m1'], latest: 'm31' },
  'openai-chat/tau-bench/gpt-4o-airline_idx003_task3_trial0.json': { task: ['m1'], latest: 'm61' },
  'openai-chat/tau-bench/gpt-4o-airline_idx029_task29_trial0.json': { task: ['m1'], latest: 'm15' },
  'openai-chat/tau-bench/gpt-4o-airline_idx052_task2_trial1.json': { task: ['m1'], latest: 'm9' },
  'openai-chat/tau-bench/gpt-4o-airline_idx087_task37_trial1.json': { task: ['m1'], latest: 'm9' },
  'openai-chat/tau-bench/gpt-4o-airline_idx145_task45_trial2.json': { task: ['m1'], latest: 'm11' },
  // SWE-agent: the issue statement (history[1]) is the only user message; every later observation
  // is a tool output (thought/action: of the action before it; function calling: `role: tool`).
  'swe-agent/function_calling_simple.traj': { task: ['m1'], latest: 'm1' },
  'swe-agent/marshmallow-1867__default_thought_action.traj': { task: ['m1'], latest: 'm1' },
  'swe-agent/marshmallow-1867__function_calling.traj': { task: ['m1'], latest: 'm1' },
};

function read(rel: string): Transcript {
  const text = new TextDecoder().decode(readFileSync(path.join(CORPUS, rel)));
  const result = readTranscript(text, { file: rel });
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.transcript;
}

describe.skipIf(!HAS_CORPUS)('task statement and latest request of every corpus recording', () => {
  const files = corpusFiles().supported.filter((rel) => !ELSEWHERE.has(rel));

  it('has an expectation for every supported recording', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('%s', (rel) => {
    const t = read(rel);
    const statement = taskStatement(t.artifacts);
    expect({
      task: statement.artifacts.map((a) => a.id),
      latest: latestUserRequest(t.artifacts)?.id,
    }).toEqual(EXPECTED[rel]);
    expect(statement.rule).toBe('first-user-message');
  });
});
