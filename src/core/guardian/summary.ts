// The structured summary: a human-readable markdown view of the durable state with one section
// per item of the seed's summary rule. It is always rendered from the state (never edited in
// place), so a summary that disagrees with the state is stale and gets rewritten.
import type { TaskState } from './state.js';

/** Section headings in file order; `summary-parse.ts` compares summaries section by section. */
export const SUMMARY_SECTIONS = [
  'State',
  'Goal',
  'Current phase',
  'Next action',
  'Last action',
  'Completed steps',
  'Failed attempts',
  'Decisions',
  'Files touched',
  'Important tool outputs',
  'Blockers',
  'Invariants',
  'Constraints',
] as const;
export type SummarySection = (typeof SUMMARY_SECTIONS)[number];

const NONE = '_(none)_';

// A value line that starts with `#` would read as a heading and split the section on re-reading.
function escapeLine(line: string): string {
  return /^\s*#/.test(line) ? `\\${line}` : line;
}

function lines(value: string): string[] {
  return value.replace(/\r\n?/g, '\n').split('\n').map(escapeLine);
}

function paragraph(value: string): string[] {
  return value.trim() === '' ? [NONE] : lines(value.trim());
}

function item(value: string): string[] {
  const [first = '', ...rest] = lines(value.trim());
  return [`- ${first}`, ...rest.map((l) => `  ${l}`)];
}

function list(items: readonly string[]): string[] {
  return items.length === 0 ? [NONE] : items.flatMap(item);
}

/** Section bodies, keyed by heading, in SUMMARY_SECTIONS order. */
export function summarySections(state: TaskState): Record<SummarySection, string[]> {
  return {
    State: [`- Updated: ${state.updated_at}`, `- Turn: ${state.turn}`],
    Goal: paragraph(state.goal),
    'Current phase': paragraph(state.current_phase),
    'Next action': paragraph(state.next_action),
    'Last action': [
      `- Outcome: ${state.last_action.outcome}`,
      ...(state.last_action.summary.trim() === '' ? [] : item(`Summary: ${state.last_action.summary}`)),
    ],
    'Completed steps': list(state.completed_steps),
    'Failed attempts': list(state.failed_attempts),
    Decisions: list(state.decisions),
    'Files touched': list(
      state.artifacts.map((a) => (a.note ? `\`${a.path}\` — ${a.note}` : `\`${a.path}\``)),
    ),
    'Important tool outputs': list(state.tool_outputs),
    Blockers: list(state.blockers),
    Invariants: list(state.invariants),
    Constraints: list(state.constraints),
  };
}

/** The summary file's text: deterministic for a given state (LF, trailing newline). */
export function renderSummary(state: TaskState): string {
  const sections = summarySections(state);
  const out = [
    '# Task summary',
    '',
    '_Rendered from the durable task state (task-state.json). On any disagreement the state wins and this file is rewritten._',
  ];
  for (const name of Object.keys(sections) as SummarySection[]) {
    out.push('', `## ${name}`, '', ...sections[name]);
  }
  return `${out.join('\n')}\n`;
}
