// How a name from the input (a file name, an artifact id, a tool name) is printed in text,
// markdown and diagnostics: on one line, and never as a workflow command of the runner.
//
// C0 and C1 control characters, DEL and the line and paragraph separators U+2028/U+2029 are
// shown escaped the way JSON writes them (`\n`, `\r`, `\t`, `\u001b`, `\u2028`…), so a name
// cannot end the line it is on, move the cursor or colour the terminal. With no line break left
// inside, a name starts a line only where our own output puts it first (a file name heading its
// block, a diagnostic's `file:line:column`): a leading `:` (after any whitespace: the runner
// trims every Unicode space, U+00A0, U+3000 and the like, before it looks) is then shown as
// `\u003a`, so no line starts with `::` (the runner's command prefix, read after leading
// whitespace). `##[`, which the runner reads as a command wherever it is in a line, is shown as
// `##\u005b`. Backslashes are kept as they are: a name reads as itself unless it holds one of
// these characters. The rule also holds for a whole line of our words and names.

const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

function escapeChar(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** `name` escaped for one line of printed output (see above). */
export function shownName(name: string): string {
  return name
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, escapeChar)
    .replace(/^(\s*):/, '$1\\u003a')
    .replace(/##\[/g, '##\\u005b');
}

/**
 * JSON text (or lines of it, as in a unified diff of a golden) with every `##[` written `##\u005b`.
 * `#` occurs in JSON only inside strings, where `\u005b` is `[`: the document holds the same
 * values, parses the same, and no line of it holds the runner's legacy command prefix. JSON
 * itself escapes every control character, and a line of indented JSON starts with whitespace
 * and then `{`, `}`, `[`, `]`, `"`, a digit or a letter, never with `::`.
 */
export function inertJson(text: string): string {
  return text.replace(/##\[/g, '##\\u005b');
}
