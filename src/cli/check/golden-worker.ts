// A worker thread of a golden run (golden-jobs.ts): rebuilds the run's policies from plain data,
// then runs each planned file it is sent, one at a time, and replies with its steps. The CLI
// starts this module; the Action bundle starts its own entry, which calls serveGoldenRun.
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import type { MessagePort } from 'node:worker_threads';
import { GOLDEN_WORKER_ROLE } from './golden-jobs.js';
import type { WorkerReply, WorkerRequest, WorkerSetup } from './golden-jobs.js';
import { contextOf, runFile } from './golden-run.js';
import type { Step } from './golden-run.js';
import { setupFromTransfer } from './policies.js';

/** True in a worker thread started for a golden run. */
export function isGoldenWorker(): boolean {
  return (
    !isMainThread &&
    parentPort !== null &&
    (workerData as Partial<WorkerSetup> | null)?.role === GOLDEN_WORKER_ROLE
  );
}

export async function serveGoldenRun(setup: WorkerSetup, port: MessagePort): Promise<void> {
  const head = await setupFromTransfer(setup.head);
  const base = setup.base ? await setupFromTransfer(setup.base) : null;
  const ctx = contextOf({ ...setup, inputs: [], shard: null, head, base });
  // One file at a time: two interleaved would hold two transcripts in memory for no gain.
  let queue = Promise.resolve();
  port.on('message', (request: WorkerRequest) => {
    queue = queue.then(async () => {
      let reply: WorkerReply<Step>;
      try {
        reply = { index: request.index, steps: await runFile(request.item, ctx) };
      } catch (error) {
        // The kind only: an exception's message may quote the transcript.
        reply = { index: request.index, failed: error instanceof Error ? error.name : 'Error' };
      }
      port.postMessage(reply);
    });
  });
}

if (isGoldenWorker()) void serveGoldenRun(workerData as WorkerSetup, parentPort!);
