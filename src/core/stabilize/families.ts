// Command families and invocations. A family (DESIGN §4 stage 1: tool + first two words of a shell
// command, or tool + path) groups failed retries into one run and names the latest outcome to
// protect. An invocation (stage 6: same tool, same normalized arguments) is what makes an earlier
// result stale: only the identical invocation supersedes.
import { parseJsonText } from '../json/text.js';
import type { ToolCall } from '../types.js';
import { literalWord, normalizeCommand } from './shell-words.js';

const SHELL_TOOLS = new Set([
  'bash',
  'shell',
  'sh',
  'zsh',
  'terminal',
  'run_command',
  'execute_command',
  'exec',
  'run',
  'execute_bash',
  'run_shell_command',
  'container.exec',
  'local_shell',
]);
/** Second words after which the third names the command: `npm run X`, `python -m X`, `npx X`… */
const RUNNER_VERBS = new Set(['run', 'run-script', 'exec', 'x', 'dlx', '-m', 'script']);
/**
 * Tools whose every call is a change of its own (an edit, a write, a patch): a later one never makes an
 * earlier one stale, whatever path they share.
 */
const WRITE_TOOL =
  /(?:^|_|-)(?:edit|write|patch|replace|create|insert|delete|remove|move|rename|update)(?:$|_|-)|^(?:edit|write|apply_patch|multiedit|str_replace_editor)$/i;
/**
 * Editors whose `command` argument is a sub-command (`view`, `create`, `str_replace`, `insert`,
 * `undo_edit`), not a shell command: a `view` looks the file up, every other sub-command changes it.
 */
const EDITOR_TOOL = /^(?:str_replace_editor|str_replace_based_edit_tool|text_editor)$/i;
/**
 * Built-in lookups (a file's contents, a search, a fetched page) whose arguments are known: their
 * cosmetic keys (IGNORED_KEYS) are left out of the invocation. Protection does not look at names
 * (outcome.ts classifies results from what they hold).
 */
const LOOKUP_TOOL =
  /^(?:read|cat|view|open|search|grep|glob|ls|find|read_file|view_file|open_file|list_files|list_dir|search_files|file_search|grep_search|codebase_search|web_fetch|webfetch|fetch|web_search|websearch|rg|ripgrep)$/i;
/**
 * Arguments that do not change what a shell command or a built-in lookup runs: a description for the
 * user, a timeout, a restart flag. Left out of the invocation key of those tools (DESIGN §4 stage 6);
 * an MCP or custom tool keeps all its arguments.
 */
const IGNORED_KEYS = new Set([
  'description',
  'explanation',
  'justification',
  'reason',
  'timeout',
  'timeout_ms',
  'timeoutMs',
  'timeout_sec',
  'timeout_seconds',
  'yield_time_ms',
  'restart',
]);
/** Argument keys holding a file system path, compared normalized (`./a/b/` = `a/b`). */
const NORMALIZED_PATH_KEYS = new Set([
  'path',
  'file_path',
  'filePath',
  'filename',
  'file',
  'target_file',
  'notebook_path',
  'dir',
  'directory',
  'dir_path',
  'cwd',
  'workdir',
  'working_directory',
]);
/** Argument keys holding a URL, compared normalized (scheme and host lowercase, no fragment). */
const URL_KEYS = new Set(['url', 'uri', 'href']);

const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'command_line'];
const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'target_file', 'notebook_path'];

function parseArgs(args: string): Record<string, unknown> | null {
  const t = args.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = parseJsonText(t);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * The first two words of a shell command, after the noise that does not change what it runs:
 * a leading `cd DIR &&`, environment assignments and `sudo`/`time` prefixes.
 */
export function commandHead(command: string): string {
  let rest = command.trim();
  for (;;) {
    const cd = /^cd\s+\S+\s*(?:&&|;)\s*/.exec(rest);
    if (cd) {
      rest = rest.slice(cd[0].length);
      continue;
    }
    const env = /^[A-Za-z_][A-Za-z0-9_]*=\S*\s+/.exec(rest);
    if (env) {
      rest = rest.slice(env[0].length);
      continue;
    }
    const prefix = /^(?:sudo|time|exec|nohup)\s+/.exec(rest);
    if (prefix) {
      rest = rest.slice(prefix[0].length);
      continue;
    }
    break;
  }
  const words = rest.split(/\s+/).filter(Boolean);
  // `npm run build` and `npm run lint` are different commands: after a runner's sub-verb the
  // script name is what identifies the command.
  const width = words.length > 2 && RUNNER_VERBS.has(words[1] as string) ? 3 : 2;
  return words.slice(0, width).join(' ');
}

/** Deterministic JSON with sorted keys, so argument order never changes a family. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    return `{${Object.keys(obj)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical(obj[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export interface CommandKeys {
  /** `tool:first two words` (shell), `tool:path` (file tools) or the tool name: protection and retry runs. */
  family: string;
  /**
   * The invocation: what makes an earlier result stale. Same tool and same normalized arguments
   * (DESIGN §4 stage 6); a write tool's call is an invocation of its own.
   */
  supersede: string;
}

/**
 * Two calls with the same family are not the same invocation unless their normalized arguments are
 * equal: `kubectl get pods -n web` and `-n db`, two `psql -c` queries, two grep patterns, two ranges
 * of one file never supersede each other.
 */
