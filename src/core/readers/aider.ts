// aider chat history reader (`.aider.chat.history.md`, and aider's documentation pages that show
// one). The file is Markdown that aider appends to (io.py): see aider-lines.ts for the markers.
// Each run of `#### ` lines is one user input, each run of `> ` lines one block of aider's own
// output, and each run of other lines (blank lines inside included) one assistant reply:
// - a user input becomes a `user` artifact; one that is an aider command not addressed to the model
//   (`/add`, `/run`, `/undo`… or `!cmd`) becomes a `tool` artifact of tool `aider`, role `user`:
//   it is not a request to the model, so it must not become the task statement; `<blank>` (what
//   aider writes for an empty input) is left out;
// - aider's output becomes a `tool` artifact of tool `aider` with no call_id: the log records no
//   tool calls, so it answers none (emitted to the chat APIs as user text);
// - a reply becomes an `assistant` artifact, its lines exactly as written.
// A file holds one session per `# aider chat started at` heading (one when it has none); the
// reader returns the one asked for, with the lines and columns of the whole file. Front matter,
// the `chat-transcript` div wrappers and, in a file without a heading (a documentation page), the
// title and introduction before the first chat line are not conversation and are left out.
import { diagnostic } from '../diagnostics.js';
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import {
  classify,
  frontMatterLength,
  looksLikeAider,
  sessionStarts,
  splitLines,
  startedAt,
  type AiderLine,
} from './aider-lines.js';
import { makeArtifact } from './artifact-builder.js';
import type { ReaderOutput } from './reader-types.js';

export interface AiderOutput extends ReaderOutput {
  /** Sessions in the file (`# aider chat started at` headings; 1 when there is none). */
  sessions: number;
}

/** In-chat commands whose text is sent to the model; every other `/command` talks to aider only. */
const MODEL_COMMANDS = new Set(['ask', 'code', 'architect', 'context', 'help', 'ok']);
/** aider writes this for an input that was empty (nothing is sent). */
const BLANK_INPUT = '<blank>';

/** Not JSON, and an aider session heading or user line outside code fences (see looksLikeAider). */
export function isAiderText(text: string): boolean {
  const start = text.trimStart();
  if (start === '' || start.startsWith('{') || start.startsWith('[')) return false;
  return looksLikeAider(splitLines(text));
}

/** How many sessions the text holds when read as an aider chat history (1 without a heading). */
export function aiderSessionCount(text: string): number {
  return Math.max(1, sessionStarts(splitLines(text)).length);
}

/** The session asked for does not exist (any format: a file that is no aider history holds one). */
export function sessionOutOfRange(file: string, asked: number | 'last', count: number): Diagnostic {
  return diagnostic(
    'error',
    'session-out-of-range',
    { file, line: 1, column: 1 },
    `The file holds ${count} session${count === 1 ? '' : 's'}; session ${String(asked)} was asked for.`,
    count === 1
      ? 'Leave out the session choice (or choose 1 or last): only aider chat histories hold several sessions.'
      : `Choose a session from 1 to ${count}, or last.`,
  );
}

function isCommand(text: string): boolean {
  const start = text.trimStart();
  if (start.startsWith('!')) return true;
  const name = /^\/([a-z][\w-]*)/i.exec(start)?.[1];
  return name !== undefined && !MODEL_COMMANDS.has(name.toLowerCase());
}

function artifact(
  kind: Artifact['kind'],
  content: string,
  source: SourcePos,
  extra: Partial<Artifact> = {},
): Artifact {
  return makeArtifact({ id: `L${source.line}`, kind, content, source, ...extra });
}

/** Where the run's text starts: its first non-blank character. */
function firstChar(run: readonly AiderLine[], file: string): SourcePos | null {
  for (const l of run) {
    const offset = l.text.search(/\S/);
    if (offset !== -1) return { file, line: l.line, column: l.column + offset };
  }
  return null;
}

class Builder {
  readonly artifacts: Artifact[] = [];
  private run: AiderLine[] = [];

  constructor(
    private readonly file: string,
    private readonly diagnostics: Diagnostic[],
  ) {}

  add(l: AiderLine): void {
    const current = this.run[0]?.kind;
    if (l.kind === 'blank') {
      // Blank lines separate blocks; inside a reply they are paragraph breaks.
      if (current === 'text') this.run.push(l);
      else this.flush();
      return;
    }
    if (l.kind === 'wrapper' || current !== l.kind) this.flush();
    if (l.kind !== 'wrapper') this.run.push(l);
  }

