// Reads one transcript file from disk and parses it: the edge half of `readTranscript`.
import type { Diagnostic, Transcript } from '../core/types.js';
import { readTranscript } from '../core/readers/index.js';
import type { FormatOption } from '../core/readers/index.js';
import { readInput } from './read-input.js';

export interface LoadTranscriptOptions {
  /** Reader override; `auto` (the default) detects the format from the content. */
  format?: FormatOption;
  /** Size cap checked before reading (readInput's default applies when absent). */
  maxFileBytes?: number;
  /** Record cap (readTranscript's default, 50,000, applies when absent). */
  maxRecords?: number;
  /** Base for relative paths and the symlink-escape check; defaults to the process cwd. */
  cwd?: string;
}

export type LoadTranscriptResult =
  { ok: true; transcript: Transcript } | { ok: false; diagnostics: Diagnostic[] };

/**
 * `ok: true` may still carry error diagnostics in `transcript.diagnostics` (skipped JSONL
 * records): callers decide whether those fail the run. Diagnostics name `file` as given.
 */
export async function loadTranscript(
  file: string,
  opts: LoadTranscriptOptions = {},
): Promise<LoadTranscriptResult> {
  const input = await readInput(file, {
    ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
  });
  if (!input.ok) return { ok: false, diagnostics: [input.error] };
  return readTranscript(input.text, {
    file,
    ...(opts.format !== undefined ? { format: opts.format } : {}),
    ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
  });
}
