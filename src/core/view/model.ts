// What the HTML viewer shows: one page per run (`view`, `check --html`), every transcript of the
// run with its outcome, the context this run produced and, for a drift, the stored golden beside
// it. Built from goldens only, which hold the masked context: the page never sees raw text.
import type { ReportSummary, TranscriptOutcome } from '../golden/check-report.js';
import type { Golden } from '../golden/golden.js';
import type { AbsentArtifact } from './absent.js';

export interface ViewTranscript {
  /** The transcript's outcome as the check report has it (violations, diff, picture, note). */
  outcome: TranscriptOutcome;
  /** The golden this run produced; null when the transcript could not be read or stabilized. */
  head: Golden | null;
  /** The stored golden, when it exists and can be read (for a drift: the side to compare with). */
  stored: Golden | null;
  /**
   * Kind and size of the artifacts the context left out (the golden keeps only their ledger
   * entries), from the run that read the transcript; absent: the page says what the goldens say.
   */
  absent?: AbsentArtifact[];
}

export interface ViewDocument {
  tool: { name: string; version: string };
  policy: { source: string; hash: string };
  tokenizer: { name: string; version: string };
  /**
   * The policy's `pii.replacement` template (e.g. `[REDACTED_{TYPE}]`): the page finds masked
   * spans by it and highlights them by type.
   */
  replacement: string;
  ci: boolean;
  summary: ReportSummary;
  /** In the order the human reports list them (what broke first). */
  transcripts: ViewTranscript[];
}
