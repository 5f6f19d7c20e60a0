// The recorded corpus in ../shared/corpus (read-only third-party data, see its README and
// SOURCES.json; it may be absent), split by explicit lists into the files a reader accepts
// (`supported`) and the recordings whose format has no reader yet (`awaitingReader`, issue 13).
// New recordings will appear: a file in neither list fails `unclassifiedMessage` so that the
// maintainer decides where it belongs instead of a test silently running it or skipping it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptFormat } from '../../src/core/types.js';

export const REPO = path.resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const CORPUS = path.resolve(REPO, '../shared/corpus');
export const HAS_CORPUS = existsSync(CORPUS);

/** Warn visibly that a suite skips its corpus tests (vitest shows the skip, this says why). */
export function warnIfNoCorpus(suite: string): void {
  if (!HAS_CORPUS) console.warn(`${suite}: ${CORPUS} is absent: the corpus tests are skipped.`);
}

/** Corpus files that are not recordings: documentation and licence texts. */
const NOT_RECORDINGS = /^(README\.md|SOURCES\.json)$|^licenses\//;

/** Recordings a reader accepts, by exact path: the format each one is read as. */
export const SUPPORTED: Readonly<Record<string, TranscriptFormat>> = {
  'aider/examples_hello-world-flask.md': 'aider',
  'anthropic-messages/test_anthropic_mixed_strict_tool_run.messages.json': 'anthropic',
  'anthropic-messages/test_multiple_parallel_tool_calls.messages.json': 'anthropic',
  'claude-code/claude-code-log/dag_compact_after_rewind.jsonl': 'claude-code',
  'claude-code/claude-code-log/edge_cases.jsonl': 'claude-code',
  'claude-code/claude-code-log/representative_messages.jsonl': 'claude-code',
  'claude-code/claude-code-log/session_b.jsonl': 'claude-code',
  'claude-code/claude-code-log/todowrite_examples.jsonl': 'claude-code',
  'claude-code/claude-code-viewer/1af7fc5e-8455-4414-9ccd-011d40f70b2a.jsonl': 'claude-code',
  'claude-code/claude-code-viewer/5c0375b4-57a5-4f26-b12d-d022ee4e51b7.jsonl': 'claude-code',
  'claude-code/claude-code-transcripts/sample_session.json': 'claude-web',
  'codex/rollout-2026-01-02T03-04-05-11111111-1111-4111-8111-111111111111.jsonl': 'codex',
  'openhands/resolver_mock_output.jsonl': 'openhands',
  'openhands/trajs_basic_gui_mode.json': 'openhands',
  'openhands/trajs_wrong_initial_state.json': 'openhands',
  'openai-chat/tau-bench/gpt-4o-airline_idx000_task0_trial0.json': 'openai',
  'openai-chat/tau-bench/gpt-4o-airline_idx003_task3_trial0.json': 'openai',
  'openai-chat/tau-bench/gpt-4o-airline_idx029_task29_trial0.json': 'openai',
  'openai-chat/tau-bench/gpt-4o-airline_idx052_task2_trial1.json': 'openai',
  'openai-chat/tau-bench/gpt-4o-airline_idx087_task37_trial1.json': 'openai',
  'openai-chat/tau-bench/gpt-4o-airline_idx145_task45_trial2.json': 'openai',
  'swe-agent/function_calling_simple.traj': 'openai',
  'swe-agent/marshmallow-1867__default_thought_action.traj': 'openai',
  'swe-agent/marshmallow-1867__function_calling.traj': 'openai',
};

export interface AwaitingReader {
  /** A folder (ending in `/`) or an exact path. */
  match: string;
  format: string;
  /**
   * The diagnostic every command prints for these files today, at `file:line:column`. A format with
   * no reader should be `unknown-format` at 1:1; see `diagnostic` of the aider entry.
   */
  diagnostic: { code: string; line: number; column: number };
  /** Distinctive texts of the recordings that no output may quote. */
  canaries: string[];
}

/** Formats a later issue will read; until then every command must refuse them cleanly (exit 2). */
export const AWAITING_READER: readonly AwaitingReader[] = [];

/**
 * Supported recordings that hold several transcripts (aider sessions, OpenHands output rows): how
 * many. Each is reported as `FILE#N`; a file not listed here is one transcript named as the file.
 */
export const SESSIONS: Readonly<Record<string, number>> = {
  // An OpenHands resolver output: one run per line (issue 31), events without ids or sources.
  'openhands/resolver_mock_output.jsonl': 2,
};

/** The transcript names a supported recording is reported under: `FILE#1`… or FILE itself. */
export function transcriptNames(rel: string): string[] {
  const count = SESSIONS[rel] ?? 1;
  return count === 1 ? [rel] : Array.from({ length: count }, (_, i) => `${rel}#${i + 1}`);
}

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

/** The awaiting-reader entry of a corpus path, if any. */
export function awaitingEntry(rel: string): AwaitingReader | undefined {
  return AWAITING_READER.find((a) => (a.match.endsWith('/') ? rel.startsWith(a.match) : rel === a.match));
}

export interface CorpusFiles {
  /** Every recording, sorted, relative to CORPUS with `/` separators. */
  all: string[];
  supported: string[];
  awaitingReader: string[];
  /** Recordings in neither list: a maintainer must classify them. */
  unclassified: string[];
}

/** The corpus recordings, classified; all lists are empty when the corpus is absent. */
export function corpusFiles(): CorpusFiles {
  const all = HAS_CORPUS
    ? walk(CORPUS)
        .map((f) => path.relative(CORPUS, f).split(path.sep).join('/'))
        .filter((rel) => !NOT_RECORDINGS.test(rel))
        .sort()
    : [];
  const supported = all.filter((rel) => rel in SUPPORTED);
  const awaitingReader = all.filter((rel) => !(rel in SUPPORTED) && awaitingEntry(rel) !== undefined);
  const unclassified = all.filter((rel) => !(rel in SUPPORTED) && awaitingEntry(rel) === undefined);
  return { all, supported, awaitingReader, unclassified };
}

/** The failure message for recordings nobody classified yet ('' when there are none). */
export function unclassifiedMessage(unclassified: readonly string[]): string {
  if (unclassified.length === 0) return '';
  return (
    `${unclassified.length} corpus recording(s) are neither supported nor awaiting a reader: ` +
    `${unclassified.join(', ')}. Classify each one in test/support/corpus.ts: add it to SUPPORTED ` +
    `when a reader accepts it (and to the expectation tables of the corpus tests), or to ` +
    `AWAITING_READER with its diagnostic and a few canary texts when its format has no reader yet.`
  );
}

/** Listed files the corpus no longer holds (a renamed or removed recording). */
export function missingListed(all: readonly string[]): string[] {
  const present = new Set(all);
  const missing = Object.keys(SUPPORTED).filter((rel) => !present.has(rel));
  for (const a of AWAITING_READER) {
    const found = a.match.endsWith('/') ? all.some((rel) => rel.startsWith(a.match)) : present.has(a.match);
    if (!found) missing.push(a.match);
  }
  return missing;
}
