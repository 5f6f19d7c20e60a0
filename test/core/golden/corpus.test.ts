// Goldens of the real recorded transcripts: deterministic bytes, a lossless round trip through
// parseGolden, no absolute path, and a policy edit that shows up as drift with its cause.
import { describe, expect, it } from 'vitest';
import { diffGoldens } from '../../../src/core/golden/diff.js';
import { buildGolden, parseGolden } from '../../../src/core/golden/golden.js';
import { stableStringify } from '../../../src/core/golden/stable-json.js';
import { DEFAULT_POLICY, policyFromObject } from '../../../src/core/policy/index.js';
import type { Policy } from '../../../src/core/policy/index.js';
import { buildReport } from '../../../src/core/report/report.js';
import { stabilizeTranscript } from '../../../src/core/stabilize/stabilize.js';
import type { Tokenizer } from '../../../src/core/tokens/tokenizer.js';
import type { Transcript } from '../../../src/core/types.js';
import { validateResult } from '../../../src/core/validate/validate.js';
import { loadTranscript } from '../../../src/io/load-transcript.js';
import { loadTokenizer } from '../../../src/tokens/load.js';
import {
  CORPUS,
  HAS_CORPUS,
  REPO,
  awaitingEntry,
  corpusFiles,
  unclassifiedMessage,
  warnIfNoCorpus,
} from '../../support/corpus.js';

warnIfNoCorpus('golden corpus test');

const { supported: FILES, awaitingReader, unclassified } = corpusFiles();

function goldenText(transcript: Transcript, rel: string, policy: Policy, tokenizer: Tokenizer): string {
  const result = stabilizeTranscript(transcript, { policy, tokenizer });
  const report = buildReport(result, validateResult(transcript, result, { policy, tokenizer }));
  return stableStringify(buildGolden(report, { transcript: rel, policy, tokenizer: { name: tokenizer.name, version: tokenizer.version } }));
}

describe.skipIf(!HAS_CORPUS)('goldens of the recorded corpus', () => {
  it('classifies every recording of the corpus', () => {
    expect(unclassified, unclassifiedMessage(unclassified)).toEqual([]);
    expect(FILES).toContain('claude-code/claude-code-log/dag_compact_after_rewind.jsonl');
  });

  // No golden can be built before issue 13's readers: loading reports the diagnostic, no throw.
  it.each(awaitingReader)('%s: not loaded, awaiting its reader', async (rel) => {
    const loaded = await loadTranscript(rel, { cwd: CORPUS });
    expect(loaded.ok).toBe(false);
    if (loaded.ok) return;
    const { code, line, column } = awaitingEntry(rel)?.diagnostic ?? {};
    expect(loaded.diagnostics.map((d) => `${d.line}:${d.column} ${d.code}`)).toContain(`${line}:${column} ${code}`);
  });

  it.each(FILES)('%s', async (rel) => {
    const loaded = await loadTranscript(rel, { cwd: CORPUS });
    expect(loaded.ok).toBe(true);
    if (!loaded.ok) return;
    const tokenizer = await loadTokenizer(DEFAULT_POLICY.tokenizer);
    const text = goldenText(loaded.transcript, rel, DEFAULT_POLICY, tokenizer);

    expect(goldenText(loaded.transcript, rel, DEFAULT_POLICY, tokenizer)).toBe(text);
    const parsed = parseGolden(text, `golden/${rel}.golden.json`);
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(stableStringify(parsed.golden)).toBe(text);
    expect(text).not.toContain(CORPUS);
    expect(text).not.toContain(REPO);

    const halved = policyFromObject({ budget: Math.max(1, Math.floor(parsed.golden.budget.used / 2)) }, { file: 'p.yml' });
    if (!halved.ok) throw new Error('the halved policy is valid');
    const edited = parseGolden(goldenText(loaded.transcript, rel, halved.policy, tokenizer), 'g.json');
    if (!edited.ok) throw new Error('the edited golden parses');
    const diff = diffGoldens(parsed.golden, edited.golden);
    expect(diff.equal).toBe(false);
    expect(diff.causes).toEqual(['policy changed']);
    if (parsed.golden.budget.used > 1) expect(diff.fates.length + diff.checks.length).toBeGreaterThan(0);
  });
});
