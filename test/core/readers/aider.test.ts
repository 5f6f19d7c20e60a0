import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { aiderSessionCount, isAiderText, readAider } from '../../../src/core/readers/aider.js';
import { readTranscript } from '../../../src/core/readers/index.js';
import type { Transcript } from '../../../src/core/types.js';
import { expectNoQuote, failure, fixture, load, where } from './helpers.js';

const REPO = path.resolve(fileURLToPath(import.meta.url), '../../../..');
const FILE = 'history.md';
const TWO = fixture('aider/two-sessions.aider.chat.history.md');

function rows(t: Transcript): string[] {
  return t.artifacts.map(
    (a) =>
      `${a.id} ${a.kind}${a.role ? `/${a.role}` : ''}${a.tool ? ` ${a.tool}` : ''} ${a.source.line}:${a.source.column}`,
  );
}

function text(t: Transcript, id: string): unknown {
  return t.artifacts.find((a) => a.id === id)?.content;
}

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    return statSync(full).isDirectory() ? files(full) : [full];
  });
}

describe('aider reader: a two-session chat history', () => {
  const first = load(TWO, { file: FILE, session: 1 });
  const last = load(TWO, { file: FILE });

  it('detects the format from the content, before any JSON parsing', () => {
    expect(isAiderText(TWO)).toBe(true);
    expect(first.format).toBe('aider');
    expect(load(TWO, { file: FILE, format: 'aider' }).format).toBe('aider');
  });

  it('counts one session per heading and reads the last one by default', () => {
    expect(aiderSessionCount(TWO)).toBe(2);
    expect(readAider(TWO, FILE, 'last').sessions).toBe(2);
    expect(last.meta).toEqual({ started_at: '2024-11-05 14:03:10', session: 2, sessions: 2 });
    expect(first.meta).toEqual({ started_at: '2024-11-04 09:12:45', session: 1, sessions: 2 });
    expect(rows(load(TWO, { file: FILE, session: 2 }))).toEqual(rows(last));
  });

  it('maps user lines, aider output and replies to artifacts at their first character', () => {
    expect(rows(first)).toEqual([
      'L4 tool aider 4:3',
      'L13 user 13:6',
      'L15 assistant 15:1',
      'L34 tool aider 34:3',
      'L38 tool/user aider 38:6',
      'L39 tool aider 39:3',
      'L45 user 45:6',
      'L48 assistant 48:1',
      'L67 tool aider 67:3',
    ]);
    // Lines and columns are those of the whole file, whichever session is read.
    expect(rows(last)).toEqual([
      'L73 tool aider 73:3',
      'L78 user 78:6',
      'L80 assistant 80:1',
      'L82 tool aider 82:3',
      'L86 user 86:6',
      'L90 assistant 90:1',
      'L96 tool aider 96:3',
    ]);
    expect(first.artifacts.every((a) => a.source.file === FILE)).toBe(true);
  });

  it('joins a multi-line input without its markers and two-space line breaks', () => {
    expect(text(first, 'L13')).toBe('add a `done` command that marks a todo item as finished');
    expect(text(first, 'L45')).toBe('fix that test\nan index past the end should print an error, not crash');
    // An empty line inside an input (`####` and the line break) stays an empty line.
    expect(text(last, 'L86')).toBe('add type hints to mark_done\n\nkeep the docstring as it is');
  });

  it('keeps aider output lines together, without the blockquote marker', () => {
    expect(text(first, 'L39')).toBe(
      '....F\nFAILED test_todo.py::test_done_out_of_range - IndexError: list index out of range\n' +
        '1 failed, 4 passed in 0.12s\n' +
        "Add command output to the chat? (Y)es/(N)o/(D)on't ask again [Yes]: y\n" +
        'Added 3 lines of output to the chat.',
    );
    const output = first.artifacts.find((a) => a.id === 'L67');
    expect(output).toMatchObject({ kind: 'tool', tool: 'aider' });
    expect(output).not.toHaveProperty('call_id');
  });

  it('reads a reply exactly, fenced lines starting with # or > included', () => {
    const reply = text(first, 'L48') as string;
    expect(reply.startsWith('The test expects a message instead of an exception')).toBe(true);
    expect(reply).toContain(
      '````markdown\n#### Error\n> index 9 is past the end of the list (3 items)\n````',
    );
    expect(reply.endsWith('>>>>>>> REPLACE\n```')).toBe(true);
    // Blank lines between blocks are not content; inside a reply they are.
    expect(reply).toContain('first.\nA Markdown sample');
    expect(text(first, 'L15')).toContain('the item.\n\ntodo.py\n```python');
    expect(text(last, 'L90')).toBe(
      '~~~python\ndef mark_done(items: list[dict], index: int) -> list[dict]:\n~~~\n\nOnly the signature changes.',
    );
  });

  it('keeps aider commands out of the task statement, /ask in it, and leaves <blank> out', () => {
    expect(first.artifacts.find((a) => a.id === 'L38')).toMatchObject({
      kind: 'tool',
      role: 'user',
      tool: 'aider',
      content: '/run python -m pytest -q',
    });
    expect(last.artifacts.find((a) => a.id === 'L78')).toMatchObject({
      kind: 'user',
      content: '/ask which python versions does this support?',
    });
    expect(last.artifacts.some((a) => a.source.line === 84)).toBe(false);
  });

  it('has no tool calls, so nothing pairs and nothing is reported unpaired', () => {
    for (const t of [first, last]) {
      expect(t.pairing).toEqual({ resultToCall: {}, unpairedCalls: [], unpairedResults: [] });
      expect(t.diagnostics).toEqual([]);
    }
  });

  it('reads CRLF line ends the same way', () => {
    const crlf = load(TWO.replace(/\n/g, '\r\n'), { file: FILE, session: 1 });
    expect(rows(crlf)).toEqual(rows(first));
    expect(text(crlf, 'L45')).toBe(text(first, 'L45'));
  });
});

