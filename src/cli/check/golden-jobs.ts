// `--jobs N`: the transcripts of a golden run spread over N lanes: this thread plus N − 1 worker
// threads, each with its own modules and tokenizer. Every transcript is evaluated on its own (its
// token cache is made and freed with it), so which lane runs it cannot change its result; results
// are taken back in plan order, so the report, the writes and the output are byte-identical to a
// run with one lane. Workers write their goldens themselves (each golden has one transcript, and
// the caller holds the golden folder's lock).
import { stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Policy } from '../../core/policy/index.js';
import { WORKER_RESOURCE_LIMITS } from './heap.js';
import type { GoldenRunOptions } from './golden-run.js';
import type { PlannedTranscript } from './plan.js';

/** Marks a worker thread started for a golden run, so a shared entry (the Action bundle) can tell. */
export const GOLDEN_WORKER_ROLE = 'context-stability/golden-worker';

/** The cores this process may use: the default of `--jobs`. */
export function defaultJobs(): number {
  return Math.max(1, os.availableParallelism());
}

/** A `--jobs` option or `jobs` input: a whole number from 1 to 256, else undefined. */
export function parseJobs(value: string): number | undefined {
  if (!/^[0-9]+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 && n <= 256 ? n : undefined;
}

/**
 * Below this many bytes of transcripts one thread is faster: a worker takes about half a second to
 * load its modules and tokenizer, in which this thread checks about a megabyte.
 */
export const PARALLEL_MIN_BYTES = 2 * 1024 * 1024;

/** True when the files planned hold at least `minBytes` (unreadable ones count as nothing). */
export async function worthParallel(
  items: readonly PlannedTranscript[],
  cwd: string,
  minBytes: number,
): Promise<boolean> {
  let total = 0;
  for (const item of items) {
    if (item.problem) continue;
    try {
      total += (await stat(path.resolve(cwd, item.transcript))).size;
    } catch {
      // Reported when the file is read.
    }
    if (total >= minBytes) return true;
  }
  return false;
}

/** A policy as it crosses to a worker: plain data; the worker compiles its rules and tokenizer again. */
export interface PolicyTransfer {
  policy: Policy;
  source: string;
  hash: string;
  /** The hash key, to the worker threads of this process only (never written anywhere). */
  piiKey?: string | undefined;
}

/** What a worker needs of GoldenRunOptions to run one planned file, as plain data. */
export type WorkerSetup = Pick<
  GoldenRunOptions,
  'mode' | 'cwd' | 'goldenDir' | 'ci' | 'limits' | 'session' | 'keepGoldens' | 'readOnly' | 'cacheReport'
> & {
  role: typeof GOLDEN_WORKER_ROLE;
  head: PolicyTransfer;
  base: PolicyTransfer | null;
};

/** The module a worker thread starts from: golden-worker.js, or a bundle that serves as one. */
export interface WorkerScript {
  url: URL;
}

export type WorkerRequest = { index: number; item: PlannedTranscript };
export type WorkerReply<S> = { index: number; steps: S[] } | { index: number; failed: string };

export interface LaneOptions<S> {
  /** The lanes beside this thread: `jobs − 1` workers from `script`; null runs everything here. */
  workers: { jobs: number; script: WorkerScript } | null;
  setup: WorkerSetup;
  /** This thread's lane. */
  runHere(item: PlannedTranscript): Promise<S[]>;
  /** The steps that stand for a planned file whose worker failed (the kind of error only). */
  failed(item: PlannedTranscript, kind: string): S[];
  /** Caps on each worker's heap (default WORKER_RESOURCE_LIMITS). */
  resourceLimits?: { maxOldGenerationSizeMb?: number; maxYoungGenerationSizeMb?: number };
}

/** The error a worker thread dies of when it reaches its resourceLimits. */
export const WORKER_OUT_OF_MEMORY = 'ERR_WORKER_OUT_OF_MEMORY';

interface Lane {
  worker: Worker;
  busy: number[];
  alive: boolean;
}

/** Items a worker holds at once: one running, one queued, so it never waits on this thread. */
const WORKER_DEPTH = 2;

/**
 * Runs every planned file on the lanes and hands back each one's steps in plan order, as soon as
 * it and all before it are done. With one job (or one file) nothing is started.
 */
export async function* runOnLanes<S>(
  items: readonly PlannedTranscript[],
  opts: LaneOptions<S>,
): AsyncGenerator<S[]> {
  const script = opts.workers?.script;
  const workers = opts.workers ? Math.min(opts.workers.jobs, items.length) - 1 : 0;
  if (script === undefined || workers <= 0) {
    for (const item of items) yield await opts.runHere(item);
    return;
  }
  const done = new Map<number, S[]>();
  let next = 0;
  let wake: (() => void) | null = null;
  const settle = (index: number, steps: S[]): void => {
    done.set(index, steps);
    const w = wake;
    wake = null;
    w?.();
  };
  const lanes: Lane[] = [];
  // Files whose worker ran out of its bounded heap: run again here, where `--jobs 1` runs them.
  const retry: number[] = [];
  let hereRunning: Promise<void> | null = null;
  let failure: unknown;
  const fail = (error: unknown): void => {
    failure = error;
    const w = wake;
    wake = null;
    w?.();
  };
  const feed = (lane: Lane): void => {
    while (lane.alive && lane.busy.length < WORKER_DEPTH && next < items.length) {
      const index = next++;
      lane.busy.push(index);
      lane.worker.postMessage({ index, item: items[index]! } satisfies WorkerRequest);
    }
  };
  // This thread's lane runs beside the workers (and takes back what an exhausted worker held).
  const runHere = (): void => {
    if (hereRunning) return;
    hereRunning = (async () => {
      for (;;) {
        const index = retry.length > 0 ? retry.shift()! : next < items.length ? next++ : -1;
        if (index < 0) break;
        settle(index, await opts.runHere(items[index]!));
      }
    })().then(() => {
      hereRunning = null;
      // A worker may have run out while the last file ran here.
      if (retry.length > 0) runHere();
    }, fail);
  };
  const lost = (lane: Lane, kind: string): void => {
    if (!lane.alive) return;
    lane.alive = false;
    const held = lane.busy.splice(0);
    void lane.worker.terminate();
    if (kind === WORKER_OUT_OF_MEMORY) {
      // Not a result: a heap cap of ours. A fresh worker takes this lane's share from now on
      // (unless this one ran out holding nothing: then the cap is too small for any file).
      retry.push(...held);
      runHere();
      if (held.length > 0) start();
      return;
    }
    // What it held is reported as an internal error; the other lanes take the rest.
    for (const index of held) settle(index, opts.failed(items[index]!, kind));
  };
  const start = (): void => {
    const worker = new Worker(script.url, {
      workerData: opts.setup,
      resourceLimits: opts.resourceLimits ?? WORKER_RESOURCE_LIMITS,
    });
    const lane: Lane = { worker, busy: [], alive: true };
    worker.on('message', (reply: WorkerReply<S>) => {
      lane.busy = lane.busy.filter((i) => i !== reply.index);
      settle(reply.index, 'steps' in reply ? reply.steps : opts.failed(items[reply.index]!, reply.failed));
      feed(lane);
    });
    worker.on('error', (error: unknown) => {
      const code = (error as NodeJS.ErrnoException | null)?.code;
      lost(lane, code === WORKER_OUT_OF_MEMORY ? code : error instanceof Error ? error.name : 'Error');
    });
    worker.on('exit', () => lost(lane, 'WorkerExit'));
    lanes.push(lane);
    feed(lane);
  };
  for (let i = 0; i < workers; i++) start();
  runHere();

  try {
    for (let index = 0; index < items.length; index++) {
      while (!done.has(index)) {
        // Every index is settled by one lane: its reply, this thread, or its worker's loss.
        if (failure !== undefined) throw failure;
        await new Promise<void>((resolve) => {
          wake = resolve;
        });
      }
      const steps = done.get(index)!;
      done.delete(index);
      yield steps;
    }
  } finally {
    for (const lane of lanes) {
      lane.alive = false;
      await lane.worker.terminate();
    }
  }
}
