// A small POSIX-shell tokenizer for comparing command strings (DESIGN §4 stage 6): two commands are
// the same invocation when they split into the same words and operators, whatever their spacing and
// quoting. It does not run or expand anything; it only has to tell words apart exactly:
//
// - `'a b'`, `"a b"` and `a\ b` are one word `a b`; `a b` is two;
// - what quoting makes literal stays distinct from what the shell would expand: `'$HOME'` and
//   `$HOME`, `'*.ts'` and `*.ts` are different words (`"$HOME"` and `$HOME` are the same word);
// - operators are tokens of their own, so `a&&b` is `a && b`; a newline separates commands like
//   `;`; a line continuation (backslash newline) joins lines; a `#` comment is left out;
// - `$'…'` (ANSI-C quoting) is read as a literal with backslash escapes.
//
// A dependency (`shell-quote`) was considered: it expands `$VAR` against an environment while
// parsing, which loses exactly the literal/expanded distinction a comparison needs.

export interface ShellToken {
  /** `word` or `op` (`&&`, `||`, `;`, `|`, `&`, redirections, parentheses). */
  type: 'word' | 'op';
  /** The word with its quoting removed, or the operator. */
  value: string;
  /**
   * The word in a canonical form: every character that quoting made literal and that the shell
   * would otherwise treat specially is backslash-escaped. Equal canonical forms are equal words.
   */
  canonical: string;
}

