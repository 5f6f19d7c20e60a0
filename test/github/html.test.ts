import { describe, expect, it } from 'vitest';
import {
  codeBlock,
  details,
  escapeText,
  link,
  tableHead,
  tableRow,
  utf8Bytes,
} from '../../src/github/html.js';

describe('escapeText', () => {
  it('turns HTML and markdown markup into entities, on one line', () => {
    expect(escapeText('<script>a & b | `c`</script>\nnext')).toBe(
      '&lt;script&gt;a &amp; b &#124; &#96;c&#96;&lt;/script&gt; next',
    );
  });

  it('cannot mention a user or a team', () => {
    // A joiner after `@`: an entity would be decoded before GitHub looks for mentions.
    expect(escapeText('cc @octocat @acme/team')).toBe('cc @\u200Doctocat @\u200Dacme/team');
  });

  it('opens no block with its first characters', () => {
    expect(escapeText('# notes')).toBe('&#35; notes');
    expect(escapeText('1. notes')).toBe('&#49;. notes');
    expect(escapeText('  - x')).toBe('&#32; - x');
    expect(escapeText('a # b')).toBe('a # b');
    // Only a marker that opens a block is escaped: names read as they are otherwise.
    expect(escapeText('2024.jsonl')).toBe('2024.jsonl');
    expect(escapeText('#1-notes.jsonl')).toBe('#1-notes.jsonl');
    expect(escapeText('---')).toBe('&#45;--');
  });

  it('escapes an entity as text rather than decoding it', () => {
    expect(escapeText('&lt;b&gt;')).toBe('&amp;lt;b&amp;gt;');
  });
});

describe('codeBlock', () => {
  it('uses a fence longer than any backtick run inside', () => {
    expect(codeBlock('a ```` b', 'diff')).toEqual(['`````diff', 'a ```` b', '`````']);
    expect(codeBlock('plain', '')).toEqual(['```', 'plain', '```']);
  });
});

describe('markup helpers', () => {
  it('builds a details element with blank lines around the body', () => {
    expect(details('name', ['- item'])).toEqual([
      '<details><summary>name</summary>',
      '',
      '- item',
      '',
      '</details>',
      '',
    ]);
  });

  it('builds table rows with numeric columns right-aligned', () => {
    expect(tableHead([{ title: 'A' }, { title: 'N', right: true }])).toEqual(['| A | N |', '| --- | ---: |']);
    expect(tableRow(['x', 3])).toBe('| x | 3 |');
  });

  it('links only http(s) URLs, with characters that would end the link encoded', () => {
    expect(link('run', 'https://github.com/o/r/actions/runs/1')).toBe(
      '[run](https://github.com/o/r/actions/runs/1)',
    );
    expect(link('run', 'https://x.test/a)b(c')).toBe('[run](https://x.test/a%29b%28c)');
    expect(link('run', 'javascript:alert(1)')).toBe('run');
    expect(link('run', 'https://x.test/a b')).toBe('run');
  });

  it('counts UTF-8 bytes', () => {
    expect(utf8Bytes('aé日😀')).toBe(1 + 2 + 3 + 4);
  });
});
