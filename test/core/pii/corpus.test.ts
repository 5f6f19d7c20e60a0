// Masking over the real recorded transcripts (../shared/corpus, read-only third-party data; may
// be absent). They are full of the look-alikes the detectors must leave alone: ids, timestamps,
// versions, UUIDs, hashes, dates, flight and order numbers.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findPii, maskText } from '../../../src/core/pii/mask.js';
import { builtinDetectors, createDetectors } from '../../../src/core/pii/registry.js';
import { BUILTIN_PII_TYPES } from '../../../src/core/pii/types.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus');
const present = existsSync(CORPUS);
if (!present) console.warn(`PII corpus tests skipped: ${CORPUS} not found`);

function transcriptFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return name === 'licenses' ? [] : transcriptFiles(full);
    return /\.(json|jsonl|traj)$/.test(name) && name !== 'SOURCES.json' ? [full] : [];
  });
}

const STD = { replacement: '[REDACTED_{TYPE}]', allow: [] };

describe.skipIf(!present)('PII masking over the corpus', () => {
  const files = present ? transcriptFiles(CORPUS) : [];

  it('has transcripts to check', () => {
    expect(files.length).toBeGreaterThan(5);
  });

  it('finds only the e-mail addresses the recordings contain: no false positives elsewhere', () => {
    // The recordings hold synthetic customer e-mails (tau-bench) and a package author's address;
    // no phone, card, IBAN, SSN, IP or credential. Any other finding is a look-alike.
    const types = new Set<string>();
    for (const file of files)
      for (const m of findPii(readFileSync(file, 'utf8'), builtinDetectors(), [])) types.add(m.type);
    expect([...types]).toEqual(['email']);
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