const OPERATORS = [
  '&&',
  '||',
  ';;',
  '|&',
  '>>',
  '>&',
  '>|',
  '<<<',
  '<<',
  '<&',
  '<>',
  ';',
  '|',
  '&',
  '>',
  '<',
  '(',
  ')',
];
/** Characters special to the shell outside quotes: escaped in a canonical word when literal. */
const SPECIAL = new Set([...' \t\n\'"\\$`*?[]{}~#;&|<>()!']);
/** The same characters, to escape a literal run in one pass. */
const SPECIAL_RUN = /[ \t\n'"\\$`*?[\]{}~#;&|<>()!]/g;
/**
 * A run of characters that stand for themselves outside quotes (no quote, escape, space, newline,
 * operator or `$`), and one inside double quotes (no `"`, escape, `$` or backtick). Words are built
 * a run at a time, not a character at a time: one string piece per character made a 40 MiB
 * argument cost gigabytes (issue 34).
 */
const PLAIN_RUN = /[^\\'"$\n \t\r&|;<>()]+/y;
const DOUBLE_RUN = /[^\\"$`]+/y;

/**
 * `run` with every special character backslash-escaped. In pieces: one replace over megabytes of
 * special characters keeps a match record per character (4 MiB of `[` took 236 MB).
 */
function escapeRun(run: string): string {
  const PIECE = 1 << 16;
  if (run.length <= PIECE) return run.replace(SPECIAL_RUN, '\\$&');
  const pieces: string[] = [];
  for (let k = 0; k < run.length; k += PIECE)
    pieces.push(run.slice(k, k + PIECE).replace(SPECIAL_RUN, '\\$&'));
  return pieces.join('');
}

/** The run `re` matches at `i` in `s`, or '' (sticky regexes: no copy of the rest of `s`). */
function runAt(re: RegExp, s: string, i: number): string {
  re.lastIndex = i;
  return re.exec(s)?.[0] ?? '';
}

/** Characters the shell expands inside double quotes. */
const LIVE_IN_DOUBLE = new Set(['$', '`']);

function isSpace(c: string): boolean {
  return c === ' ' || c === '\t' || c === '\r';
}

function operatorAt(s: string, i: number): string | undefined {
  for (const op of OPERATORS) if (s.startsWith(op, i)) return op;
  return undefined;
}

const ANSI_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '0': '\0',
};

/** Split a command string into shell words and operators. Unterminated quotes run to the end. */
export function shellWords(command: string): ShellToken[] {
  const s = command;
  const out: ShellToken[] = [];
  let value = '';
  let canonical = '';
  let inWord = false;
  const lit = (c: string): void => {
    value += c;
    canonical += SPECIAL.has(c) ? `\\${c}` : c;
    inWord = true;
  };
  /** A run of literal characters: `lit` on each, in one piece. */
  const litRun = (run: string): void => {
    value += run;
    canonical += escapeRun(run);
    inWord = true;
  };
  const live = (c: string): void => {
    value += c;
    canonical += c;
    inWord = true;
  };
  const flush = (): void => {
    if (inWord) out.push({ type: 'word', value, canonical: canonical === '' ? "''" : canonical });
    value = '';
    canonical = '';
    inWord = false;
  };
  const op = (o: string): void => {
    // A newline and `;` both end a command; two in a row, or one at the end, add nothing.
    if (o === ';' && (out.length === 0 || out[out.length - 1]?.value === ';')) return;
    out.push({ type: 'op', value: o, canonical: o });
  };
  let i = 0;
  while (i < s.length) {
    const c = s[i] as string;
    if (c === '\\') {
      const next = s[i + 1];
      if (next === '\n')
        i += 2; // line continuation
      else if (next === undefined) i += 1;
      else {
        lit(next);
        i += 2;
      }
      continue;
    }
    if (c === "'") {
      const end = s.indexOf("'", i + 1);
      const stop = end < 0 ? s.length : end;
      litRun(s.slice(i + 1, stop));
      i = stop + 1;
      continue;
    }
    if (c === '$' && s[i + 1] === "'") {
      let j = i + 2;
      while (j < s.length && s[j] !== "'") {
        if (s[j] === '\\' && j + 1 < s.length) {
          const e = s[j + 1] as string;
          lit(ANSI_ESCAPES[e] ?? `\\${e}`);
          j += 2;
        } else {
          lit(s[j] as string);
          j++;
        }
      }
      inWord = true;
      i = j + 1;
      continue;
    }
    if (c === '"') {
      let j = i + 1;
      while (j < s.length && s[j] !== '"') {
        const ch = s[j] as string;
        if (ch === '\\' && j + 1 < s.length && '$`"\\\n'.includes(s[j + 1] as string)) {
          if (s[j + 1] !== '\n') lit(s[j + 1] as string);
          j += 2;
          continue;
        }
        if (LIVE_IN_DOUBLE.has(ch)) {
          live(ch);
          j++;
        } else if (ch === '\\') {
          lit(ch);
          j++;
        } else {
          const run = runAt(DOUBLE_RUN, s, j);
          litRun(run);
          j += run.length;
        }
      }
      inWord = true;
      i = j + 1;
      continue;
    }
    if (c === '\n') {
      flush();
      op(';');
      i++;
      continue;
    }
    if (isSpace(c)) {
      flush();
      i++;
      continue;
    }
    if (c === '#' && !inWord) {
      const end = s.indexOf('\n', i);
      i = end < 0 ? s.length : end;
      continue;
    }
    const o = operatorAt(s, i);
    if (o !== undefined) {
      // `2>&1`, `2>/dev/null`: a file descriptor number right before a redirection belongs to it.
      if ((o[0] === '>' || o[0] === '<') && inWord && /^\d+$/.test(value) && canonical === value) {
        const fd = value;
        value = '';
        canonical = '';
        inWord = false;
        out.push({ type: 'op', value: fd + o, canonical: fd + o });
      } else {
        flush();
        op(o);
      }
      i += o.length;
      continue;
    }
    const run = c === '$' || c === '#' ? c : runAt(PLAIN_RUN, s, i);
    value += run;
    canonical += run;
    inWord = true;
    i += run.length;
  }
  flush();
  while (out.length > 0 && out[out.length - 1]?.value === ';') out.pop();
  return out;
}

/** A command string in canonical form: its tokens' canonical forms joined by single spaces. */
export function normalizeCommand(command: string): string {
  return shellWords(command)
    .map((t) => t.canonical)
    .join(' ');
}

/** One literal word (an element of an argv array) in the canonical form of `shellWords`. */
export function literalWord(word: string): string {
  if (word === '') return "''";
  let out = '';
  for (const c of word) out += SPECIAL.has(c) ? `\\${c}` : c;
  return out;
}