  flush(): void {
    const run = this.run;
    this.run = [];
    while (run.length > 0 && run[run.length - 1]?.kind === 'blank') run.pop();
    const kind = run[0]?.kind;
    if (kind === undefined) return;
    const content = run.map((l) => l.text).join('\n');
    const at = firstChar(run, this.file);
    if (kind === 'user') {
      if (at === null) {
        const first = run[0] as AiderLine;
        this.diagnostics.push(
          diagnostic(
            'warning',
            'aider-empty-input',
            { file: this.file, line: first.line, column: 1 },
            'This user input holds only empty `####` lines; it is left out.',
            'aider writes `<blank>` for an empty input: remove these lines or put the text back.',
          ),
        );
        return;
      }
      if (content.trim() === BLANK_INPUT) return;
      this.artifacts.push(
        isCommand(content)
          ? artifact('tool', content, at, { role: 'user', tool: 'aider' })
          : artifact('user', content, at),
      );
      return;
    }
    if (at === null) return;
    this.artifacts.push(
      kind === 'quote'
        ? artifact('tool', content, at, { tool: 'aider' })
        : artifact('assistant', content, at),
    );
  }
}

function outsideSession(file: string, raw: readonly string[], from: number, to: number): Diagnostic | null {
  const lines = raw.slice(from, to).filter((t) => t.trim() !== '').length;
  if (lines === 0) return null;
  const first = raw.findIndex((t, i) => i >= from && t.trim() !== '');
  return diagnostic(
    'warning',
    'aider-outside-session',
    { file, line: first + 1, column: 1 },
    `${lines} line${lines === 1 ? '' : 's'} before the first \`# aider chat started at\` heading ${lines === 1 ? 'belongs' : 'belong'} to no session and ${lines === 1 ? 'is' : 'are'} left out.`,
    'aider writes nothing before a session heading: remove these lines, or put a heading above them.',
  );
}

/** An aider chat history split once: its lines and where each session starts. */
export interface AiderFile {
  raw: string[];
  /** Line index of each `# aider chat started at` heading. */
  starts: number[];
  /** Sessions in the file (1 when there is no heading). */
  count: number;
}

export function parseAiderFile(text: string): AiderFile {
  const raw = splitLines(text);
  const starts = sessionStarts(raw);
  return { raw, starts, count: Math.max(1, starts.length) };
}

/**
 * Session `index` (1-based, in range) of a file split by parseAiderFile: only that session's
 * lines are classified, so reading every session of a file is linear in its size. `file` names
 * the transcript (`FILE#N`) in sources and diagnostics; lines are the whole file's.
 */
export function readAiderSession(parsed: AiderFile, file: string, index: number): AiderOutput {
  const { raw, starts, count } = parsed;
  const diagnostics: Diagnostic[] = [];
  const frontMatter = frontMatterLength(raw);
  const heading = starts[index - 1];
  const from = heading === undefined ? frontMatter : heading + 1;
  const to = starts[index] ?? raw.length;
  if (heading !== undefined && index === 1) {
    const outside = outsideSession(file, raw, frontMatter, heading);
    if (outside) diagnostics.push(outside);
  }

  const { lines, unclosedFences } = classify(raw, from, to);
  for (const line of unclosedFences) {
    const column = (raw[line - 1] ?? '').search(/\S/) + 1;
    diagnostics.push(
      diagnostic(
        'warning',
        'aider-unclosed-fence',
        { file, line, column },
        'A code fence opens here and is not closed before the session ends; its lines are read as if it were not there.',
        'Close the fence with a line of the same backticks or tildes (an interrupted reply often leaves one open).',
      ),
    );
  }
  // A documentation page (no heading): its title and introduction precede the first chat line.
  const start =
    heading === undefined
      ? Math.max(
          0,
          lines.findIndex((l) => l.kind !== 'text' && l.kind !== 'blank'),
        )
      : 0;
  const builder = new Builder(file, diagnostics);
  for (const l of lines.slice(start)) builder.add(l);
  builder.flush();

  const meta: Record<string, unknown> = {};
  const started = heading === undefined ? undefined : startedAt(raw[heading] as string);
  if (started !== undefined) meta['started_at'] = started;
  if (count > 1) {
    meta['session'] = index;
    meta['sessions'] = count;
  }
  return { sessions: count, artifacts: builder.artifacts, meta, diagnostics };
}

/** One session of an aider chat history (`last` by default); out of range is an error. */
export function readAider(text: string, file: string, session: number | 'last'): AiderOutput {
  const parsed = parseAiderFile(text);
  const index = session === 'last' ? parsed.count : session;
  if (!Number.isInteger(index) || index < 1 || index > parsed.count) {
    return {
      sessions: parsed.count,
      artifacts: [],
      meta: {},
      diagnostics: [sessionOutOfRange(file, session, parsed.count)],
    };
  }
  return readAiderSession(parsed, file, index);
}
