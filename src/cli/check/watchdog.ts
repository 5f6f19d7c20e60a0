// The watchdog (issue 34): a transcript that takes longer than the policy's `watchdog.max_seconds`
// is stopped and reported as error[timeout]; the run goes on with the next one. src/core is pure and
// synchronous, so a stuck stage (a quadratic, a catastrophic regex) never looks at a clock: it has
// to be interrupted from outside. node:vm's `timeout` does exactly that: a native watchdog thread
// terminates the isolate's execution at the deadline, whatever the script calls, and the thread
// goes on. So each synchronous segment of a transcript's work runs inside `Deadline.run`, on
// whichever thread runs it: `--jobs 1` needs no worker (whose start-up would double a small run),
// and a segment costs about 0.1 ms more.
//
// What an interrupted segment leaves behind: its transcript's own state (token cache, memo) is
// dropped with it; the run-wide state it may touch (the policies, tokenizer tables, compiled
// patterns, module-level caches) is read-only or filled compute-then-store, so a half-done call
// leaves no half-written entry.
import vm from 'node:vm';
import { diagnostic } from '../../core/diagnostics.js';
import type { Diagnostic } from '../../core/types.js';

/** Thrown by `Deadline.run` when the transcript's time is up (the segment was stopped). */
export class TranscriptTimeout extends Error {
  override readonly name = 'TranscriptTimeout';

  constructor(readonly seconds: number) {
    super(`over ${seconds} s`);
  }
}

const sandbox = vm.createContext({ run: undefined as (() => unknown) | undefined });
const call = new vm.Script('run()');
/** A segment inside a segment runs under the outer one's timer (vm timers do not nest cleanly). */
let inside = false;

/** The time one transcript (or the reading of one file) may take; 0 seconds: unlimited. */
export class Deadline {
  private readonly end: number;

  constructor(readonly seconds: number) {
    this.end = seconds > 0 ? performance.now() + seconds * 1000 : Number.POSITIVE_INFINITY;
  }

  /** `work()`, stopped with a TranscriptTimeout if it is still running at the deadline. */
  run<T>(work: () => T): T {
    if (this.end === Number.POSITIVE_INFINITY || inside) return work();
    const left = Math.ceil(this.end - performance.now());
    if (left <= 0) throw new TranscriptTimeout(this.seconds);
    inside = true;
    sandbox['run'] = work;
    try {
      return call.runInContext(sandbox, { timeout: left }) as T;
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
        throw new TranscriptTimeout(this.seconds);
      }
      throw error;
    } finally {
      sandbox['run'] = undefined;
      inside = false;
    }
  }

  /** `run` as a plain function, for an option that takes one (loadTranscripts' `within`). */
  readonly within = <T>(work: () => T): T => this.run(work);
}

/** The one diagnostic of a transcript the watchdog stopped: no content, just what to do. */
export function timeoutDiagnostic(file: string, seconds: number): Diagnostic {
  return diagnostic(
    'error',
    'timeout',
    { file, line: 1, column: 1 },
    `Checking this transcript took longer than the policy's limit of ${seconds} s (watchdog.max_seconds), so it was stopped; the other transcripts are still checked.`,
    'If the file is just large, raise watchdog.max_seconds in the policy (0: no limit); otherwise please report the bug with the command you ran: some stage is too slow on this input.',
  );
}
