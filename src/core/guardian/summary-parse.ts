// Reads a summary file back into sections to decide whether it conflicts with the durable
// state. Comparison is per section after whitespace normalization, so re-wrapping blank lines
// or trailing spaces is not a conflict, while any changed value is. Sections this module does
// not write (a human's extra notes) are ignored.
import { SUMMARY_SECTIONS, summarySections } from './summary.js';
import type { SummarySection } from './summary.js';
import type { TaskState } from './state.js';

export type SectionProblem = 'missing' | 'differs' | 'duplicate';

export interface SummaryConflict {
  section: SummarySection;
  problem: SectionProblem;
}

const HEADING = /^## (.*\S)\s*$/;

/** `## Heading` → body lines, for every level-2 heading (repeated headings collect every body). */
export function parseSummarySections(text: string): Map<string, string[][]> {
  const out = new Map<string, string[][]>();
  let current: string[] | undefined;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    const heading = HEADING.exec(line);
    if (heading) {
      const name = heading[1] ?? '';
      current = [];
      out.set(name, [...(out.get(name) ?? []), current]);
    } else {
      current?.push(line);
    }
  }
  return out;
}

function normalize(body: readonly string[]): string {
  return body
    .map((l) => l.trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Every section of the summary rule that is missing, repeated or different from the state. */
export function summaryConflicts(state: TaskState, summaryText: string): SummaryConflict[] {
  const expected = summarySections(state);
  const actual = parseSummarySections(summaryText);
  const out: SummaryConflict[] = [];
  for (const section of SUMMARY_SECTIONS) {
    const bodies = actual.get(section);
    if (bodies === undefined) out.push({ section, problem: 'missing' });
    else if (bodies.length > 1) out.push({ section, problem: 'duplicate' });
    else if (normalize(bodies[0] ?? []) !== normalize(expected[section]))
      out.push({ section, problem: 'differs' });
  }
  return out;
}
