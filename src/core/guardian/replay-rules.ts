// Heuristics the guardian replay uses to read a recorded transcript: which tool results changed
// state, which calls were checkpoints, which artifacts were fresh summaries. Recordings carry no
// explicit "this mutated state" flag, so names and shell commands are matched; the tags
// `state_change`, `checkpoint` and `summary` let a host say it exactly.
import { parseJsonText } from '../json/text.js';
import type { Artifact, ToolCall } from '../types.js';
import { STATUS_HALT_CONTEXT_LIMIT } from './signals.js';

/** Tools whose successful or failed run is a state change (names compared as normalizeToolName does). */
export const STATE_CHANGING_TOOLS = [
  'write',
  'write_file',
  'edit',
  'edit_file',
  'multiedit',
  'apply_patch',
  'patch',
  'create',
  'create_file',
  'delete',
  'delete_file',
  'remove_file',
  'move_file',
  'rename_file',
  'str_replace',
  'str_replace_editor',
  'str_replace_based_edit_tool',
  'insert',
  'notebookedit',
] as const;

/** Shell tools: their command text decides (shellCommandWrites). */
export const SHELL_TOOLS = [
  'bash',
  'sh',
  'shell',
  'terminal',
  'run_command',
  'execute_command',
  'run_shell_command',
  'run_terminal_cmd',
  'local_shell',
  'exec',
] as const;

/** Tools whose call is a guardian checkpoint (which also writes a fresh summary). */
export const CHECKPOINT_TOOLS = [
  'guardian',
  'checkpoint',
  'context_guardian',
  'guardian_checkpoint',
] as const;

/**
 * Lower case, `-`/space → `_`, camelCase split, and only the last segment of namespaced names
 * (`mcp__fs__write_file`, `fs.write`, `tools/edit`).
 */
export function normalizeToolName(name: string): string {
  const last = name.split(/__|[./:]/).at(-1) ?? name;
  return last
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
}

const STATE_TOOLS: ReadonlySet<string> = new Set(STATE_CHANGING_TOOLS);
const SHELLS: ReadonlySet<string> = new Set(SHELL_TOOLS);
const CHECKPOINTS: ReadonlySet<string> = new Set(CHECKPOINT_TOOLS);

/** Editor tools that multiplex read and write through a `command` argument. */
const READ_ONLY_EDITOR_COMMANDS: ReadonlySet<string> = new Set(['view', 'read', 'list']);

