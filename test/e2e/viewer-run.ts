// A check run of any size for the viewer's tests, made in memory in a moment: N transcripts, each
// a copy of one bundled example under its own name, with their report and goldens. `mixed` makes
// every fourth one a pass, a new transcript or an unreadable one; otherwise all drift, from a
// stored golden that differs in every text. Lookups in `goldens` parse the transcript's goldens
// anew, as the run's spill (golden-spill.ts) gives them back.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TranscriptGoldens } from '../../src/cli/check/golden-run.js';
import { CHECK_REPORT_SCHEMA, summarize } from '../../src/core/golden/check-report.js';
import type { CheckReport, TranscriptOutcome } from '../../src/core/golden/check-report.js';
import { diffGoldens, unifiedGoldenDiff } from '../../src/core/golden/diff.js';
import { parseGolden } from '../../src/core/golden/golden.js';
import type { Golden } from '../../src/core/golden/golden.js';
import { buildPicture } from '../../src/core/golden/picture.js';
import { sortOutcomes } from '../../src/core/golden/check-report.js';
import { stableStringify } from '../../src/core/golden/stable-json.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
export const EXAMPLE = 'examples/transcripts/session.claude-code.jsonl';
export const REPLACEMENT = '[REDACTED_{TYPE}]';

export interface ViewerRun {
  report: CheckReport;
  goldens: ReadonlyMap<string, TranscriptGoldens>;
}

function parsed(text: string, example: string): Golden {
  const result = parseGolden(text, example);
  if (!result.ok) throw new Error('the example golden does not parse');
  return result.golden;
}

/** `example`: a bundled transcript with a golden in golden/ (the bench takes a larger one). */
export function viewerRun(n: number, mixed = false, example = EXAMPLE): ViewerRun {
  const headText = readFileSync(path.join(REPO, 'golden', `${example}.golden.json`), 'utf8');
  const head = parsed(headText, example);
  const stored = parsed(headText, example);
  for (const item of stored.context) if (typeof item.content === 'string') item.content += ' (as stored)';
  const storedText = stableStringify(stored);
  const diff = diffGoldens(stored, head);
  // Shared by every outcome: the report stays small, so what the page adds shows.
  const unified = unifiedGoldenDiff(`golden/${example}.golden.json`, storedText, headText);
  const picture = buildPicture(head.ledger, head.context, head.budget.limit);
  // The goldens of each kind as JSON, one copy for all transcripts of that kind.
  const drifted = JSON.stringify({ head, stored });
  const passed = JSON.stringify({ head, stored: head });
  const added = JSON.stringify({ head, stored: null });
  const unreadable = JSON.stringify({ head: null, stored });
  const texts = new Map<string, string>();
  const outcomes = Array.from({ length: n }, (_, i): TranscriptOutcome => {
    const transcript = `t/${String(i).padStart(5, '0')}-${path.basename(example)}`;
    const golden = `golden/${transcript}.golden.json`;
    const common = {
      transcript,
      golden,
      status: 'ok',
      budget: { limit: head.budget.limit, used: head.budget.used },
      violations: [],
      picture,
    };
    const kind = mixed ? i % 4 : 0;
    if (kind === 1) {
      texts.set(transcript, passed);
      return { ...common, outcome: 'pass' };
    }
    if (kind === 2) {
      texts.set(transcript, added);
      return { ...common, outcome: 'new' };
    }
    if (kind === 3) {
      texts.set(transcript, unreadable);
      return { transcript, golden, outcome: 'error', violations: [] };
    }
    texts.set(transcript, drifted);
    return { ...common, outcome: 'drift', drift_severity: 'error', diff, unified };
  });
  const transcripts = sortOutcomes(outcomes);
  const report: CheckReport = {
    schema_version: CHECK_REPORT_SCHEMA,
    tool: { name: 'context-stability', version: '0.0.0-test' },
    ci: true,
    policy: { source: 'default', hash: 'sha256:test' },
    tokenizer: { name: 'o200k_base', version: 'test' },
    shard: null,
    golden_dir: 'golden',
    golden_files: transcripts.map((t) => t.golden),
    transcripts,
    obsolete: [],
    summary: summarize(transcripts, []),
  };
  const goldens = {
    get: (name: string) => {
      const text = texts.get(name);
      return text === undefined ? undefined : (JSON.parse(text) as TranscriptGoldens);
    },
    has: (name: string) => texts.has(name),
    get size() {
      return texts.size;
    },
  } as unknown as ReadonlyMap<string, TranscriptGoldens>;
  return { report, goldens };
}