export function commandKeys(call: ToolCall): CommandKeys {
  const args = parseArgs(call.arguments);
  const family = familyOf(call, args);
  return {
    family,
    supersede: isWrite(call.name, args) ? `${invocation(call, args)}#${call.id}` : invocation(call, args),
  };
}

function isWrite(tool: string, args: Record<string, unknown> | null): boolean {
  if (EDITOR_TOOL.test(tool)) return args?.['command'] !== 'view';
  return WRITE_TOOL.test(tool);
}

/** The shell command a call runs: its command argument, or the script of `bash -c SCRIPT`. */
function commandArg(
  tool: string,
  args: Record<string, unknown>,
): { key: string; text: string; argv?: string[] } | undefined {
  if (EDITOR_TOOL.test(tool)) return undefined;
  const shell = SHELL_TOOLS.has(tool.toLowerCase());
  for (const key of COMMAND_KEYS) {
    const v = args[key];
    if (typeof v === 'string' && (shell || key !== 'script')) return { key, text: v };
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return { key, text: v.join(' '), argv: v };
  }
  return undefined;
}

/**
 * The shell command a tool call runs, when it runs one (a shell tool's string, a command argument of
 * another tool, the script of `["bash", "-lc", SCRIPT]`); undefined otherwise.
 */
export function shellCommandOf(call: ToolCall): string | undefined {
  const args = parseArgs(call.arguments);
  if (!args) return SHELL_TOOLS.has(call.name.toLowerCase()) ? call.arguments : undefined;
  const c = commandArg(call.name, args);
  if (!c) return undefined;
  return c.argv ? (shellScript(c.argv) ?? c.text) : c.text;
}

/** `["bash", "-lc", "npm test"]`: the script a shell runs from an argv array. */
function shellScript(argv: string[]): string | undefined {
  const shell = (argv[0] ?? '').split('/').pop() ?? '';
  return argv.length >= 3 && /^(?:ba|z|da|k)?sh$/.test(shell) && /^-\w*c$/.test(argv[argv.length - 2] ?? '')
    ? argv[argv.length - 1]
    : undefined;
}

function familyOf(call: ToolCall, args: Record<string, unknown> | null): string {
  const tool = call.name;
  const shell = SHELL_TOOLS.has(tool.toLowerCase());
  if (args) {
    for (const key of COMMAND_KEYS) {
      const v = args[key];
      const command =
        typeof v === 'string' && (shell || key !== 'script')
          ? v
          : Array.isArray(v) && v.every((x) => typeof x === 'string')
            ? v.join(' ')
            : undefined;
      if (command !== undefined) return `${tool}:${commandHead(command)}`;
    }
    for (const key of PATH_KEYS) {
      const v = args[key];
      if (typeof v === 'string') return `${tool}:${v}`;
    }
    return tool;
  }
  return shell ? `${tool}:${commandHead(call.arguments)}` : tool;
}

/** A path compared lexically: `./a//b/` = `a/b`, `a/x/../b` = `a/b`. */
export function normalizePath(path: string): string {
  const s = path.trim();
  const abs = s.startsWith('/');
  const parts: string[] = [];
  for (const seg of s.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..' && parts.length > 0 && parts[parts.length - 1] !== '..') parts.pop();
    else if (!(seg === '..' && abs)) parts.push(seg);
  }
  const out = (abs ? '/' : '') + parts.join('/');
  return out === '' ? '.' : out;
}

/** A URL compared normalized: scheme and host lowercase, default port, fragment and trailing slash dropped. */
export function normalizeUrl(url: string): string {
  const s = url.trim();
  try {
    const u = new URL(s);
    return `${u.protocol}//${u.host}${u.pathname.replace(/\/+$/, '')}${u.search}`;
  } catch {
    return s;
  }
}

function normalizeValues(args: Record<string, unknown>, dropIgnored: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(args)) {
    if (dropIgnored && IGNORED_KEYS.has(k)) continue;
    if (NORMALIZED_PATH_KEYS.has(k)) {
      out[k] =
        typeof v === 'string'
          ? normalizePath(v)
          : Array.isArray(v)
            ? v.map((x) => (typeof x === 'string' ? normalizePath(x) : x))
            : v;
    } else if (URL_KEYS.has(k) && typeof v === 'string') out[k] = normalizeUrl(v);
    else out[k] = v;
  }
  return out;
}

function invocation(call: ToolCall, args: Record<string, unknown> | null): string {
  const tool = call.name;
  if (!args) {
    return SHELL_TOOLS.has(tool.toLowerCase())
      ? `${tool}:$ ${normalizeCommand(call.arguments)}`
      : `${tool}:${call.arguments.trim()}`;
  }
  const command = commandArg(tool, args);
  if (command) {
    const rest = { ...args };
    delete rest[command.key];
    const script = command.argv ? shellScript(command.argv) : undefined;
    const words = !command.argv
      ? normalizeCommand(command.text)
      : script !== undefined
        ? [...command.argv.slice(0, -1).map(literalWord), normalizeCommand(script)].join(' ')
        : command.argv.map(literalWord).join(' ');
    const others = normalizeValues(rest, true);
    return `${tool}:$ ${words}${Object.keys(others).length > 0 ? ` ${canonical(others)}` : ''}`;
  }
  const known = EDITOR_TOOL.test(tool) || LOOKUP_TOOL.test(tool);
  return `${tool}:${canonical(normalizeValues(args, known))}`;
}