describe('aider reader: sessions', () => {
  it('reports a session that does not exist as an error at 1:1, for a number or 0', () => {
    for (const session of [3, 0]) {
      const d = failure(TWO, { file: FILE, session });
      expect(where(d)).toEqual(['1:1 error session-out-of-range']);
      expect(d[0]?.message).toContain('holds 2 sessions');
    }
  });

  it('reads a file without a heading as one session', () => {
    const text = '#### hello there  \n\nHi! How can I help?\n';
    expect(aiderSessionCount(text)).toBe(1);
    const t = load(text, { file: FILE });
    expect(rows(t)).toEqual(['L1 user 1:6', 'L3 assistant 3:1']);
    expect(t.meta).toEqual({});
  });

  it('does not load a session with nothing in it', () => {
    const text =
      '# aider chat started at 2024-01-01 10:00:00\n\n# aider chat started at 2024-01-01 11:00:00\n\n#### hi  \n';
    expect(where(failure(text, { file: FILE, session: 1 }))).toEqual(['1:1 error empty-transcript']);
    expect(rows(load(text, { file: FILE }))).toEqual(['L5 user 5:6']);
  });

  it('bounds sessions at their headings even when a reply left a fence open', () => {
    const text = [
      '# aider chat started at 2024-01-01 10:00:00',
      '#### write code  ',
      '```python',
      'print(1)',
      '# aider chat started at 2024-01-01 11:00:00',
      '#### again  ',
      '```',
    ].join('\n');
    expect(aiderSessionCount(text)).toBe(2);
    const one = load(text, { file: FILE, session: 1 });
    expect(rows(one)).toEqual(['L2 user 2:6', 'L3 assistant 3:1']);
    expect(where(one.diagnostics)).toEqual(['3:1 warning aider-unclosed-fence']);
  });
});

describe('aider reader: malformed input', () => {
  const t = load(fixture('aider/malformed.md'), { file: FILE });

  it('reports each problem as a warning at its line, and reads the rest', () => {
    expect(where(t.diagnostics)).toEqual([
      '1:1 warning aider-outside-session',
      '7:1 warning aider-empty-input',
      '14:1 warning aider-unclosed-fence',
    ]);
    expect(t.diagnostics.every((d) => d.file === FILE)).toBe(true);
    // The fence never closes, so the user line after it still counts.
    expect(rows(t)).toEqual([
      'L5 tool aider 5:3',
      'L10 user 10:6',
      'L12 assistant 12:1',
      'L17 user 17:6',
      'L19 assistant 19:1',
    ]);
  });

  it('never quotes the input', () => {
    expectNoQuote(t.diagnostics, [
      'CANARY-OUTSIDE-4431',
      'CANARY-INPUT-9921',
      'CANARY-FENCE-5518',
      'Notes pasted',
    ]);
  });
});

