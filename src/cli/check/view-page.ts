// The HTML viewer page of a run (`view`, `check --html DIR`, the action's `html-path`): built from
// the report and the goldens the run kept, written atomically. A failure is a diagnostic (exit 2);
// the run's results are still reported.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic } from '../../core/diagnostics.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import type { Diagnostic } from '../../core/types.js';
import { buildViewDocument } from '../../core/view/document.js';
import { renderViewHtml } from '../../core/view/render-html.js';
import { writeFileAtomic } from '../../io/atomic-write.js';
import type { TranscriptGoldens } from './golden-run.js';

/** The page's name inside the folder `check --html DIR` is given. */
export const VIEW_PAGE_NAME = 'index.html';

export async function writeViewPage(
  file: string,
  report: CheckReport,
  goldens: ReadonlyMap<string, TranscriptGoldens>,
  replacement: string,
  cwd: string,
  option = '--out',
): Promise<Diagnostic | null> {
  const target = path.resolve(cwd, file);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomic(target, renderViewHtml(buildViewDocument(report, goldens, replacement)));
    return null;
  } catch (error) {
    const errno = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    return diagnostic(
      'error',
      'view-write-failed',
      { file, line: 1, column: 1 },
      `The viewer page could not be written (${errno}).`,
      `Check that the folder of ${option} exists or can be created and is writable.`,
    );
  }
}
