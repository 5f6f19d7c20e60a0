// Expected artifact counts of an aider chat history (or a documentation page showing one), computed
// from the raw Markdown with plain code and without any project code: an independent oracle for
// the corpus test. Rules (docs/formats.md, aider): the last session (`# aider chat started at`
// headings; a page without one is one session), front matter, the title and introduction before
// the first chat line and the `chat-transcript` div wrappers left out; then every run of `#### `
// lines (but `<blank>`), of `> ` lines and of other lines is one artifact. aider records no tool
// calls, so nothing pairs.
import type { Expected } from './corpus-expectations.js';

type Kind = 'user' | 'quote' | 'text' | 'blank' | 'wrapper';

function kindOf(line: string): Kind {
  if (line.trim() === '') return 'blank';
  if (line.startsWith('#### ') || line.trimEnd() === '####') return 'user';
  if (line.startsWith('> ') || line.trimEnd() === '>') return 'quote';
  if (/^<div class="chat-transcript"/.test(line.trim()) || line.trim() === '</div>') return 'wrapper';
  return 'text';
}

export function expectAider(text: string): Expected {
  let lines = text.split(/\r?\n/);
  const headings = lines.flatMap((l, i) => (l.startsWith('# aider chat started at') ? [i] : []));
  if (headings.length > 0) {
    lines = lines.slice((headings[headings.length - 1] as number) + 1);
  } else {
    if (lines[0]?.trim() === '---') lines = lines.slice(lines.indexOf('---', 1) + 1);
    const first = lines.findIndex((l) => ['user', 'quote', 'wrapper'].includes(kindOf(l)));
    lines = lines.slice(Math.max(0, first));
  }

  const kinds: Kind[] = [];
  const users: string[][] = [];
  let fence = '';
  for (const line of lines) {
    if (fence !== '') {
      if (line.trim().startsWith(fence) && /^[`~]+$/.test(line.trim())) fence = '';
      kinds.push('text');
      continue;
    }
    const kind = kindOf(line);
    const open = /^\s*(`{3,}|~{3,})/.exec(line);
    if (kind === 'text' && open) fence = open[1] as string;
    if (kind === 'user') {
      if (kinds[kinds.length - 1] !== 'user') users.push([]);
      users[users.length - 1]?.push(line.replace(/^####\s?/, '').trim());
    }
    kinds.push(kind);
  }

  let artifacts = 0;
  let previous: Kind = 'blank';
  for (const kind of kinds) {
    // A blank line ends a user input or a block of output; a reply goes on across paragraphs.
    if (kind === 'blank' || kind === 'wrapper') {
      if (previous !== 'text' || kind === 'wrapper') previous = 'blank';
      continue;
    }
    if (kind !== previous) artifacts++;
    previous = kind;
  }
  // Inputs aider logged as `<blank>` (nothing sent) or that hold no text are no artifacts.
  artifacts -= users.filter((u) => u.join('') === '' || u.join('\n') === '<blank>').length;

  return {
    format: 'aider',
    artifacts,
    pairedResults: 0,
    unpairedCalls: 0,
    sidechain: 0,
    invalidLines: 0,
  };
}
