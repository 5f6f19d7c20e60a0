// A generated aider chat history of many sessions, some of them empty (issue 31 tests).

/** Session n: empty when `empty` has it (every other one only start-up lines, some none at all). */
export function aiderHistory(count: number, empty: ReadonlySet<number>): string {
  const parts: string[] = [];
  for (let n = 1; n <= count; n++) {
    parts.push(`# aider chat started at 2024-11-${String(1 + (n % 28)).padStart(2, '0')} 09:12:45\n`);
    if (n % 2 === 0) parts.push('> /home/dev/.local/bin/aider --model gpt-4o  \n> Aider v0.62.1  \n');
    if (empty.has(n)) continue;
    parts.push(`#### change number ${n}  \n\nDone: change ${n} is in.\n\n> Applied edit to app.py  \n`);
  }
  return parts.join('\n');
}