function parsedArguments(call: ToolCall): Record<string, unknown> | undefined {
  try {
    const value: unknown = parseJsonText(call.arguments);
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The shell command of a call: `command`/`cmd`/`script` (string or argv array), or the raw arguments. */
export function shellCommandOf(call: ToolCall): string {
  const args = parsedArguments(call);
  if (args === undefined) return call.arguments;
  for (const key of ['command', 'cmd', 'script']) {
    const v = args[key];
    if (typeof v === 'string') return v;
    if (Array.isArray(v)) {
      const argv = v.filter((x): x is string => typeof x === 'string');
      // ["bash", "-lc", "script"]: the script is the command.
      return argv.length >= 3 && /^-\w*c$/.test(argv[1] ?? '') ? argv.slice(2).join(' ') : argv.join(' ');
    }
  }
  return '';
}

const WRITING_PROGRAMS = new Set([
  'rm',
  'rmdir',
  'mv',
  'cp',
  'mkdir',
  'touch',
  'tee',
  'ln',
  'chmod',
  'chown',
  'truncate',
  'dd',
  'install',
  'patch',
  'unzip',
  'rsync',
]);
const WRITING_SUBCOMMANDS: Readonly<Record<string, ReadonlySet<string>>> = {
  git: new Set([
    'add',
    'am',
    'apply',
    'checkout',
    'cherry-pick',
    'clean',
    'clone',
    'commit',
    'init',
    'merge',
    'mv',
    'pull',
    'push',
    'rebase',
    'reset',
    'restore',
    'revert',
    'rm',
    'stash',
    'switch',
    'tag',
  ]),
  npm: new Set(['install', 'i', 'ci', 'uninstall', 'remove', 'update', 'publish', 'init']),
  pnpm: new Set(['install', 'i', 'add', 'remove', 'update', 'publish']),
  yarn: new Set(['install', 'add', 'remove', 'upgrade', 'publish']),
  pip: new Set(['install', 'uninstall']),
  pip3: new Set(['install', 'uninstall']),
  'apt-get': new Set(['install', 'remove', 'purge']),
  apt: new Set(['install', 'remove', 'purge']),
};
// `>`/`>>` into a file; `2>&1`, `>&2` and `> /dev/null` write nothing durable.
const REDIRECT = /(?:^|[^<>&=\d-])\d?>>?(?!&)\s*(?!\/dev\/null\b)[^\s&|;>]/;

/**
 * Whether a shell command writes durable state: output redirection into a file, a writing
 * program (rm, mv, cp, mkdir, touch, tee…), `sed -i`/`perl -i`, or a writing sub-command of git,
 * npm, pnpm, yarn, pip or apt. Read-only commands (ls, cat, grep, test runners) do not.
 */
export function shellCommandWrites(command: string): boolean {
  if (REDIRECT.test(command)) return true;
  for (const segment of command.split(/&&|\|\||[;|\n]/)) {
    const words = segment
      .trim()
      .split(/\s+/)
      .filter((w) => !/^\w+=/.test(w) && w !== 'sudo');
    const [program = '', sub = ''] = words;
    const name = program.split('/').at(-1) ?? program;
    if (WRITING_PROGRAMS.has(name)) return true;
    if ((name === 'sed' || name === 'perl') && words.some((w) => /^-[a-zA-Z]*i/.test(w))) return true;
    if (WRITING_SUBCOMMANDS[name]?.has(sub)) return true;
  }
  return false;
}

function hasTag(artifact: Artifact, tag: string): boolean {
  return artifact.tags?.includes(tag) ?? false;
}

/** A tool call that writes a guardian checkpoint: a checkpoint tool, or `… guardian checkpoint …` in a shell. */
export function isCheckpointCall(call: ToolCall): boolean {
  const name = normalizeToolName(call.name);
  if (CHECKPOINTS.has(name)) return true;
  return SHELLS.has(name) && /\bguardian\s+checkpoint\b/.test(shellCommandOf(call));
}

/** How a call changes state, in the module's own words (never the input's), or null. */
export function stateChangeOfCall(call: ToolCall): string | null {
  const name = normalizeToolName(call.name);
  if (STATE_TOOLS.has(name)) {
    const command = parsedArguments(call)?.command;
    if (typeof command === 'string' && READ_ONLY_EDITOR_COMMANDS.has(command)) return null;
    return `the ${name} tool`;
  }
  if (SHELLS.has(name) && !isCheckpointCall(call) && shellCommandWrites(shellCommandOf(call))) {
    return 'a shell command that writes';
  }
  return null;
}

/** A checkpoint recorded as an artifact (tag `checkpoint`) or an assistant turn that calls one. */
export function isCheckpointArtifact(artifact: Artifact): boolean {
  return hasTag(artifact, 'checkpoint') || (artifact.tool_calls ?? []).some(isCheckpointCall);
}

/** A fresh summary: a `summary` artifact, the tag `summary`, or a checkpoint (which writes one). */
export function isSummaryArtifact(artifact: Artifact): boolean {
  return artifact.kind === 'summary' || hasTag(artifact, 'summary') || isCheckpointArtifact(artifact);
}

/** Tool calls other than checkpoints: each makes the assistant turn a major action. */
export function actionCalls(artifact: Artifact): ToolCall[] {
  return artifact.kind === 'assistant' ? (artifact.tool_calls ?? []).filter((c) => !isCheckpointCall(c)) : [];
}

function textOf(artifact: Artifact): string {
  if (typeof artifact.content === 'string') return artifact.content;
  return artifact.content
    .map((p) => (p.type === 'text' && typeof p.text === 'string' ? p.text : ''))
    .join('\n');
}

/** An assistant turn that only emits STATUS:HALT_CONTEXT_LIMIT (and checkpoints): the halt itself. */
export function isHaltAnnouncement(artifact: Artifact): boolean {
  return (
    artifact.kind === 'assistant' &&
    actionCalls(artifact).length === 0 &&
    textOf(artifact).includes(STATUS_HALT_CONTEXT_LIMIT)
  );
}
