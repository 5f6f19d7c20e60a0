// `guardian checkpoint` input: a JSON patch from `--file PATH` (or `--file -` for stdin) and
// flags, merged into one TaskStatePatch (flags applied after the file).
import { parseStatePatch, mergePatches } from '../../core/guardian/patch.js';
import type { TaskStatePatch, TextListField } from '../../core/guardian/patch.js';
import type { Diagnostic } from '../../core/types.js';
import { readInput } from '../../io/read-input.js';
import { UsageError, parseChoice } from '../args.js';
import type { CliIO } from '../command.js';

/** A patch is a few kilobytes; this keeps a wrong file or stream from being read whole. */
export const MAX_PATCH_BYTES = 1024 * 1024;

export const PATCH_OPTIONS = {
  file: { type: 'string' },
  goal: { type: 'string' },
  phase: { type: 'string' },
  'next-action': { type: 'string' },
  'last-action-summary': { type: 'string' },
  outcome: { type: 'string' },
  completed: { type: 'string', multiple: true },
  failed: { type: 'string', multiple: true },
  decision: { type: 'string', multiple: true },
  blocker: { type: 'string', multiple: true },
  'resolve-blocker': { type: 'string', multiple: true },
  artifact: { type: 'string', multiple: true },
  constraint: { type: 'string', multiple: true },
  invariant: { type: 'string', multiple: true },
  'tool-output': { type: 'string', multiple: true },
} as const;

export interface PatchFlags {
  file?: string;
  goal?: string;
  phase?: string;
  'next-action'?: string;
  'last-action-summary'?: string;
  outcome?: string;
  completed?: string[];
  failed?: string[];
  decision?: string[];
  blocker?: string[];
  'resolve-blocker'?: string[];
  artifact?: string[];
  constraint?: string[];
  invariant?: string[];
  'tool-output'?: string[];
}

const APPEND_FLAGS: readonly [keyof PatchFlags, TextListField][] = [
  ['completed', 'completed_steps'],
  ['failed', 'failed_attempts'],
  ['decision', 'decisions'],
  ['blocker', 'blockers'],
  ['constraint', 'constraints'],
  ['invariant', 'invariants'],
  ['tool-output', 'tool_outputs'],
];

/** The patch the flags describe (without --file). */
export function patchFromFlags(flags: PatchFlags): TaskStatePatch {
  const patch: TaskStatePatch = {};
  if (flags.goal !== undefined) patch.goal = flags.goal;
  if (flags.phase !== undefined) patch.current_phase = flags.phase;
  if (flags['next-action'] !== undefined) patch.next_action = flags['next-action'];
  const summary = flags['last-action-summary'];
  if ((summary === undefined) !== (flags.outcome === undefined)) {
    throw new UsageError('--last-action-summary and --outcome go together: give both or neither.');
  }
  if (summary !== undefined && flags.outcome !== undefined) {
    patch.last_action = {
      summary,
      outcome: parseChoice('--outcome', flags.outcome, ['success', 'failure'] as const),
    };
  }
  const append: NonNullable<TaskStatePatch['append']> = {};
  for (const [flag, field] of APPEND_FLAGS) {
    const values = flags[flag];
    if (Array.isArray(values) && values.length > 0) append[field] = values;
  }
  if (flags.artifact !== undefined && flags.artifact.length > 0) {
    if (flags.artifact.some((p) => p.trim() === '')) throw new UsageError('--artifact needs a file path.');
    append.artifacts = flags.artifact;
  }
  if (Object.keys(append).length > 0) patch.append = append;
  if (flags['resolve-blocker'] !== undefined && flags['resolve-blocker'].length > 0) {
    patch.remove = { blockers: flags['resolve-blocker'] };
  }
  return patch;
}

export type PatchInput = { ok: true; patch: TaskStatePatch } | { ok: false; diagnostics: Diagnostic[] };

/** The JSON patch of `--file` merged with the flags; `readStdin` serves `--file -`. */
export async function readPatch(
  flags: PatchFlags,
  io: CliIO,
  readStdin: (maxBytes: number) => Promise<string>,
): Promise<PatchInput> {
  const fromFlags = patchFromFlags(flags);
  if (flags.file === undefined) return { ok: true, patch: fromFlags };
  let text: string;
  let name: string;
  if (flags.file === '-') {
    name = '<stdin>';
    text = await readStdin(MAX_PATCH_BYTES);
  } else {
    const input = await readInput(flags.file, { cwd: io.cwd, maxFileBytes: MAX_PATCH_BYTES });
    if (!input.ok) return { ok: false, diagnostics: [input.error] };
    name = flags.file;
    text = input.text;
  }
  const parsed = parseStatePatch(text, name);
  if (!parsed.ok) return parsed;
  return { ok: true, patch: mergePatches(parsed.patch, fromFlags) };
}

/** Reads all of stdin, refusing more than `maxBytes`. */
export async function readProcessStdin(maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > maxBytes) throw new UsageError(`The patch on stdin is larger than ${maxBytes} bytes.`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}
