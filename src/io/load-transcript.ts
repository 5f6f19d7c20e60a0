// Reads one transcript file from disk and parses it: the edge half of `readTranscript`. An aider
// chat history may hold several sessions (one per `# aider chat started at` heading): each is a
// transcript of its own, named `FILE#N`; a file with one session keeps its plain name.
import { sessionName } from '../core/text/session-name.js';
import { aiderSessionCount, isAiderText, sessionOutOfRange } from '../core/readers/aider.js';
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
  /**
   * One session of a multi-session file (aider): 1-based or 'last'. loadTranscript defaults to
   * the last; loadTranscripts reads every session unless this names one.
   */
  session?: number | 'last';
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
 * Every session of the file, in order (only `opts.session` when it is set). An unreadable file,
 * or a session that does not exist, is one failed entry named as the file.
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
  const text = input.text;
  const format = opts.format ?? 'auto';
  // The reader's own choice (index.ts): the aider reader goes first, before any JSON parsing.
  const aider = format === 'aider' || (format === 'auto' && isAiderText(text));
  const count = aider ? aiderSessionCount(text) : 1;
  const asked = opts.session === 'last' ? count : opts.session;
  if (asked !== undefined && (!Number.isInteger(asked) || asked < 1 || asked > count)) {
    const diagnostics = [sessionOutOfRange(file, opts.session ?? asked, count)];
    return [{ name: file, result: { ok: false, diagnostics } }];
  }
  const sessions = asked === undefined ? Array.from({ length: count }, (_, i) => i + 1) : [asked];
  return sessions.map((n) => {
    const name = sessionName(file, n, count);
    const result = readTranscript(text, {
      file: name,
      format,
      ...(aider ? { session: n } : {}),
      ...(opts.maxRecords !== undefined ? { maxRecords: opts.maxRecords } : {}),
    });
    return { name, result };
  });
}

/**
 * One transcript: the session `opts.session` names, else the last one (named `FILE#N` when the
 * file holds several). `ok: true` may still carry error diagnostics in `transcript.diagnostics`
 * (skipped JSONL records): callers decide whether those fail the run. Diagnostics name the file
 * (or the session) as given.
 */
export async function loadTranscript(
  file: string,
  opts: LoadTranscriptOptions = {},
): Promise<LoadTranscriptResult> {
  const loaded = await loadTranscripts(file, { ...opts, session: opts.session ?? 'last' });
  return (loaded[0] as LoadedSession).result;
}
