// Outcome or contents (DESIGN §4 stage 8). The latest-outcome rule exists so that the agent still
// knows whether its last build, test or deploy worked; it protects command OUTCOMES. What a lookup
// returned (a file's text, a document excerpt, a search listing) is CONTENTS: it competes on budget,
// whatever the tool is called. The decision is taken from the result itself, never from the tool's
// name: a custom `read_doc(path)` returns contents, a custom `deploy(env)` that answers
// `{"status": "failed"}` returns an outcome.
//
// A result is an outcome when, in this order:
//   1. it failed or says how it ended: `is_error`, an `exit_code` (0 included), an `error` tag;
//   2. its call ran a shell command that is not itself a read (`cat`, `head`, `tail`, `sed -n`,
//      `less`, `grep`, `rg`, `find`, `ls`, `git show`, `git diff`, `git log`, `git status`…, alone,
//      chained or piped into one another, with no redirection into a file): what `npm test`,
//      `kubectl apply` or `psql -c` printed is how that command went, even without an exit code;
//   3. its text reports a status:
//      - a JSON object with an `exit_code`/`exitCode`/`exit_status`/`returncode`/`return_code` number,
//        an `error`/`errors` key, a scalar `status`, or a boolean `ok`/`success` (also under
//        `metadata`, as Codex reports its shell's exit code);
//      - a first or last line that is an exit status (`Exit code: 1`, `exit status 2`, `Process
//        exited with code 0`, `[The command completed with exit code 1.]`), `Command failed…`, an
//        error (`Error:`, `fatal:`, `error[E0308]:`, `npm ERR!`, `Traceback (most recent call
//        last):`, `TypeError: …`, `…: command not found`) or a build verdict (`Build failed`,
//        `BUILD SUCCESSFUL`);
//      - a first line confirming a change (`Success. Updated the following files:`, `File created
//        successfully at: …`, `The file src/a.ts has been edited.`, `patch applied`), or a whole
//        result that is one verdict word (`ok`, `done`, `failed`);
//      - among the last six lines, a test-runner or checker summary (`3 passed, 1 failed`,
//        `Tests: 1 failed, 12 passed`, `===== 2 passed in 0.1s =====`, `test result: ok.`, go's
//        `ok  pkg  0.01s`, `PASS`/`FAIL`, `Found 3 errors`, eslint's `✖ 5 problems (…)`).
// An excerpt the stabilizer made (elision markers) is judged as the text it was cut from: its markers
// are not lines, and a JSON object cut by characters is read for its status keys.
// Everything else is contents: a file, a document excerpt, a search listing, a table an MCP tool
// returned. The patterns are anchored (whole first or last lines, counts followed by the end of the
// line or a separator) so that prose mentioning an error or a count is not taken for a status.
import { parseJsonText } from '../json/text.js';
import type { Artifact, ToolCall } from '../types.js';
import { isExcerpt } from './excerpt.js';
import { shellCommandOf } from './families.js';
import { shellWords } from './shell-words.js';
import type { Work, WorkSet } from './work.js';
import { textOf } from './work.js';

export interface ResultFacts {
  text: string;
  is_error?: boolean | undefined;
  exit_code?: number | undefined;
  tags?: readonly string[] | undefined;
  /** The shell command the call ran, when it ran one. */
  command?: string | undefined;
}

/** Why a result is an outcome; undefined when it is contents. */
export type OutcomeSignal =
  'is_error' | 'exit_code' | 'error_tag' | 'command' | 'json_status' | 'status_line';

/** Programs whose output is what they read or list: not an outcome unless it says so. */
const READ_PROGRAMS = new Set([
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'bat',
  'nl',
  'wc',
  'file',
  'stat',
  'du',
  'tree',
  'ls',
  'll',
  'find',
  'fd',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'ack',
  'sed',
  'awk',
  'cut',
  'sort',
  'uniq',
  'diff',
  'cmp',
  'jq',
  'yq',
  'xxd',
  'hexdump',
  'od',
  'strings',
  'readlink',
  'realpath',
  'column',
  'git',
  // SWE-agent's file viewer and search commands (its default tools): they show contents.
  'open',
  'goto',
  'scroll_up',
  'scroll_down',
  'find_file',
  'search_file',
  'search_dir',
]);
/** `git` sub-commands that only read the repository. */
const GIT_READS = new Set([
  'show',
  'diff',
  'log',
  'status',
  'blame',
  'grep',
  'ls-files',
  'ls-tree',
  'cat-file',
]);
/** Commands that neither read nor act: they do not make a chain an outcome. */
const NEUTRAL = new Set(['cd', 'pushd', 'popd', 'echo', 'printf', 'pwd', 'true']);
const PREFIXES = new Set(['sudo', 'time', 'nohup', 'command']);
const SEPARATORS = new Set(['&&', '||', ';', '|', '|&', '&', '(', ')', ';;']);

