// An aider chat history's cost is linear in its size, whatever its number of sessions (issue 34,
// item 3: 10,000 sessions, 780 KB, took 215 s when each session read the whole file again). Each
// session becomes a transcript `FILE#N` with a golden path of its own; reading a file of many
// sessions and naming their goldens is compared with reading the same bytes as one session.
import { fastestRun } from '../../support/timing.js';
import { describe, expect, it } from 'vitest';
import { goldenPathFor } from '../../../src/core/golden/paths.js';
import { readSessions } from '../../../src/core/readers/index.js';

const HEADING = '# aider chat started at';

function session(n: number): string {
  const at = `2024-11-01 09:${String(Math.floor(n / 60) % 60).padStart(2, '0')}:${String(n % 60).padStart(2, '0')}`;
  return `${HEADING} ${at}\n\n#### change number ${n}  \n\nDone: change ${n} is in.\n\n> Applied edit to app.py  \n\n`;
}

/** `count` sessions; or, `asOne`, the same bytes with every heading but the first made a `> ` line. */
function history(count: number, asOne: boolean): string {
  const parts = Array.from({ length: count }, (_, i) => session(i + 1));
  return parts.map((p, i) => (asOne && i > 0 ? p.replace('#', '>') : p)).join('');
}

/** Every session read and given its golden path, as `check` plans them. */
function readAll(text: string): number {
  const read = readSessions(text, { file: 'chat/.aider.chat.history.md' });
  let named = 0;
  for (const { name, result } of read.sessions) {
    if (result.ok && goldenPathFor(name, 'golden').ok) named++;
  }
  return named;
}

describe('aider sessions are read in time linear in the file', () => {
  it('1,500 sessions cost about what the same bytes cost as one session', () => {
    const many = history(1500, false);
    const one = history(1500, true);
    expect(many.length).toBe(one.length);
    expect(readAll(many)).toBe(1500);
    expect(readAll(one)).toBe(1);
    // Measured 0.6-2.6 on a busy 2-core machine; reading the whole file again for each session
    // (the defect) made it over 150 at 1,000 sessions, and it grows with their number.
    const ratio = fastestRun(() => readAll(many)) / fastestRun(() => readAll(one));
    expect(ratio).toBeLessThan(15);
  });
});
