// A checkpoint's update to the durable state: scalar fields are replaced, list fields are
// appended to or removed from. Hosts and the CLI (flags or a JSON patch on stdin) both go
// through applyPatch, so one code path decides what a checkpoint writes.
import { z } from 'zod';
import { diagnostic } from '../diagnostics.js';
import { parseJson } from '../json/parse.js';
import type { Diagnostic } from '../types.js';
import { jsonIssueDiagnostics } from './json-issues.js';
import { ArtifactRefSchema, STATE_LIMITS, TaskStateSchema } from './state.js';
import type { ArtifactRef, TaskState } from './state.js';

/** List fields holding plain strings. */
export const TEXT_LIST_FIELDS = [
  'constraints',
  'completed_steps',
  'failed_attempts',
  'decisions',
  'tool_outputs',
  'blockers',
  'invariants',
] as const;
export type TextListField = (typeof TEXT_LIST_FIELDS)[number];

/** Lists that are sets: appending a value already present changes nothing. */
const SET_FIELDS: ReadonlySet<TextListField> = new Set(['constraints', 'blockers', 'invariants']);

const text = () => z.string().max(STATE_LIMITS.maxTextChars);
const texts = () => z.array(text()).max(STATE_LIMITS.maxListItems).optional();
const textLists = () =>
  Object.fromEntries(TEXT_LIST_FIELDS.map((f) => [f, texts()])) as Record<
    TextListField,
    ReturnType<typeof texts>
  >;

export const TaskStatePatchSchema = z.strictObject({
  goal: text().optional(),
  current_phase: text().optional(),
  next_action: text().optional(),
  last_action: z.strictObject({ summary: text(), outcome: z.enum(['success', 'failure']) }).optional(),
  /** Artifacts as a path or `{path, note}`; an appended path already listed updates its note. */
  append: z
    .strictObject({
      ...textLists(),
      artifacts: z
        .array(z.union([z.string().min(1).max(4_096), ArtifactRefSchema]))
        .max(STATE_LIMITS.maxListItems)
        .optional(),
    })
    .optional(),
  /** Exact values to remove; artifacts by path. Removing a value that is not there is an error. */
  remove: z
    .strictObject({
      ...textLists(),
      artifacts: z.array(z.string()).max(STATE_LIMITS.maxListItems).optional(),
    })
    .optional(),
});
export type TaskStatePatch = z.infer<typeof TaskStatePatchSchema>;

export type ParsePatchResult = { ok: true; patch: TaskStatePatch } | { ok: false; diagnostics: Diagnostic[] };

const PATCH_HINT =
  'A patch is one JSON object with any of goal, current_phase, next_action, last_action {summary, outcome}, append {…}, remove {…}.';

/** A JSON patch text (from stdin or `--file`), strictly validated. */
export function parseStatePatch(textValue: string, file: string): ParsePatchResult {
  const parsed = parseJson(textValue, { file });
  if (!parsed.ok) return { ok: false, diagnostics: [parsed.error] };
  const checked = TaskStatePatchSchema.safeParse(parsed.value, { reportInput: true });
  if (checked.success) return { ok: true, patch: checked.data };
  if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
    return {
      ok: false,
      diagnostics: [
        diagnostic(
          'error',
          'guardian-patch',
          { file, line: 1, column: 1 },
          'the patch must be one JSON object.',
          PATCH_HINT,
        ),
      ],
    };
  }
  return {
    ok: false,
    diagnostics: jsonIssueDiagnostics(checked.error.issues, {
      file,
      value: parsed.value,
      positions: parsed.positions,
      code: 'guardian-patch',
      hint: PATCH_HINT,
    }),
  };
}

function concat<T>(a: readonly T[] | undefined, b: readonly T[] | undefined): T[] | undefined {
  return a === undefined && b === undefined ? undefined : [...(a ?? []), ...(b ?? [])];
}

