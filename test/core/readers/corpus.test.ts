// End-to-end over the real recordings in /work/shared/corpus (read-only, third-party data; see its
// README). The expected table was checked by hand against the files (messages and content blocks
// counted with python/jq): a reader that starts losing or inventing artifacts, pairs differently
// or reports different problems fails here.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../../src/core/diagnostics.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import { ARTIFACT_KINDS, type Transcript } from '../../../src/core/types.js';
import {
  CORPUS,
  HAS_CORPUS,
  SUPPORTED,
  awaitingEntry,
  corpusFiles,
  missingListed,
  unclassifiedMessage,
  warnIfNoCorpus,
} from '../../support/corpus.js';

warnIfNoCorpus('readers corpus tests');

/** `format kind=n… | paired unpaired | side chain | diagnostics line:code…` */
function summary(t: Transcript): string {
  const kinds = ARTIFACT_KINDS.map((k) => [k, t.artifacts.filter((a) => a.kind === k).length] as const)
    .filter(([, n]) => n > 0)
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  const p = t.pairing;
  const pairs = `paired=${Object.keys(p.resultToCall).length} calls?=${p.unpairedCalls.length} results?=${p.unpairedResults.length}`;
  const side = t.artifacts.filter((a) => a.sidechain).length;
  const diags = t.diagnostics.map((d) => `${d.line}:${d.code}`).join(' ') || '-';
  return `${t.format} ${kinds} | ${pairs} | sidechain=${side} | ${diags}`;
}

const EXPECTED: Record<string, string> = {
  // A documentation page of aider's: front matter and HTML wrappers are not conversation; `> ` runs
  // are aider's own output (tool artifacts that answer no call).
  'aider/examples_hello-world-flask.md':
    'aider user=4 assistant=4 tool=5 | paired=0 calls?=0 results?=0 | sidechain=0 | -',
  'anthropic-messages/test_anthropic_mixed_strict_tool_run.messages.json':
    'anthropic system=1 user=1 assistant=3 tool=2 | paired=2 calls?=0 results?=0 | sidechain=0 | -',
  'anthropic-messages/test_multiple_parallel_tool_calls.messages.json':
    'anthropic system=1 user=1 assistant=2 tool=4 | paired=4 calls?=0 results?=0 | sidechain=0 | -',
  // Line 9 is a `system` compact_boundary record (no message): skipped with a diagnostic. Lines 3-4
  // (a rewound branch) and 10 (the compact summary, a user record) are read like any other record.
  'claude-code/claude-code-log/dag_compact_after_rewind.jsonl':
    'claude-code user=6 assistant=5 | paired=0 calls?=0 results?=0 | sidechain=0 | 9:skipped-record',
  'claude-code/claude-code-log/edge_cases.jsonl':
    'claude-code user=6 assistant=4 tool=1 summary=1 | paired=1 calls?=2 results?=0 | sidechain=0 | ' +
    '9:unpaired-call 10:malformed-record 11:malformed-record 13:malformed-record 14:malformed-record ' +
    '15:malformed-record 16:malformed-record 17:unpaired-call 18:malformed-record',
  'claude-code/claude-code-log/representative_messages.jsonl':
    'claude-code user=4 assistant=5 tool=2 summary=1 | paired=2 calls?=0 results?=0 | sidechain=0 | -',
  'claude-code/claude-code-log/session_b.jsonl':
    'claude-code user=2 assistant=1 | paired=0 calls?=0 results?=0 | sidechain=0 | -',
  'claude-code/claude-code-log/todowrite_examples.jsonl':
    'claude-code user=2 assistant=6 tool=3 summary=1 | paired=3 calls?=0 results?=0 | sidechain=0 | -',
  'claude-code/claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl':
    'claude-code user=2 assistant=15 tool=12 | paired=12 calls?=0 results?=0 | sidechain=0 | -',
  // A Claude web-session export: each logline read as a Claude Code record.
  'claude-code/claude-code-transcripts/sample_session.json':
    'claude-web user=6 assistant=15 tool=12 | paired=12 calls?=0 results?=0 | sidechain=0 | -',
  // Line 5 (reasoning) and 6 (its call) form one assistant turn; line 14 is an unknown record type.
  'codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl':
    'codex user=1 assistant=4 tool=3 | paired=3 calls?=0 results?=0 | sidechain=0 | 14:skipped-record',
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl':
    'claude-code user=4 assistant=28 tool=21 | paired=21 calls?=0 results?=0 | sidechain=22 | -',
  // UI-state events are left out, one warning per kind: agent_state_changed (line 2),
  // change_agent_state (13), null observations (24).
  // An OpenHands resolver output (issue 31): read here at its last row; flat events, no ids.
  'openhands/resolver_mock_output.jsonl':
    'openhands user=1 assistant=22 tool=21 | paired=21 calls?=0 results?=0 | sidechain=0 | -',
  'openhands/trajs_basic_gui_mode.json':
    'openhands user=1 assistant=5 tool=4 | paired=4 calls?=0 results?=0 | sidechain=0 | 2:skipped-record 13:skipped-record 24:skipped-record',
  'openhands/trajs_wrong_initial_state.json':
    'openhands user=1 assistant=4 tool=3 | paired=3 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx000_task0_trial0.json':
    'openai system=1 user=8 assistant=15 tool=8 | paired=8 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx003_task3_trial0.json':
    'openai system=1 user=11 assistant=30 tool=20 | paired=20 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx029_task29_trial0.json':
    'openai system=1 user=8 assistant=7 | paired=0 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx052_task2_trial1.json':
    'openai system=1 user=4 assistant=30 tool=27 | paired=27 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx087_task37_trial1.json':
    'openai system=1 user=5 assistant=5 tool=1 | paired=1 calls?=0 results?=0 | sidechain=0 | -',
  'openai-chat/tau-bench/gpt-4o-airline_idx145_task45_trial2.json':
    'openai system=1 user=4 assistant=7 tool=4 | paired=4 calls?=0 results?=0 | sidechain=0 | -',
  'swe-agent/function_calling_simple.traj':
    'openai system=1 user=1 assistant=5 tool=5 | paired=5 calls?=0 results?=0 | sidechain=0 | -',
  // Thought/action: each observation after an action is that command's output (a synthetic `bash`
  // call on the action); the first observation, the issue statement, stays the user's message.
  'swe-agent/marshmallow-1867__default_thought_action.traj':
    'openai system=1 user=1 assistant=14 tool=13 | paired=13 calls?=0 results?=0 | sidechain=0 | -',
  'swe-agent/marshmallow-1867__function_calling.traj':
    'openai system=1 user=1 assistant=11 tool=11 | paired=11 calls?=0 results?=0 | sidechain=0 | -',
};

