// The outcomes of a golden run, spilled as they come (issue 32): each transcript's outcome (its
// violations, picture, drift diff, retention findings…) is kept as one line of JSON rather than as
// objects, in memory up to FLUSH_CHARS, then in a temp file. The run's live set stays that of the
// transcript in hand while the heavy work runs; the outcomes are read back once, for the report.
//
// The file holds what the report holds (masked data only), lives in a folder of its own under the
// OS temp dir (mode 0600) and is removed by `close()` or, should the process end first, on exit; a
// process killed outright leaves it to the next run (src/io/spill-dir.ts).
import { closeSync, openSync, readSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { makeSpillDir } from '../../io/spill-dir.js';
import type { TranscriptOutcome } from '../../core/golden/check-report.js';

/** Lines held in memory before they go to the file (UTF-16 units): small runs never touch disk. */
export const FLUSH_CHARS = 1 << 20;

const READ_BYTES = 1 << 20;

export class OutcomeSpill {
  private lines: string[] = [];
  private chars = 0;
  private dir: string | null = null;
  private fd: number | null = null;
  private end = 0;
  private count = 0;
  private closed = false;
  private readonly onExit = (): void => this.close();

  constructor(
    private readonly tempRoot: string = os.tmpdir(),
    private readonly flushChars: number = FLUSH_CHARS,
  ) {}

  /** The spill file, once outcomes went to disk (for tests). */
  get file(): string | null {
    return this.dir === null ? null : path.join(this.dir, 'outcomes.jsonl');
  }

  get size(): number {
    return this.count;
  }

  push(outcome: TranscriptOutcome): void {
    if (this.closed) throw new Error('OutcomeSpill: push after close');
    // JSON never holds a raw line break: one outcome per line.
    const line = `${JSON.stringify(outcome)}\n`;
    this.lines.push(line);
    this.chars += line.length;
    this.count++;
    if (this.chars >= this.flushChars) this.flush();
  }

  private flush(): void {
    if (this.lines.length === 0) return;
    if (this.fd === null) {
      this.dir = makeSpillDir(this.tempRoot, 'outcomes');
      this.fd = openSync(path.join(this.dir, 'outcomes.jsonl'), 'wx+', 0o600);
      process.once('exit', this.onExit);
    }
    const bytes = Buffer.from(this.lines.join(''), 'utf8');
    this.lines = [];
    this.chars = 0;
    let written = 0;
    while (written < bytes.length) {
      written += writeSync(this.fd, bytes, written, bytes.length - written, this.end + written);
    }
    this.end += bytes.length;
  }

  /** Every outcome pushed, in push order: those on disk first (they came first), then the rest. */
  *outcomes(): Generator<TranscriptOutcome> {
    if (this.closed) throw new Error('OutcomeSpill: read after close');
    if (this.fd !== null) {
      const decoder = new StringDecoder('utf8');
      const buffer = Buffer.alloc(READ_BYTES);
      let rest = '';
      for (let at = 0; at < this.end;) {
        const n = readSync(this.fd, buffer, 0, Math.min(READ_BYTES, this.end - at), at);
        if (n === 0) throw new Error('OutcomeSpill: the spill file was cut short');
        at += n;
        const lines = (rest + decoder.write(buffer.subarray(0, n))).split('\n');
        rest = lines.pop()!;
        for (const line of lines) yield JSON.parse(line) as TranscriptOutcome;
      }
      if (rest + decoder.end() !== '') throw new Error('OutcomeSpill: the spill file ends mid-line');
    }
    for (const line of this.lines) yield JSON.parse(line) as TranscriptOutcome;
  }

  /** Removes the spill file and its folder. Safe to call twice. */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.lines = [];
    if (this.fd === null) return;
    process.removeListener('exit', this.onExit);
    try {
      closeSync(this.fd);
    } catch {
      // Already closed: the folder is still removed.
    }
    this.fd = null;
    if (this.dir !== null) rmSync(this.dir, { recursive: true, force: true });
  }
}
