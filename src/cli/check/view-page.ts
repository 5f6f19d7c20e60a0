// The HTML viewer page of a run (`view`, `check --html DIR`, the action's `html-path`): built from
// the report and the goldens the run kept, written atomically. A failure is a diagnostic (exit 2);
// the run's results are still reported.
//
// The page is written in parts (issue 32): the head from a small line per transcript, then one
// transcript's section at a time, each transcript's goldens read back from the run's spill when
// its line or section is made. Neither the goldens of the run nor the page are ever held whole:
// the bytes are those of renderViewHtml over the whole document. A page no browser could open is
// not written (issue 34): a one-line error says what to do instead.
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { diagnostic } from '../../core/diagnostics.js';
import type { CheckReport } from '../../core/golden/check-report.js';
import { displayOrder } from '../../core/golden/report-order.js';
import type { Diagnostic } from '../../core/types.js';
import type { ViewTranscript } from '../../core/view/model.js';
import { viewFrameOf, viewTranscriptOf } from '../../core/view/document.js';
import { viewLine, viewPageParts } from '../../core/view/render-html.js';
import type { ViewFrame } from '../../core/view/render-html.js';
import { FileTooLargeError, writeFileAtomicParts } from '../../io/atomic-write.js';
import type { TranscriptGoldens } from './golden-run.js';

/** The page's name inside the folder `check --html DIR` is given. */
export const VIEW_PAGE_NAME = 'index.html';

/** The page's parts, in order; each transcript's goldens are looked up when its part is made. */
export function* viewPageChunks(
  report: CheckReport,
  goldens: ReadonlyMap<string, TranscriptGoldens>,
  replacement: string,
): Generator<string> {
  // The document buildViewDocument makes, one transcript at a time.
  const frame: ViewFrame = viewFrameOf(report, replacement);
  const outcomes = displayOrder(report).transcripts;
  const transcript = (index: number): ViewTranscript => viewTranscriptOf(outcomes[index]!, goldens);
  const lines = outcomes.map((_, i) => viewLine(transcript(i), replacement));
  const parts = viewPageParts(frame, lines);
  yield parts.head;
  for (let i = 0; i < outcomes.length; i++) yield parts.section(transcript(i), i);
  yield parts.tail;
}

/**
 * Over this size the page is not written: no browser opens it (they give up in the hundreds of
 * MB), and a run that large is read from its report.
 */
export const VIEW_PAGE_MAX_BYTES = 1 << 30;

const SMALLER =
  "Show fewer transcripts on the page (narrow the inputs, e.g. with a '!pattern' exclusion), or read the results from the machine report (check --report, the Action's report-path).";

function mebibytes(bytes: number): string {
  return bytes >= 1 << 30 ? `${bytes / (1 << 30)} GiB` : `${Math.round(bytes / (1 << 20))} MiB`;
}

/** A failure to write the page, in words: no error is `unknown`. */
function writeFailure(error: unknown, file: string, option: string): Diagnostic {
  const where = { file, line: 1, column: 1 };
  if (error instanceof FileTooLargeError)
    return diagnostic(
      'error',
      'view-too-large',
      where,
      `The viewer page would be over ${mebibytes(error.maxBytes)}, more than a browser can open; it was not written.`,
      SMALLER,
    );
  // One transcript's section beyond the longest string V8 can make (about 512 MiB).
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ERR_STRING_TOO_LONG' || (error instanceof RangeError && /string length/i.test(error.message)))
    return diagnostic(
      'error',
      'view-too-large',
      where,
      "The viewer page could not be made: a transcript's part of it is longer than the longest text Node.js can hold; it was not written.",
      SMALLER,
    );
  const reason = code ?? (error instanceof Error ? error.name : typeof error);
  return diagnostic(
    'error',
    'view-write-failed',
    where,
    `The viewer page could not be written (${reason}).`,
    `Check that the folder of ${option} exists or can be created and is writable.`,
  );
}

export async function writeViewPage(
  file: string,
  report: CheckReport,
  goldens: ReadonlyMap<string, TranscriptGoldens>,
  replacement: string,
  cwd: string,
  option = '--out',
  maxBytes = VIEW_PAGE_MAX_BYTES,
): Promise<Diagnostic | null> {
  const target = path.resolve(cwd, file);
  try {
    await mkdir(path.dirname(target), { recursive: true });
    await writeFileAtomicParts(target, viewPageChunks(report, goldens, replacement), { maxBytes });
    return null;
  } catch (error) {
    return writeFailure(error, file, option);
  }
}
