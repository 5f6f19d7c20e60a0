// Recording (the edge half): appends each call's history, before stabilization, to a native JSONL
// transcript, one file per session, so what the agent saw in production becomes a CI fixture.
import { mkdir, appendFile } from 'node:fs/promises';
import path from 'node:path';
import type { Masker } from '../core/stabilize/finalize.js';
import { maskString } from '../core/stabilize/finalize.js';
import type { Transcript } from '../core/types.js';
import { pathExists } from '../io/path-exists.js';
import { artifactLine, metaLine, signatureOf } from './record-lines.js';

export interface RecordOptions {
  /** The folder the session files go to; created when missing. */
  dir: string;
  /** Mask PII with the policy's detectors as it is written (default true). */
  maskPii?: boolean;
}

interface Track {
  file: string;
  count: number;
  /** Signature of the last recorded artifact: a history that no longer has it was rewritten. */
  last: string | undefined;
}

/** A session id as a file name: PII masked, then anything but letters, digits, `.`, `_`, `-` → `_`. */
export function sessionFileStem(session: string, masker: Masker | undefined): string {
  const masked = masker ? maskString(session, masker, {}) : session;
  const stem = masked
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+/, '')
    .slice(0, 100);
  return stem === '' ? 'session' : stem;
}

export class SessionRecorder {
  private readonly tracks = new Map<string, Track>();
  private readonly dir: string;
  readonly maskPii: boolean;

  constructor(opts: RecordOptions) {
    this.dir = opts.dir;
    this.maskPii = opts.maskPii ?? true;
  }

  /**
   * Appends what is new in this call's history. A history that extends the recorded one adds its
   * new artifacts; one that no longer starts with it (the host rewrote or compacted its history)
   * starts a new file, `<session>.2.jsonl`…, so no recording ever mixes two histories. A file
   * left by an earlier process is never appended to either. Returns the file written.
   */
  async record(session: string, transcript: Transcript, masker: Masker): Promise<string> {
    const use = this.maskPii ? masker : undefined;
    const artifacts = transcript.artifacts;
    let track = this.tracks.get(session);
    const extends_ =
      track !== undefined &&
      artifacts.length >= track.count &&
      (track.count === 0 || signatureOf(artifacts[track.count - 1]!) === track.last);
    const lines: string[] = [];
    if (!track || !extends_) {
      track = { file: await this.freshFile(session, use), count: 0, last: undefined };
      this.tracks.set(session, track);
      await mkdir(this.dir, { recursive: true });
      lines.push(metaLine(sessionFileStem(session, use), transcript.format));
    }
    for (let i = track.count; i < artifacts.length; i++) lines.push(artifactLine(artifacts[i]!, use));
    if (lines.length > 0) await appendFile(track.file, lines.join('\n') + '\n', 'utf8');
    track.count = artifacts.length;
    const lastArtifact = artifacts[artifacts.length - 1];
    track.last = lastArtifact ? signatureOf(lastArtifact) : undefined;
    return track.file;
  }

  /** Forgets a session: its next call starts a new file. */
  forget(session: string): void {
    this.tracks.delete(session);
  }

  private async freshFile(session: string, masker: Masker | undefined): Promise<string> {
    const stem = sessionFileStem(session, masker);
    const taken = new Set([...this.tracks.values()].map((t) => t.file));
    for (let n = 1; ; n++) {
      const file = path.join(this.dir, n === 1 ? `${stem}.jsonl` : `${stem}.${n}.jsonl`);
      if (!taken.has(file) && !(await pathExists(file))) return file;
    }
  }
}
