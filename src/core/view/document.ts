// The viewer's document from a check run: the report's outcomes in the order the human reports
// list them (what broke first) with each transcript's goldens.
import type { CheckReport } from '../golden/check-report.js';
import type { Golden } from '../golden/golden.js';
import { displayOrder } from '../golden/report-order.js';
import type { AbsentArtifact } from './absent.js';
import type { ViewDocument } from './model.js';

type GoldensOf = ReadonlyMap<
  string,
  { head: Golden | null; stored: Golden | null; absent?: AbsentArtifact[] | undefined }
>;

/** The document without its transcripts: what the page's head and every section share. */
export function viewFrameOf(report: CheckReport, replacement: string): Omit<ViewDocument, 'transcripts'> {
  return {
    tool: report.tool,
    policy: report.policy,
    tokenizer: report.tokenizer,
    replacement,
    ci: report.ci,
    summary: report.summary,
  };
}

/** One transcript of the document: its outcome and the goldens the run kept of it. */
export function viewTranscriptOf(
  outcome: CheckReport['transcripts'][number],
  goldens: GoldensOf,
): ViewDocument['transcripts'][number] {
  const g = goldens.get(outcome.transcript);
  const absent = g?.absent;
  return { outcome, head: g?.head ?? null, stored: g?.stored ?? null, ...(absent ? { absent } : {}) };
}

export function buildViewDocument(
  report: CheckReport,
  goldens: GoldensOf,
  replacement: string,
): ViewDocument {
  return {
    ...viewFrameOf(report, replacement),
    transcripts: displayOrder(report).transcripts.map((outcome) => viewTranscriptOf(outcome, goldens)),
  };
}
