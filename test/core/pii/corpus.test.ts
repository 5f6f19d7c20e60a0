// Masking over the real recorded transcripts (../shared/corpus, read-only third-party data; may
// be absent). They are full of the look-alikes the detectors must leave alone: ids, timestamps,
// versions, UUIDs, hashes, dates, flight and order numbers.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findPii, maskText } from '../../../src/core/pii/mask.js';
import { builtinDetectors, createDetectors } from '../../../src/core/pii/registry.js';
import { BUILTIN_PII_TYPES } from '../../../src/core/pii/types.js';
import {
  CORPUS,
  HAS_CORPUS as present,
  corpusFiles,
  unclassifiedMessage,
  warnIfNoCorpus,
} from '../../support/corpus.js';

warnIfNoCorpus('PII corpus tests');

/**
 * Known look-alikes the built-in detectors still flag: `file: type "text"`. None since issue 11
 * (OpenHands' http.server banner binds 0.0.0.0, the unspecified address, which is no one's address
 * and is no longer masked).
 */
const KNOWN_FALSE_POSITIVES: string[] = [];

const STD = { replacement: '[REDACTED_{TYPE}]', allow: [] };

describe.skipIf(!present)('PII masking over the corpus', () => {
  // Every recording, with a reader or not: masking works on any text (aider's markdown included).
  const { all, unclassified } = corpusFiles();
  const files = all.map((rel) => path.join(CORPUS, rel));

  it('has transcripts to check, every one classified', () => {
    expect(files.length).toBeGreaterThan(5);
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
  });

  it('finds only the e-mail addresses the recordings contain, and the known look-alikes', () => {
    // The recordings hold synthetic customer e-mails (tau-bench) and a package author's address;
    // no phone, card, IBAN, SSN, IP or credential. Any other finding is a look-alike: it must be
    // listed in KNOWN_FALSE_POSITIVES (issue 11) rather than widen this expectation.
    const types = new Set<string>();
    const others: string[] = [];
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const m of findPii(text, builtinDetectors(), [])) {
        types.add(m.type);
        if (m.type !== 'email')
          others.push(
            `${path.relative(CORPUS, file)}: ${m.type} ${JSON.stringify(text.slice(m.start, m.end))}`,
          );
      }
    }
    expect([...types].sort()).toEqual(['email']);
    expect(others).toEqual(KNOWN_FALSE_POSITIVES);
  });

  for (const [label, digitRun] of [
    ['built-ins', 0],
    ['built-ins and digit_run 3', 3],
  ] as const) {
    it(`masking is idempotent and leaves nothing to find (${label})`, () => {
      const detectors = createDetectors({
        detectors: [...BUILTIN_PII_TYPES],
        digit_run: digitRun,
        rules: [],
      });
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        const once = maskText(text, detectors, STD);
        expect(maskText(once.text, detectors, STD).text, path.relative(CORPUS, file)).toBe(once.text);
        expect(findPii(once.text, detectors, [], STD.replacement)).toEqual([]);
      }
    });
  }
});
