import { describe, expect, it } from 'vitest';
import { findCaseCollisions, goldenPathFor } from '../../../src/core/golden/paths.js';

function reason(rel: string): string {
  const r = goldenPathFor(rel, 'golden');
  if (r.ok) throw new Error(`accepted ${rel}`);
  return r.reason;
}

describe('goldenPathFor', () => {
  it('puts the golden under the golden folder, mirroring the transcript path', () => {
    expect(goldenPathFor('examples/transcripts/a.jsonl', 'golden')).toEqual({
      ok: true,
      path: 'golden/examples/transcripts/a.jsonl.golden.json',
    });
    expect(goldenPathFor('a.json', 'ci/golden/')).toEqual({ ok: true, path: 'ci/golden/a.json.golden.json' });
    expect(goldenPathFor('a.json', '')).toEqual({ ok: true, path: 'a.json.golden.json' });
  });

  it('accepts names that only look odd: dots inside, unicode, spaces inside', () => {
    for (const rel of ['a..b.jsonl', '.hidden/x.json', 'ünï cødé/会话.jsonl', 'console.jsonl', 'com10.json', 'nul-ish/a']) {
      expect(goldenPathFor(rel, 'golden').ok, rel).toBe(true);
    }
  });

  it.each([
    ['', /empty/],
    ['/etc/passwd', /absolute/],
    ['C:/work/a.jsonl', /drive letter/],
    ['c:a.jsonl', /drive letter/],
    ['a\\..\\..\\b.jsonl', /backslash/],
    ['../a.jsonl', /segment 1 of 2 is '\.\.'/],
    ['x/../../a.jsonl', /segment 2 of 4 is '\.\.'/],
    ['x/..', /segment 2 of 2 is '\.\.'/],
    ['./a.jsonl', /segment 1 of 2 is '\.'/],
    ['a//b.jsonl', /segment 2 of 3 is empty/],
    ['a/', /segment 2 of 2 is empty/],
    ['a\u0000b', /NUL or a control character/],
    ['a\nb', /control character/],
    ['a\u007fb', /control character/],
    ['CON', /Windows reserved name/],
    ['dir/nul.jsonl', /segment 2 of 2 is a Windows reserved name/],
    ['aux.tar.gz', /Windows reserved name/],
    ['Com1/x.json', /Windows reserved name/],
    ['lpt9.json', /Windows reserved name/],
    ['prn', /Windows reserved name/],
    ['trailing./x.json', /ends in '\.' or a space/],
    ['x.json ', /ends in '\.' or a space/],
    [`${'a'.repeat(250)}.jsonl`, /longer than a file name may be/],
  ])('rejects %j', (rel, why) => {
    expect(reason(rel)).toMatch(why);
  });

  it('never quotes the rejected path in its reason', () => {
    expect(reason('secret-alice/../x')).not.toContain('alice');
    expect(reason('alice/CON')).not.toContain('alice');
  });
});

describe('findCaseCollisions', () => {
  it('groups paths that differ only in case, each group sorted', () => {
    expect(findCaseCollisions(['b/A.jsonl', 'x.json', 'b/a.jsonl', 'B/a.jsonl', 'y.json', 'X.JSON'])).toEqual([
      ['B/a.jsonl', 'b/A.jsonl', 'b/a.jsonl'],
      ['X.JSON', 'x.json'],
    ]);
  });

  it('also groups the composed and decomposed spelling of one name', () => {
    expect(findCaseCollisions(['caf\u00e9.json', 'cafe\u0301.json'])).toHaveLength(1);
  });

  it('is empty when every path is distinct, and a repeated path is no collision', () => {
    expect(findCaseCollisions(['a.json', 'b.json', 'a.json'])).toEqual([]);
  });
});
