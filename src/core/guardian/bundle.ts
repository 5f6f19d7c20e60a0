// The working bundle (runtime loop step 3): exactly the fields the next major action needs,
// rebuilt from durable state before each one, instead of the whole state file or raw history.
import type { TaskState } from './state.js';

export interface WorkingBundle {
  goal: string;
  phase: string;
  next_action: string;
  /** The last action when it succeeded; after a failure, the latest completed step; else null. */
  last_successful_action: string | null;
  constraints: string[];
  /** Paths listed in the state's artifacts, then paths named in next_action, without repeats. */
  relevant_artifacts: string[];
}

// A path-like token: has a slash, or ends in a dot and a short alphanumeric extension
// of 2–8 characters (`src/app.ts`, `./run.sh`, `README.md`). Version numbers (`1.2`), `e.g.` and
// sentence ends are not paths.
const PATH_TOKEN =
  /(?:^|[\s`'"(<[])((?:\.{0,2}\/)?[\w@.+-]*(?:\/[\w@.+-]+)+\/?|[\w@+-][\w@.+-]*\.[A-Za-z][A-Za-z0-9]{1,7})(?=$|[\s`'")>\],;:!?]|\.(?:\s|$))/g;

/** Paths explicitly named in a text such as next_action (the seed's "files required by next_action"). */
export function pathsNamedIn(textValue: string): string[] {
  const out: string[] = [];
  for (const match of textValue.matchAll(PATH_TOKEN)) {
    const token = match[1];
    if (token !== undefined && token !== '/' && !out.includes(token)) out.push(token);
  }
  return out;
}

function lastSuccessfulAction(state: TaskState): string | null {
  if (state.last_action.outcome === 'success' && state.last_action.summary.trim() !== '') {
    return state.last_action.summary;
  }
  if (state.last_action.outcome === 'failure') return state.completed_steps.at(-1) ?? null;
  return null;
}

/** Never guesses: absent values stay empty or null. */
export function buildWorkingBundle(state: TaskState): WorkingBundle {
  const relevant = state.artifacts.map((a) => a.path);
  for (const p of pathsNamedIn(state.next_action)) if (!relevant.includes(p)) relevant.push(p);
  return {
    goal: state.goal,
    phase: state.current_phase,
    next_action: state.next_action,
    last_successful_action: lastSuccessfulAction(state),
    constraints: [...state.constraints],
    relevant_artifacts: relevant,
  };
}

function bulletList(items: readonly string[]): string[] {
  return items.length === 0 ? ['_(none)_'] : items.map((i) => `- ${i.replace(/\r?\n/g, ' ')}`);
}

/** The bundle as a short markdown block for a prompt. */
export function renderBundleMarkdown(bundle: WorkingBundle): string {
  const value = (v: string | null) => (v === null || v.trim() === '' ? '_(none)_' : v.trim());
  return [
    '# Working bundle',
    '',
    `**Goal:** ${value(bundle.goal)}`,
    '',
    `**Phase:** ${value(bundle.phase)}`,
    '',
    `**Next action:** ${value(bundle.next_action)}`,
    '',
    `**Last successful action:** ${value(bundle.last_successful_action)}`,
    '',
    '**Constraints:**',
    ...bulletList(bundle.constraints),
    '',
    '**Relevant artifacts:**',
    ...bulletList(bundle.relevant_artifacts.map((p) => `\`${p}\``)),
    '',
  ].join('\n');
}