describe('aider reader: a documentation page', () => {
  const t = load(fixture('aider/docs-page.md'), { file: FILE });

  it('leaves out front matter, title, introduction and the chat-transcript wrappers', () => {
    expect(t.format).toBe('aider');
    expect(rows(t)).toEqual([
      'L12 tool aider 12:3',
      'L15 user 15:6',
      'L17 assistant 17:1',
      'L28 tool aider 28:3',
      'L33 user 33:6',
      'L35 assistant 35:1',
      'L45 tool aider 45:3',
    ]);
    expect(t.diagnostics).toEqual([]);
    expect(text(t, 'L12')).toBe('$ aider money.py\nAdded money.py to the chat');
    const contents = t.artifacts.map((a) => String(a.content)).join('\n');
    for (const left of [
      'nav_order',
      'Rename a helper with aider',
      'In this short chat',
      'chat-transcript',
      '</div>',
    ])
      expect(contents).not.toContain(left);
    expect(text(t, 'L35')).toMatch(/^```python\nmoney\.py\n<<<<<<< ORIGINAL\n[\s\S]*>>>>>>> UPDATED\n```$/);
  });

  it('keeps other HTML of a reply as text', () => {
    const page = '#### show a div  \n\n<div>\nhello\n</div>\n';
    expect(text(load(page, { file: FILE }), 'L3')).toBe('<div>\nhello\n</div>');
  });
});

describe('aider detection', () => {
  it('accepts a history, a page with chat-transcript wrappers, and user lines with aider line breaks', () => {
    expect(isAiderText(fixture('aider/one-session.aider.chat.history.md'))).toBe(true);
    expect(isAiderText(fixture('aider/docs-page.md'))).toBe(true);
    expect(isAiderText('#### fix the bug  \n\nDone.\n')).toBe(true);
    expect(isAiderText('<div class="chat-transcript" markdown="1">\n#### fix the bug\n</div>\n')).toBe(true);
  });

  it('rejects ordinary Markdown: headings, quotes, and aider examples inside fences', () => {
    expect(isAiderText('# Title\n\n#### A small heading\n\n> a quote  \n')).toBe(false);
    expect(
      isAiderText('Example:\n\n```md\n# aider chat started at 2024-01-01 10:00:00\n#### hi  \n```\n'),
    ).toBe(false);
    expect(isAiderText('')).toBe(false);
  });

  it('rejects JSON whatever its strings hold', () => {
    expect(isAiderText('{"text": "# aider chat started at 2024-01-01 10:00:00"}')).toBe(false);
    expect(isAiderText('  [\n"#### hi  "\n]')).toBe(false);
  });

  it("is false for the repository's own Markdown", () => {
    const docs = [
      'README.md',
      'CHANGELOG.md',
      ...readdirSync(path.join(REPO, 'docs')).map((f) => `docs/${f}`),
    ];
    for (const rel of docs.filter((f) => f.endsWith('.md'))) {
      expect(isAiderText(readFileSync(path.join(REPO, rel), 'utf8')), rel).toBe(false);
    }
  });

  it('is false for every other reader fixture and example transcript, which keep their format', () => {
    const others = [
      ...files(path.join(REPO, 'test/fixtures/readers')).filter(
        (f) => !f.includes(`${path.sep}aider${path.sep}`),
      ),
      ...files(path.join(REPO, 'examples/transcripts')),
    ];
    expect(others.length).toBeGreaterThan(0);
    for (const file of others) {
      const content = readFileSync(file, 'utf8');
      expect(isAiderText(content), file).toBe(false);
      const read = readTranscript(content, { file });
      if (read.ok) expect(read.transcript.format, file).not.toBe('aider');
    }
  });

  it('forced --format aider reads any Markdown as one session', () => {
    const t = load('Just a note.\n\n> quoted  \n', { file: FILE, format: 'aider' });
    expect(rows(t)).toEqual(['L3 tool aider 3:3']);
  });
});
