// The viewer's document from a check run: the report's outcomes in the order the human reports
// list them (what broke first) with each transcript's goldens.
import type { CheckReport } from '../golden/check-report.js';
import type { Golden } from '../golden/golden.js';
import { displayOrder } from '../golden/report-order.js';
import type { ViewDocument } from './model.js';

export function buildViewDocument(
  report: CheckReport,
  goldens: ReadonlyMap<string, { head: Golden | null; stored: Golden | null }>,
  replacement: string,
): ViewDocument {
  return {
    tool: report.tool,
    policy: report.policy,
    tokenizer: report.tokenizer,
    replacement,
    ci: report.ci,
    summary: report.summary,
    transcripts: displayOrder(report).transcripts.map((outcome) => {
      const g = goldens.get(outcome.transcript);
      return { outcome, head: g?.head ?? null, stored: g?.stored ?? null };
    }),
  };
}
