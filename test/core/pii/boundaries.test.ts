// Issue 34 item 5: the values an outside campaign got past the default detectors, into goldens,
// the PR comment and the viewer, masked now in plain text and inside JSON (a tool output, a
// record's id). What stays around a masked value is what the detectors' boundary rules promise:
// the id prefix before a token and the reader's `.0` after an address survive.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { maskJsonText } from '../../../src/core/pii/mask-json.js';
import { maskText } from '../../../src/core/pii/mask.js';
import { defaultDetectors } from '../../../src/core/pii/registry.js';
import { fcOptions } from '../../support/fc.js';
import { body } from './helpers.js';

const OPTS = { replacement: '[{TYPE}]', allow: [] };
const GH = `ghp_${body(36)}`;
const PROJ = `sk-proj-${body(48)}`;

const CASES: [string, string][] = [
  ['id-296-44-2192', 'id-[SSN]'],
  ['#### Error 181-90-1081', '#### Error [SSN]'],
  ['Please read the card number back. 187-24-2083', 'Please read the card number back. [SSN]'],
  [`c-${GH}`, 'c-[SECRET]'],
  [`call_${GH}`, 'call_[SECRET]'],
  [`id-${PROJ}`, 'id-[SECRET]'],
  ['user@example.com.0', '[EMAIL].0'],
];

describe('default detectors at the boundaries the campaign found (issue 34)', () => {
  it.each(CASES)('masks %j in plain text', (text, masked) => {
    expect(maskText(`${text}\n`, defaultDetectors(), OPTS).text).toBe(`${masked}\n`);
  });

  it.each(CASES)('masks %j as a JSON string value and as an id', (text, masked) => {
    const json = JSON.stringify({ uuid: text, content: [{ type: 'text', text }] });
    const result = maskJsonText(json, defaultDetectors(), OPTS);
    expect(result?.text).toBe(JSON.stringify({ uuid: masked, content: [{ type: 'text', text: masked }] }));
  });
});

describe('the boundary rule, property-based (issue 34)', () => {
  // Before a value: the start of the text, punctuation, a line break, a JSON escape, or an id
  // prefix ending in `-`/`_`; after it: the end, punctuation, a line break or a `.N` counter.
  const before = fc.oneof(
    fc.constantFrom('', ' ', '\n', '(', '"', "'", '=', '/', ': ', '\\n', '#### ', 'x. ', '{"note":"'),
    fc
      // Ending in a letter: `a0-187-24-2083` reads as a longer dash-grouped number, deliberately.
      .tuple(fc.stringMatching(/^[a-z](?:[a-z0-9]{0,10}[a-z])?$/), fc.constantFrom('-', '_'))
      .map(([id, sep]) => `${id}${sep}`)
      // A generic cue glued on labels nothing, but a specific one (`sku-`) still makes a part number.
      .filter(
        (p) =>
          !/^(?:part|pn|sku|model|item|serial|order|invoice|ticket|case|ref|reference|catalog|catalogue|product|lot|batch)[-_]$/.test(
            p,
          ),
      ),
  );
  const after = fc.constantFrom('', ' ', '\n', ')', '"', "'", ';', ',', '.', '.0', '.12', '\\n');
  const value = fc.constantFrom(
    ['ssn', '187-24-2083'],
    ['email', 'jane.doe@example.com'],
    ['secret', GH],
    ['secret', PROJ],
  );

  it('masks the whole value and nothing of what stands around it', () => {
    fc.assert(
      fc.property(before, value, after, (pre, [type, v], post) => {
        const masked = maskText(`${pre}${v}${post}`, defaultDetectors(), OPTS).text;
        // A local part may hold `-` and `_`: an address takes an id prefix glued to it along.
        const kept = type === 'email' ? pre.replace(/[a-z0-9]+[-_]$/, '') : pre;
        expect(masked).toBe(`${kept}[${type.toUpperCase()}]${post}`);
      }),
      fcOptions(300),
    );
  });
});
