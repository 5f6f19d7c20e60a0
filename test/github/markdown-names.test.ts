// Issue 34 item 11: names in the Markdown surfaces (job summary, PR comment, `check --format
// markdown`) rendered as GitHub renders them (GitHub-flavoured Markdown, by `marked`): a name that
// looks like Markdown block syntax (`# `, `> `, `- `, `1. `, `|`, backticks, `<details>`) makes no
// heading, quote, list, table, code or details of its own, and a name holding `@` mentions (and
// notifies) no one: GitHub decodes entities before it looks for mentions, so `&#64;` was not enough.
import { marked } from 'marked';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../src/core/golden/check-report.js';
import { buildCommentBody } from '../../src/github/comment.js';
import { escapeText } from '../../src/github/html.js';
import { buildJobSummary, renderMarkdownReport } from '../../src/github/summary.js';
import {
  checkReport,
  driftOutcome,
  errorOutcome,
  outcome,
  passOutcome,
  violationsOutcome,
} from './support.js';

/** A report where `name` is a transcript (failing and passing), a file of a diagnostic, an id and a message. */
function reportNaming(name: string): CheckReport {
  const failing = violationsOutcome(`${name}.jsonl`, name);
  failing.violations = failing.violations.map((v) => ({ ...v, id: name }));
  return checkReport(
    [
      failing,
      driftOutcome(`${name}2.jsonl`),
      errorOutcome(`${name}3.jsonl`),
      passOutcome(`${name}4.jsonl`, [name]),
      outcome(`${name}5.jsonl`, 'new', { written: false }),
    ],
    { goldenFiles: [`golden/${name}6.jsonl.golden.json`] },
  );
}

const SURFACES: Record<string, (r: CheckReport) => string> = {
  summary: (r) => buildJobSummary(r),
  comment: (r) => buildCommentBody(r),
  markdown: (r) => renderMarkdownReport(r),
};

/** How many of each block element the rendered HTML holds. */
function structure(md: string): Record<string, number> {
  const html = marked.parse(md, { async: false, gfm: true });
  const out: Record<string, number> = {};
  for (const tag of [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'ul',
    'ol',
    'li',
    'pre',
    'code',
    'table',
    'tr',
    'td',
    'details',
    'summary',
    'hr',
    'p',
  ]) {
    out[tag] = html.match(new RegExp(`<${tag}[\\s>]`, 'g'))?.length ?? 0;
  }
  return out;
}

const BLOCK_NAMES = [
  '#',
  '-',
  '1.',
  '- - -',
  '===',
  '# notes',
  '## notes',
  '> notes',
  '- notes',
  '+ notes',
  '1. notes',
  '3) notes',
  '| notes |',
  '```notes',
  '~~~notes',
  '<details>notes',
  '    notes',
  '=== notes',
  '---',
];

describe('a name that looks like Markdown block syntax', () => {
  for (const [surface, render] of Object.entries(SURFACES)) {
    it(`makes no element of its own in the ${surface}`, () => {
      const plain = structure(render(reportNaming('notes')));
      for (const name of BLOCK_NAMES) expect(structure(render(reportNaming(name))), name).toEqual(plain);
    });
  }

  it('is escaped at its start, and renders as the same characters', () => {
    for (const name of BLOCK_NAMES) {
      const html = marked.parseInline(escapeText(name), { async: false });
      const text = decode(html);
      expect(text, name).toBe(name);
    }
  });
});

/** The text of rendered HTML outside code (GitHub makes no mention inside code), entities decoded. */
function mentionableText(html: string): string {
  const prose = html.replace(/<(pre|code)[\s>][\s\S]*?<\/\1>/g, ' ').replace(/<[^>]*>/g, ' ');
  return decode(prose);
}

function decode(html: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", commat: '@' };
  return html
    .replace(/&#x([0-9a-f]+);/gi, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/&#(\d+);/g, (_, d: string) => String.fromCodePoint(Number(d)))
    .replace(/&([a-z]+);/gi, (m, n: string) => named[n.toLowerCase()] ?? m);
}

describe('a name holding @', () => {
  const names = ['t/@octocat', 'ping @acme/team', 'a@b', '@x', 'cc&#64;someone', 'x @&#64;y'];
  for (const [surface, render] of Object.entries(SURFACES)) {
    it(`mentions no one in the ${surface}`, () => {
      for (const name of names) {
        const md = render(reportNaming(name));
        const text = mentionableText(marked.parse(md, { async: false, gfm: true }));
        expect(text, name).not.toMatch(/@[A-Za-z0-9_-]/);
        // Outside code blocks (the unified diff shows the golden path verbatim), no `@` entity.
        const prose = md.replace(/^(`{3,})diff\n[\s\S]*?\n\1$/gm, '');
        expect(prose, name).not.toContain('&#64;');
        // The name is still there, readable.
        if (!name.includes('&')) expect(text.replace(/\u200D/g, ''), name).toContain(name);
      }
    });
  }

  it('keeps a command in <code> exactly as it is typed', () => {
    const md = buildJobSummary(checkReport([driftOutcome('t/@octocat.jsonl')]));
    const accept = md.split('\n').find((l) => l.startsWith('- accept the change: ')) ?? '';
    const code = decode(/<code>(.*)<\/code>/.exec(accept)?.[1] ?? '');
    expect(code).toBe('npx context-stability update t/@octocat.jsonl');
  });
});