function mergeLists<T extends Partial<Record<string, unknown[]>>>(
  a: T | undefined,
  b: T | undefined,
): T | undefined {
  if (a === undefined || b === undefined) return a ?? b;
  const out: Partial<Record<string, unknown[]>> = {};
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const merged = concat(a[key], b[key]);
    if (merged !== undefined) out[key] = merged;
  }
  return out as T;
}

/** `b` applied after `a`: b's scalars win, list edits accumulate. */
export function mergePatches(a: TaskStatePatch, b: TaskStatePatch): TaskStatePatch {
  const out: TaskStatePatch = { ...a, ...b };
  const append = mergeLists(a.append, b.append);
  const remove = mergeLists(a.remove, b.remove);
  if (append !== undefined) out.append = append;
  if (remove !== undefined) out.remove = remove;
  return out;
}

export type ApplyPatchResult =
  { ok: true; state: TaskState; phase_or_goal_changed: boolean } | { ok: false; problems: string[] };

function toRef(value: string | ArtifactRef): ArtifactRef {
  return typeof value === 'string' ? { path: value } : value;
}

function appendArtifacts(list: ArtifactRef[], added: readonly (string | ArtifactRef)[]): ArtifactRef[] {
  const out = [...list];
  for (const ref of added.map(toRef)) {
    const at = out.findIndex((a) => a.path === ref.path);
    if (at < 0) out.push(ref);
    else if (ref.note !== undefined) out[at] = ref;
  }
  return out;
}

/**
 * The state after one checkpoint: removals, then appends, then scalar fields; `turn` + 1 and
 * `updated_at` set. A failed last action with no failed attempt given records its summary as
 * one, because the runtime contract requires every failure to reach durable state.
 */
export function applyPatch(state: TaskState, patch: TaskStatePatch, updatedAt: string): ApplyPatchResult {
  const problems: string[] = [];
  const next: TaskState = structuredClone(state);

  for (const field of TEXT_LIST_FIELDS) {
    (patch.remove?.[field] ?? []).forEach((value, i) => {
      const at = next[field].indexOf(value);
      if (at < 0) problems.push(`remove.${field}[${i}] matches no entry of ${field}.`);
      else next[field].splice(at, 1);
    });
  }
  (patch.remove?.artifacts ?? []).forEach((path, i) => {
    const at = next.artifacts.findIndex((a) => a.path === path);
    if (at < 0) problems.push(`remove.artifacts[${i}] matches no artifact path.`);
    else next.artifacts.splice(at, 1);
  });

  const append = { ...patch.append };
  if (patch.last_action?.outcome === 'failure' && (append.failed_attempts ?? []).length === 0) {
    const summary = patch.last_action.summary.trim();
    if (summary !== '') append.failed_attempts = [summary];
  }
  for (const field of TEXT_LIST_FIELDS) {
    for (const value of append[field] ?? []) {
      if (!SET_FIELDS.has(field) || !next[field].includes(value)) next[field].push(value);
    }
  }
  next.artifacts = appendArtifacts(next.artifacts, append.artifacts ?? []);

  if (patch.goal !== undefined) next.goal = patch.goal;
  if (patch.current_phase !== undefined) next.current_phase = patch.current_phase;
  if (patch.next_action !== undefined) next.next_action = patch.next_action;
  if (patch.last_action !== undefined) next.last_action = { ...patch.last_action };
  next.turn = state.turn + 1;
  next.updated_at = updatedAt;

  const checked = TaskStateSchema.safeParse(next);
  if (!checked.success) {
    for (const issue of checked.error.issues) {
      problems.push(
        `the updated state is invalid at ${issue.path.map(String).join('.') || 'the top level'}: ${issue.code.replace(/_/g, ' ')}.`,
      );
    }
  }
  if (problems.length > 0 || !checked.success) return { ok: false, problems };
  return {
    ok: true,
    state: checked.data,
    phase_or_goal_changed: next.goal !== state.goal || next.current_phase !== state.current_phase,
  };
}