function readsOnly(words: string[]): boolean | 'neutral' {
  let i = 0;
  while (
    i < words.length &&
    (/^[A-Za-z_][A-Za-z0-9_]*=/.test(words[i] as string) || PREFIXES.has(words[i] as string))
  )
    i++;
  const program = (words[i] ?? '').split('/').pop() ?? '';
  const args = words.slice(i + 1);
  if (program === '' || NEUTRAL.has(program)) return 'neutral';
  if (!READ_PROGRAMS.has(program)) return false;
  if (program === 'git') {
    const sub = args.find((a) => !a.startsWith('-'));
    return sub !== undefined && GIT_READS.has(sub);
  }
  if (program === 'sed')
    return args.some((a) => /^-[a-zA-Z]*n/.test(a)) && !args.some((a) => /^-[a-zA-Z]*i|^--in-place/.test(a));
  if (program === 'find')
    return !args.some((a) => /^-(?:delete|exec|execdir|ok|okdir|fprint\w*|fls)$/.test(a));
  return true;
}

/**
 * A shell command that only reads: every command of its chains and pipes is a read (`cat`, `grep`,
 * `git diff`, `sed -n`…) or neutral (`cd`, `echo`), at least one reads, and nothing is redirected
 * into a file (`cat > f <<EOF` writes).
 */
export function isReadCommand(command: string): boolean {
  const tokens = shellWords(command);
  let words: string[] = [];
  let reads = false;
  const close = (): boolean => {
    const r = readsOnly(words);
    words = [];
    if (r === false) return false;
    if (r === true) reads = true;
    return true;
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i] as (typeof tokens)[number];
    if (t.type === 'word') {
      words.push(t.value);
      continue;
    }
    if (SEPARATORS.has(t.value)) {
      if (!close()) return false;
      continue;
    }
    // A redirection: into a file is a write; `2>&1` and `> /dev/null` are not.
    const target = tokens[i + 1];
    i++;
    if (/>/.test(t.value) && !t.value.endsWith('&') && target?.value !== '/dev/null') return false;
  }
  return close() && reads;
}

