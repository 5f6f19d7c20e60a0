// Internal contracts between the container parser, the format detector and the readers.
import type { JsonPos } from '../json/parse.js';
import type { Artifact, Diagnostic } from '../types.js';

/** One parsed JSON value and the line:column of every object and array in it. */
export interface ParsedValue {
  value: unknown;
  positions: Map<object, JsonPos>;
}

/** A JSONL record that parsed; lines that did not are already diagnostics of the container. */
export interface ParsedLine extends ParsedValue {
  line: number;
}

export type Container =
  | { kind: 'json'; doc: ParsedValue; /** The whole value sits on one line. */ oneLine: boolean }
  | { kind: 'jsonl'; lines: ParsedLine[]; diagnostics: Diagnostic[] };

/** What every reader returns; readTranscript adds pairing and decides whether it loaded. */
export interface ReaderOutput {
  artifacts: Artifact[];
  meta: Record<string, unknown>;
  diagnostics: Diagnostic[];
}
