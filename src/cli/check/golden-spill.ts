// The goldens a run keeps for the HTML viewer (`check --html`, `view`, the Action), spilled to a
// temp file as each transcript finishes instead of held in memory (issue 32: 2,000 drifted
// transcripts held 3.4 GB of goldens, and at 3,000 the page outgrew V8's longest string). A lookup
// reads one transcript's goldens back; the page is written one transcript at a time
// (view-page.ts), so the run holds one transcript's goldens at a time.
//
// The file holds what the golden files hold (the masked context and verdicts, never raw text),
// lives in a folder of its own under the OS temp dir (mode 0600), and is removed by `close()` or,
// should the process end first, on exit; a process killed outright leaves it to the next run
// (src/io/spill-dir.ts).
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { makeSpillDir } from '../../io/spill-dir.js';
import type { TranscriptGoldens } from './golden-run.js';

interface Slot {
  offset: number;
  length: number;
}

const EMPTY: TranscriptGoldens = { head: null, stored: null };

/** Transcript name → its goldens, kept on disk; iterates in the order they were set. */
export class GoldenSpill implements ReadonlyMap<string, TranscriptGoldens> {
  private readonly slots = new Map<string, Slot>();
  private dir: string | null = null;
  private fd: number | null = null;
  private end = 0;
  private closed = false;
  private readonly onExit = (): void => this.close();

  constructor(private readonly tempRoot: string = os.tmpdir()) {}

  /** The spill file, once something was set (for tests). */
  get file(): string | null {
    return this.dir === null ? null : path.join(this.dir, 'goldens.jsonl');
  }

  private open(): number {
    if (this.closed) throw new Error('GoldenSpill: set after close');
    if (this.fd !== null) return this.fd;
    this.dir = makeSpillDir(this.tempRoot, 'goldens');
    this.fd = openSync(path.join(this.dir, 'goldens.jsonl'), 'wx+', 0o600);
    process.once('exit', this.onExit);
    return this.fd;
  }

  /** Stores (or replaces: the last one wins, as a Map's set) one transcript's goldens. */
  set(transcript: string, goldens: TranscriptGoldens): this {
    const fd = this.open();
    const bytes = Buffer.from(`${JSON.stringify(goldens)}\n`, 'utf8');
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(fd, bytes, written, bytes.length - written, this.end + written);
    }
    // A replaced name moves to the end, as Map insertion order would not; runs never replace.
    this.slots.delete(transcript);
    this.slots.set(transcript, { offset: this.end, length: bytes.length - 1 });
    this.end += bytes.length;
    return this;
  }

  get(transcript: string): TranscriptGoldens | undefined {
    const slot = this.slots.get(transcript);
    if (slot === undefined) return undefined;
    if (this.fd === null) throw new Error('GoldenSpill: read after close');
    const bytes = Buffer.alloc(slot.length);
    let read = 0;
    while (read < slot.length) {
      const n = readSync(this.fd, bytes, read, slot.length - read, slot.offset + read);
      if (n === 0) throw new Error('GoldenSpill: the spill file was cut short');
      read += n;
    }
    return JSON.parse(bytes.toString('utf8')) as TranscriptGoldens;
  }

  has(transcript: string): boolean {
    return this.slots.has(transcript);
  }

  get size(): number {
    return this.slots.size;
  }

  *keys(): MapIterator<string> {
    yield* this.slots.keys();
  }

  *values(): MapIterator<TranscriptGoldens> {
    for (const key of this.slots.keys()) yield this.get(key) ?? EMPTY;
  }

  *entries(): MapIterator<[string, TranscriptGoldens]> {
    for (const key of this.slots.keys()) yield [key, this.get(key) ?? EMPTY];
  }

  [Symbol.iterator](): MapIterator<[string, TranscriptGoldens]> {
    return this.entries();
  }

  forEach(
    callback: (value: TranscriptGoldens, key: string, map: ReadonlyMap<string, TranscriptGoldens>) => void,
    thisArg?: unknown,
  ): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this);
  }

  /** Removes the spill file and its folder; lookups fail afterwards. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    process.removeListener('exit', this.onExit);
    if (this.fd !== null) {
      try {
        closeSync(this.fd);
      } catch {
        // Already closed: the folder is still removed.
      }
      this.fd = null;
    }
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  }
}