const STATUS_LINES = [
  /^\[?(?:exit|return)[ _]?(?:code|status)\s*[:=]?\s*-?\d+\b/i,
  /\b(?:exit(?:ed)?|finished|completed|terminated|returned|failed)\b.{0,30}?\b(?:code|status)\s*[:=]?\s*-?\d+\b/i,
  /^returncode\s*[:=]?\s*-?\d+\b/i,
  /^command (?:failed|succeeded|completed|exited|timed out)\b/i,
  /^(?:error|fatal|panic)(?:\[[\w-]+\])?\s*:/i,
  /^npm ERR!/,
  /^Traceback \(most recent call last\):/,
  /^(?:[a-z]\w*\.)*[A-Z]\w*(?:Error|Exception)(?::|$)/,
  /: command not found$/,
  /^(?:build|compilation|deployment|deploy|migration)\s+(?:succeeded|successful|failed|complete|completed|finished)\b/i,
  /^BUILD (?:SUCCESSFUL|SUCCESS|FAILED|FAILURE)\b/,
];
/** A first line confirming a change: `Success. Updated the following files:`, `File created successfully at: …`. */
const CHANGE_LINE =
  /^(?:success\b|(?:the )?(?:patch|edit|changes?|files?)\b.{0,80}?\b(?:applied|written|saved|created|updated|edited|modified|deleted)\b)/i;
/** A whole result that is one verdict word: `ok`, `done`, `failed`. */
const VERDICT =
  /^(?:ok|okay|done|success|successful|succeeded|complete|completed|passed|failed|failure|error)[.!]?$/i;
const SUMMARY_LINES = [
  /^\W*(?:(?:tests?|test files|test suites|suites|specs?)\s*:?\s*)?\d+ (?:passed|failed|passing|failing|pending|skipped|errors?)(?:\s*$|\s*[,;(|]|\s+in\s)/i,
  /^=+ .*\b\d+ (?:passed|failed|errors?)\b.*=+$/,
  /^test result: (?:ok|FAILED)\./,
  /^(?:ok|FAIL)\s+\S+\s+(?:[\d.]+m?s|\(cached\))/,
  /^(?:PASS|FAIL)$/,
  /^Found \d+ errors?\b/,
  /^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)/,
];
const EXIT_KEYS = ['exit_code', 'exitCode', 'exit_status', 'returncode', 'return_code'];

/** A status key of a JSON object, as text: what an excerpt of the object (no longer JSON) still shows. */
const JSON_STATUS_KEY =
  /"(?:exit_code|exitCode|exit_status|returncode|return_code)"\s*:\s*-?\d|"errors?"\s*:|"status"\s*:\s*(?:"|-?\d|true|false)|"(?:ok|success)"\s*:\s*(?:true|false)/;

function jsonStatus(text: string): boolean {
  const t = text.trim();
  if (!t.startsWith('{')) return false;
  // An excerpt the stabilizer cut from a JSON object (head and tail, an elision marker between)
  // must be judged as the object was, or stabilizing the context again would change its protection.
  if (isExcerpt(t)) return JSON_STATUS_KEY.test(t);
  if (!t.endsWith('}')) return false;
  let v: unknown;
  try {
    v = parseJsonText(t);
  } catch {
    return false;
  }
  const has = (o: unknown): boolean => {
    if (o === null || typeof o !== 'object' || Array.isArray(o)) return false;
    const r = o as Record<string, unknown>;
    if (EXIT_KEYS.some((k) => typeof r[k] === 'number')) return true;
    if ('error' in r || 'errors' in r) return true;
    if (['string', 'number', 'boolean'].includes(typeof r['status'])) return true;
    return typeof r['ok'] === 'boolean' || typeof r['success'] === 'boolean';
  };
  return has(v) || has((v as Record<string, unknown>)['metadata']);
}

function statusText(text: string): boolean {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    // An excerpt's elision markers are not the output's lines.
    .filter((l) => l.length > 0 && !(isExcerpt(l) && l.startsWith('[... ') && l.endsWith(' ...]')));
  if (lines.length === 0) return false;
  if (lines.length === 1 && VERDICT.test(lines[0] as string)) return true;
  if (CHANGE_LINE.test(lines[0] as string)) return true;
  const ends = [lines[0] as string, lines[lines.length - 1] as string];
  if (ends.some((l) => STATUS_LINES.some((re) => re.test(l)))) return true;
  return lines.slice(-6).some((l) => SUMMARY_LINES.some((re) => re.test(l)));
}

/** Why a result is a command outcome, or undefined when it holds contents (see the file comment). */
export function outcomeSignal(r: ResultFacts): OutcomeSignal | undefined {
  if (r.is_error === true) return 'is_error';
  if (r.exit_code !== undefined) return 'exit_code';
  if ((r.tags ?? []).includes('error')) return 'error_tag';
  if (r.command !== undefined && r.command.trim() !== '' && !isReadCommand(r.command)) return 'command';
  if (jsonStatus(r.text)) return 'json_status';
  return statusText(r.text) ? 'status_line' : undefined;
}

/** The call a result answers, as its assistant made it. */
export function callOf(w: Work): ToolCall | undefined {
  const id = w.a.call_id ?? w.a.call_ids?.[0];
  return id === undefined ? undefined : w.owner?.a.tool_calls?.find((c) => c.id === id);
}

// By artifact, with the call it answered: an agent's session reads the same artifacts on every call.
const cache = new WeakMap<Artifact, { call: ToolCall | undefined; value: boolean }>();

/**
 * A tool result that holds a command outcome. Judged on the result as it came in (not on a field
 * mask or an excerpt a stage made of it), once per artifact and call.
 */
export function isOutcome(w: Work): boolean {
  const call = callOf(w);
  const known = cache.get(w.a);
  if (known !== undefined && known.call === call) return known.value;
  const value =
    outcomeSignal({
      text: textOf(w.a.content),
      is_error: w.a.is_error,
      exit_code: w.a.exit_code,
      tags: w.a.tags,
      command: call ? shellCommandOf(call) : undefined,
    }) !== undefined;
  cache.set(w.a, { call, value });
  return value;
}

/**
 * Whether `text`, shown in place of `w`'s output (an excerpt), is judged as `w` was. A cut that leaves
 * out what made an outcome one (a JSON object's `"status"` key between its head and tail) would be
 * read as contents when the stabilized context is stabilized again, and lose its `latest:` protection.
 */
export function keepsOutcome(w: Work, text: string): boolean {
  if (w.a.kind !== 'tool' || !isOutcome(w)) return true;
  const call = callOf(w);
  return (
    outcomeSignal({
      text,
      is_error: w.a.is_error,
      exit_code: w.a.exit_code,
      tags: w.a.tags,
      command: call ? shellCommandOf(call) : undefined,
    }) !== undefined
  );
}

/**
 * A call whose latest invocation is protected (the latest-invocation rule): one whose results hold an
 * outcome, or, before any result came, one that runs a shell command that is not a read.
 */
export function isOutcomeCall(owner: Work, call: ToolCall): boolean {
  const results = owner.results.filter(
    (r) => r.a.call_id === call.id || (r.a.call_ids ?? []).includes(call.id),
  );
  if (results.length > 0) return results.some(isOutcome);
  const command = shellCommandOf(call);
  return command !== undefined && command.trim() !== '' && !isReadCommand(command);
}

/**
 * The tools listed in `protected_tools` that appear in the transcript and whose every result is
 * contents: the policy lists them to protect outcomes, but they never produce one (the warning:
 * "protected_tools lists X but its results are file or document contents, not command outcomes;
 * they compete on budget").
 */
export function contentsOnlyTools(ws: WorkSet, protectedTools: readonly string[]): string[] {
  const seen = new Map<string, boolean>();
  for (const w of ws.items) {
    const tool = w.a.tool;
    if (w.a.kind !== 'tool' || tool === undefined || !protectedTools.includes(tool)) continue;
    seen.set(tool, (seen.get(tool) ?? true) && !isOutcome(w));
  }
  return protectedTools.filter((t, i) => seen.get(t) === true && protectedTools.indexOf(t) === i);
}
