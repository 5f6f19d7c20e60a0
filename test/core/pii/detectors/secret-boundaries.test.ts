// Issue 34 item 5: where a credential may start. An outside campaign planted tokens inside ids
// (`c-ghp_…`, `call_ghp_…`, `id-sk-proj-…`) and the formats' "no token character before" rule let
// them through. A format's value now starts at a token boundary (start of text, any character that
// is not a letter, digit, `_` or `-`, or the letter of a `\n`-style escape), or right after the `-`
// or `_` that ends a short id prefix (`call_`, `c-`, `toolu_01ab_`). Glued to a letter or digit it
// is still part of a longer word (`xghp_…`), and a prefix that is also an ordinary word part
// (`secret_`, `SK`, `dapi`) still needs a token boundary. Fixtures are assembled at run time.
import { describe, expect, it } from 'vitest';
import { findSecrets } from '../../../../src/core/pii/detectors/secret.js';
import { body, matchedTexts } from '../helpers.js';

const HEX = '0123456789abcdef';
const GH = `ghp_${body(36)}`;
const PROJ = `sk-proj-${body(48)}`;
const ANT = `sk-ant-api03-${body(40)}`;
const GROQ = `gsk_${body(52)}`; // a fixed-length format, its boundary checked in code
const GLPAT = `glpat-${body(20)}`;

describe('secret detector: where a token may start (issue 34)', () => {
  it.each([
    ['c-', GH],
    ['call_', GH],
    ['id-', PROJ],
    ['msg_', ANT],
    ['run-', GROQ],
    ['item_', GLPAT],
    ['toolu_01AbCdEfGh_', GH],
    ['a-b_c-', PROJ],
  ])('finds the token after the id prefix %j', (prefix, token) => {
    expect(matchedTexts(findSecrets, `id: ${prefix}${token} done`)).toEqual([token]);
  });

  it.each([
    ['x=', ';'],
    ['(', ')'],
    ['"', '"'],
    ["'", "'"],
    ['/', '/'],
    ['line\n', '\n'],
    ['{"id":"', '"}'],
    ['{"id":"call_', '"}'],
    ['"hi\\n', '\\n"'],
    ['"a\\t', '"'],
    ['', '.0'],
    ['c-', '.0'],
    ['<', '>'],
    ['`', '`'],
  ])('finds a token between %j and %j', (before, after) => {
    for (const token of [GH, PROJ, GROQ]) {
      expect(matchedTexts(findSecrets, `${before}${token}${after}`)).toEqual([token]);
    }
  });

  it.each([
    [`xghp_${body(36)}`, 'glued to a letter: a longer word'],
    [`9ghp_${body(36)}`, 'glued to a digit'],
    [`Xsk-proj-${body(48)}`, 'glued to a letter'],
    [`agsk_${body(52)}`, 'a fixed-length format glued to a letter'],
    [`client_secret_${body(43)}`, 'secret_ (Notion, legacy) is an ordinary word part'],
    [`GSI1_SK${body(32, HEX)}`, 'SK (Twilio) is an ordinary key-name part'],
    [`my-dapi${body(32, HEX)}`, 'dapi (Databricks) is an ordinary word part'],
    ['task-sk-learn and disk-sk-0', 'sk- inside words'],
    ['a\\\\nghp_' + body(36), 'an escaped backslash then n: the n is a letter glued on'],
  ])('ignores %j (%s)', (text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it('still finds a word-part format at a token boundary', () => {
    const notion = `secret_${body(43)}`;
    expect(matchedTexts(findSecrets, `key "${notion}"`)).toEqual([notion]);
  });
});