function read(rel: string): Transcript {
  const text = new TextDecoder().decode(readFileSync(path.join(CORPUS, rel)));
  const result = readTranscript(text, { file: rel });
  if (!result.ok) throw new Error(result.diagnostics.map(formatDiagnostic).join('\n'));
  return result.transcript;
}

describe.skipIf(!HAS_CORPUS)('readers over the recorded corpus', () => {
  const { all, supported: files, awaitingReader, unclassified } = corpusFiles();

  it('classifies every recording of the corpus as supported or awaiting a reader', () => {
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
    expect(missingListed(all), 'listed in test/support/corpus.ts but absent from the corpus').toEqual([]);
  });

  it('has an expected summary for every supported transcript', () => {
    expect(files).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(files)('%s', (rel) => {
    const t = read(rel);
    expect(t.format).toBe(SUPPORTED[rel]);
    expect(t.artifacts.length).toBeGreaterThan(0);
    expect(summary(t)).toBe(EXPECTED[rel]);
  });

  // Issue 13 adds these readers; until then the readers refuse them with one diagnostic, no throw.
  it.each(awaitingReader)('%s: refused with a diagnostic, awaiting its reader', (rel) => {
    const entry = awaitingEntry(rel);
    const text = new TextDecoder().decode(readFileSync(path.join(CORPUS, rel)));
    const result = readTranscript(text, { file: rel });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    const { code, line, column } = entry?.diagnostic ?? {};
    expect(result.diagnostics.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity}[${d.code}]`)).toEqual(
      [`${rel}:${line}:${column} error[${code}]`],
    );
    const printed = result.diagnostics.map(formatDiagnostic).join('\n');
    for (const canary of entry?.canaries ?? []) expect(printed).not.toContain(canary);
  });

  it('pairs tau-bench results with the nearest earlier pending call when ids are reused', () => {
    const t = read('openai-chat/tau-bench/gpt-4o-airline_idx000_task0_trial0.json');
    // m6/m16 share one call id, m8/m12 another: each result answers the call just before it.
    expect(t.pairing.resultToCall).toMatchObject({
      m7: 'm6',
      m9: 'm8',
      m13: 'm12',
      m17: 'm16',
    });
    expect(t.artifacts.find((a) => a.id === 'm17')?.tool).toBe('calculate');
  });

  it('loads edge_cases.jsonl with each malformed line reported as a warning at its line', () => {
    const t = read('claude-code/claude-code-log/edge_cases.jsonl');
    const malformed = t.diagnostics.filter((d) => d.code === 'malformed-record');
    expect(malformed.map((d) => `${d.file}:${d.line}:${d.column} ${d.severity}`)).toEqual(
      [10, 11, 13, 14, 15, 16, 18].map(
        (line) => `claude-code/claude-code-log/edge_cases.jsonl:${line}:1 warning`,
      ),
    );
    // Line 12 reuses the uuid of the malformed line 11, which never became an artifact.
    expect(t.artifacts.map((a) => a.id)).toContain('edge_011');
    expect(t.artifacts.find((a) => a.kind === 'summary')?.id).toBe('L19');
  });

  it('positions artifacts at their JSON objects and tool results at their blocks', () => {
    const tau = read('openai-chat/tau-bench/gpt-4o-airline_idx087_task37_trial1.json');
    const anthropic = read('anthropic-messages/test_multiple_parallel_tool_calls.messages.json');
    const at = (t: Transcript, id: string): string => {
      const s = t.artifacts.find((a) => a.id === id)?.source;
      return s ? `${s.line}:${s.column}` : 'missing';
    };
    // Checked with grep -n: the first `traj` message opens on line 37; the Anthropic messages on
    // lines 23 and 73, the first tool_result block of the latter on line 75.
    expect(at(tau, 'm0')).toBe('37:3');
    expect(at(anthropic, 'system')).toBe('1:1');
    expect(at(anthropic, 'm0')).toBe('23:3');
    expect(at(anthropic, 'm2.0')).toBe('75:5');
    expect(at(anthropic, 'm2.3')).toBe('93:5');
  });
});
