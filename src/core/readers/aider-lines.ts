// The line model of an aider chat history (`.aider.chat.history.md`), as aider's io.py appends it:
// `# aider chat started at …` opens a session, `#### ` lines are what the user typed (one line per
// input line), `> ` lines are aider's own output (messages, command output, confirmations), and
// everything else is the model's reply, which is Markdown and may hold fenced code whose lines
// start with `#` or `>`: inside a fence nothing is a marker. Aider ends its user and blockquote
// lines with two spaces (a Markdown line break); they are not part of the text.

export type LineKind = 'user' | 'quote' | 'text' | 'blank' | 'wrapper';

export interface AiderLine {
  /** 1-based line of the file. */
  line: number;
  kind: LineKind;
  /** user/quote: the text after the marker, without the trailing line break; text: the raw line. */
  text: string;
  /** 1-based column (UTF-16 units) where `text` starts. */
  column: number;
}

/** A session heading; the timestamp is aider's `%Y-%m-%d %H:%M:%S`. */
export const SESSION_HEADING = /^# aider chat started at\b/;
const TIMESTAMP = /^# aider chat started at (\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)\s*$/;
const USER = /^####(?= |$)/;
const QUOTE = /^>(?= |$)/;
const FENCE = /^\s*(`{3,}|~{3,})(.*)$/;
const CLOSER = /^\s*(`{3,}|~{3,})\s*$/;
/** The wrapper of aider's documentation pages (`<div class="chat-transcript" markdown="1">`). */
const WRAPPER_OPEN = /^\s*<div\s+class=["']chat-transcript["'][^>]*>\s*$/i;
const WRAPPER_CLOSE = /^\s*<\/div>\s*$/i;

export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

export function startedAt(heading: string): string | undefined {
  return TIMESTAMP.exec(heading)?.[1];
}

/** The line without the two trailing spaces aider adds as a Markdown line break. */
function withoutBreak(raw: string): string {
  return raw.endsWith('  ') ? raw.slice(0, -2) : raw;
}

function marked(raw: string, marker: RegExp, width: number): { text: string; column: number } | null {
  if (!marker.test(raw)) return null;
  const body = withoutBreak(raw);
  // `####` / `>` alone (after the break is gone) is an empty line of a multi-line input or output.
  return body.length <= width
    ? { text: '', column: width + 1 }
    : { text: body.slice(width + 1), column: width + 2 };
}

interface Fence {
  char: string;
  length: number;
}

function opener(raw: string): Fence | null {
  const m = FENCE.exec(raw);
  if (!m) return null;
  const run = m[1] as string;
  // A backtick fence's info string may not hold a backtick (CommonMark): `` ```a``` `` is inline code.
  if (run.startsWith('`') && (m[2] ?? '').includes('`')) return null;
  return { char: run.charAt(0), length: run.length };
}

function closer(raw: string): Fence | null {
  const m = CLOSER.exec(raw);
  if (!m) return null;
  const run = m[1] as string;
  return { char: run.charAt(0), length: run.length };
}

export interface Classified {
  lines: AiderLine[];
  /** Lines (1-based) of fences that are never closed: read as plain text. */
  unclosedFences: number[];
}

/**
 * Classifies lines [from, to) (0-based indices into `raw`). A fence opens only when a line that
 * closes it follows before `to`: a reply cut off inside a fence (an interrupted answer) must not
 * swallow the user turns after it, so its opening line is read as text and reported.
 */
export function classify(raw: readonly string[], from: number, to: number): Classified {
  // Longest closing run of each fence character at or after each line: does a fence close?
  const longest = {
    '`': new Array<number>(to - from + 1).fill(0),
    '~': new Array<number>(to - from + 1).fill(0),
  };
  for (let i = to - 1; i >= from; i--) {
    const k = i - from;
    longest['`'][k] = longest['`'][k + 1] ?? 0;
    longest['~'][k] = longest['~'][k + 1] ?? 0;
    const c = closer(raw[i] as string);
    if (c) {
      const arr = longest[c.char as '`' | '~'];
      arr[k] = Math.max(arr[k] ?? 0, c.length);
    }
  }
  const lines: AiderLine[] = [];
  const unclosedFences: number[] = [];
  let fence: Fence | null = null;
  let wrappers = 0;
  for (let i = from; i < to; i++) {
    const text = raw[i] as string;
    const line = i + 1;
    if (fence) {
      const c = closer(text);
      if (c && c.char === fence.char && c.length >= fence.length) fence = null;
      lines.push({ line, kind: 'text', text, column: 1 });
      continue;
    }
    if (text.trim() === '') {
      lines.push({ line, kind: 'blank', text, column: 1 });
      continue;
    }
    if (WRAPPER_OPEN.test(text) || (wrappers > 0 && WRAPPER_CLOSE.test(text))) {
      wrappers += WRAPPER_OPEN.test(text) ? 1 : -1;
      lines.push({ line, kind: 'wrapper', text, column: 1 });
      continue;
    }
    const user = marked(text, USER, 4);
    if (user) {
      lines.push({ line, kind: 'user', ...user });
      continue;
    }
    const quote = marked(text, QUOTE, 1);
    if (quote) {
      lines.push({ line, kind: 'quote', ...quote });
      continue;
    }
    const open = opener(text);
    if (open) {
      const reach = longest[open.char as '`' | '~'][i + 1 - from] ?? 0;
      if (reach >= open.length) fence = open;
      else unclosedFences.push(line);
    }
    lines.push({ line, kind: 'text', text, column: 1 });
  }
  return { lines, unclosedFences };
}

/** Lines of YAML front matter at the top of the file (a documentation page), or 0. */
export function frontMatterLength(raw: readonly string[]): number {
  if ((raw[0] ?? '').trimEnd() !== '---') return 0;
  for (let i = 1; i < raw.length; i++) {
    const t = (raw[i] as string).trimEnd();
    if (t === '---' || t === '...') return i + 1;
    if (SESSION_HEADING.test(raw[i] as string)) return 0;
  }
  return 0;
}

/** 0-based indices of the session headings; headings bound sessions even inside an open fence. */
export function sessionStarts(raw: readonly string[]): number[] {
  const starts: number[] = [];
  raw.forEach((text, i) => {
    if (SESSION_HEADING.test(text)) starts.push(i);
  });
  return starts;
}

/**
 * Cheap detection: a heading or user line outside fences. Without a session heading, a `#### `
 * line alone is an ordinary Markdown heading; aider's user lines end in its two-space line break,
 * and its documentation pages wrap the chat in `chat-transcript` divs.
 */
export function looksLikeAider(raw: readonly string[]): boolean {
  let fence: Fence | null = null;
  let userLine = false;
  let wrapper = false;
  for (const text of raw) {
    if (fence) {
      const c = closer(text);
      if (c && c.char === fence.char && c.length >= fence.length) fence = null;
      continue;
    }
    if (SESSION_HEADING.test(text)) return true;
    if (USER.test(text) && text.trim().length > 4) {
      if (text.endsWith('  ')) return true;
      userLine = true;
    } else if (WRAPPER_OPEN.test(text)) wrapper = true;
    else if (!QUOTE.test(text)) fence = opener(text);
    if (userLine && wrapper) return true;
  }
  return false;
}
