// Reads one transcript file from disk and parses it: the edge half of `readTranscript`. An aider
// chat history may hold several sessions (one per `# aider chat started at` heading), an OpenHands
// evaluation output several runs (one per line): each is a transcript of its own, named `FILE#N`;
// a file with one session keeps its plain name. The text is parsed once for all its sessions
// (readSessions); empty sessions are skipped with one note.
import { sessionName } from '../core/text/session-name.js';
import type { Diagnostic, Transcript } from '../core/types.js';
import { readSessions } from '../core/readers/index.js';
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
  /**
   * One session of a multi-session file (aider, OpenHands output rows): 1-based or 'last' (the
   * last that holds a message). loadTranscript defaults to 'last'; loadTranscripts reads every
   * session unless this names one.
   */
  session?: number | 'last';
  /**
   * Runs the parse, the synchronous part that grows with the content: a golden run passes its
   * watchdog's deadline (src/cli/check/watchdog.ts) so that a stuck reader is stopped.
   */
  within?: <T>(parse: () => T) => T;
}

export type LoadTranscriptResult =
  { ok: true; transcript: Transcript } | { ok: false; diagnostics: Diagnostic[] };

/** One session's result and the name it is reported under (`FILE#N`, or FILE for a single session). */
export interface LoadedSession {
  name: string;
  result: LoadTranscriptResult;
}

/** The transcript name of session `n` of `count` in `file`. */
export { sessionName };

/**
 * Every session of the file, in order (only `opts.session` when it is set), empty sessions left
 * out (one `empty-sessions` warning on the first one kept). An unreadable file, a session that
 * does not exist, or a file whose every session is empty, is one failed entry named as the file.
 */
export async function loadTranscripts(
  file: string,
  opts: LoadTranscriptOptions = {},
): Promise<LoadedSession[]> {
  const input = await readInput(file, {
    ...(opts.maxFileBytes !== undefined ? { maxFileBytes: opts.maxFileBytes } : {}),
    ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
  });
  if (!input.ok) return [{ name: file, result: { ok: false, diagnostics: [input.error] } }];
  const parse = (): LoadedSession[] =>
    readSessions(input.text, {
      file,
      format: opts.format ?? 'auto',
      ...(opts.session !== undefined ? { session: opts.session } : {}),
      ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
    }).sessions;
  return opts.within ? opts.within(parse) : parse();
}

/**
 * One transcript: the session `opts.session` names, else the last one that holds a message (named
 * `FILE#N` when the file holds several). `ok: true` may still carry error diagnostics in
 * `transcript.diagnostics` (skipped JSONL records): callers decide whether those fail the run.
 * Diagnostics name the file (or the session) as given.
 */
export async function loadTranscript(
  file: string,
  opts: LoadTranscriptOptions = {},
): Promise<LoadTranscriptResult> {
  const loaded = await loadTranscripts(file, { ...opts, session: opts.session ?? 'last' });
  return (loaded[0] as LoadedSession).result;
}
