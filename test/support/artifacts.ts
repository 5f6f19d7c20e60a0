// Terse builders for native artifacts and transcripts, for the stabilizer, validate, emit and seed
// tests. `t(...)` gives every artifact a source line (its 1-based position unless set) and pairs
// tool results with calls exactly as the readers do, so tests exercise the same Transcript shape.
import { nameResultsByCall, pairToolResults } from '../../src/core/readers/pairing.js';
import type {
  Artifact,
  ArtifactKind,
  Content,
  SourcePos,
  ToolCall,
  Transcript,
} from '../../src/core/types.js';

/** An artifact before `t()` places it in a file. */
export type Draft = Omit<Artifact, 'source' | 'id' | 'kind' | 'content'> & {
  id: string;
  kind: ArtifactKind;
  content: Content;
  source?: SourcePos;
};

export type Extra = Partial<Omit<Draft, 'id' | 'kind' | 'content'>>;

export const FILE = 'session.jsonl';

export function art(kind: ArtifactKind, id: string, content: Content, extra: Extra = {}): Draft {
  return { id, kind, content, ...extra };
}

export const sys = (id: string, content: Content, extra?: Extra): Draft => art('system', id, content, extra);
export const pol = (id: string, content: Content, extra?: Extra): Draft => art('policy', id, content, extra);
export const task = (id: string, content: Content, extra?: Extra): Draft => art('task', id, content, extra);
export const user = (id: string, content: Content, extra?: Extra): Draft => art('user', id, content, extra);
export const asst = (id: string, content: Content, extra?: Extra): Draft =>
  art('assistant', id, content, extra);
export const retrieval = (id: string, content: Content, extra?: Extra): Draft =>
  art('retrieval', id, content, extra);

/** A `phase` marker: the scope from here on. */
export function phase(id: string, scope: { task?: string; phase?: string }, extra?: Extra): Draft {
  return art('phase', id, '', { scope, ...extra });
}

export function summary(id: string, content: string, provenance: string[], extra?: Extra): Draft {
  return art('summary', id, content, { provenance, ...extra });
}

/** A tool call; object arguments are sent as JSON text, as providers do. */
export function call(id: string, name: string, args: Record<string, unknown> | string = {}): ToolCall {
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args) };
}

export const bash = (id: string, command: string): ToolCall => call(id, 'bash', { command });

/** An assistant message that makes tool calls (text may be empty). */
export function calls(id: string, toolCalls: ToolCall[], text = '', extra?: Extra): Draft {
  return art('assistant', id, text, { tool_calls: toolCalls, ...extra });
}

/** A tool result answering `callId`. */
export function result(id: string, callId: string, content: Content, extra?: Extra): Draft {
  return art('tool', id, content, { call_id: callId, ...extra });
}

/** A transcript of the drafts, each at line = its position unless it names a source. */
export function t(...drafts: Draft[]): Transcript {
  const placed: Artifact[] = drafts.map((d, i) => ({
    ...d,
    source: d.source ?? { file: FILE, line: i + 1, column: 1 },
  }));
  const pairing = pairToolResults(placed);
  return {
    file: FILE,
    format: 'native',
    meta: {},
    artifacts: nameResultsByCall(placed, pairing),
    pairing,
    diagnostics: [],
  };
}

/** `n` distinct words: a text of exactly n tokens under the word tokenizer. */
export function words(n: number, stem = 'w'): string {
  return Array.from({ length: n }, (_, i) => `${stem}${i}`).join(' ');
}
