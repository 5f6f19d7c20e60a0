// Command families (DESIGN §4 stage 1): what makes two tool calls "the same command", so that a
// later result supersedes an earlier one and failed retries can be grouped into one run.
import type { ToolCall } from '../types.js';

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
 * Tools that look something up (a file's contents, a search): their output is not a command outcome
 * (seed 002), so they are not command families for protection: a later read of the same target
 * supersedes an earlier one, and otherwise their outputs compete on budget.
 */
const READ_TOOL =
  /^(?:read|cat|view|open|search|grep|glob|ls|find|read_file|view_file|open_file|list_files|list_dir|search_files|file_search|grep_search|web_fetch|fetch)$/i;

/** A read-like tool (READ_TOOL): its results are not outcomes unless they failed. */
export function isReadTool(name: string): boolean {
  return READ_TOOL.test(name);
}

const COMMAND_KEYS = ['command', 'cmd', 'script', 'commandLine', 'command_line'];
const PATH_KEYS = ['path', 'file_path', 'filePath', 'filename', 'file', 'target_file', 'notebook_path'];

function parseArgs(args: string): Record<string, unknown> | null {
  const t = args.trim();
  if (!t.startsWith('{')) return null;
  try {
    const v: unknown = JSON.parse(t);
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
  /** What makes an earlier result stale: the family for shell and file tools, the exact arguments otherwise. */
  supersede: string;
}

/**
 * Two lookups of different records share a family (the latest outcome of "get_order" is protected,
 * one per workflow) but never supersede each other: only the same arguments do.
 */
export function commandKeys(call: ToolCall): CommandKeys {
  const keys = baseKeys(call);
  return WRITE_TOOL.test(call.name)
    ? { family: keys.family, supersede: `${keys.supersede}#${call.id}` }
    : keys;
}

function baseKeys(call: ToolCall): CommandKeys {
  const args = parseArgs(call.arguments);
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
      if (command !== undefined) {
        const family = `${tool}:${commandHead(command)}`;
        return { family, supersede: family };
      }
    }
    for (const key of PATH_KEYS) {
      const v = args[key];
      if (typeof v === 'string') return { family: `${tool}:${v}`, supersede: `${tool}:${v}` };
    }
    return { family: tool, supersede: `${tool}:${canonical(args)}` };
  }
  if (shell) {
    const family = `${tool}:${commandHead(call.arguments)}`;
    return { family, supersede: family };
  }
  return { family: tool, supersede: `${tool}:${call.arguments.trim()}` };
}
