// From the expanded inputs to the list of work: each transcript's repo-relative path, its golden
// path, and what makes it unusable before it is even read (outside the repo, a name no golden can
// have, a golden path that collides with another on a case-insensitive file system). Computed
// over all inputs before sharding, so every shard of a run agrees on it.
import path from 'node:path';
import { diagnostic } from '../../core/diagnostics.js';
import { findCaseCollisions, goldenPathFor } from '../../core/golden/paths.js';
import { inShard } from '../../core/golden/shard.js';
import type { Shard } from '../../core/golden/shard.js';
import type { Diagnostic } from '../../core/types.js';

export interface PlannedTranscript {
  /** Repo-relative and '/'-separated; the path as given when it lies outside the repo. */
  transcript: string;
  /** '' when no golden path could be derived. */
  golden: string;
  /** Set when the transcript cannot be checked; it is reported as an error. */
  problem?: Diagnostic;
}

function at(file: string, code: string, message: string, hint: string): Diagnostic {
  return diagnostic('error', code, { file, line: 1, column: 1 }, message, hint);
}

/** cwd-relative '/'-separated path, or null when `file` lies outside cwd. */
export function repoRelative(file: string, cwd: string): string | null {
  const rel = path.relative(cwd, path.resolve(cwd, file));
  if (rel === '' || rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}

export function planTranscripts(
  files: readonly string[],
  cwd: string,
  goldenDir: string,
): PlannedTranscript[] {
  const all: PlannedTranscript[] = files.map((file) => {
    const rel = repoRelative(file, cwd);
    if (rel === null) {
      return {
        transcript: file,
        golden: '',
        problem: at(
          file,
          'transcript-outside-repo',
          'The transcript lies outside the working directory, so it has no repo-relative golden path.',
          'Run from the repository root, and keep transcripts inside the repository.',
        ),
      };
    }
    const golden = goldenPathFor(rel, goldenDir);
    if (!golden.ok) {
      return {
        transcript: rel,
        golden: '',
        problem: at(
          rel,
          'golden-path-invalid',
          `The transcript path cannot name a golden file: ${golden.reason}.`,
          'Rename the transcript (or its folder) to a portable name.',
        ),
      };
    }
    return { transcript: rel, golden: golden.path };
  });
  // `a.json` and its absolute path name one transcript.
  const planned = [...new Map(all.map((p) => [p.transcript, p])).values()];

  const byGolden = new Map(planned.filter((p) => p.golden !== '').map((p) => [p.golden, p]));
  for (const group of findCaseCollisions([...byGolden.keys()])) {
    for (const golden of group) {
      const item = byGolden.get(golden);
      if (!item) continue;
      const others = group.filter((g) => g !== golden).join(', ');
      item.problem = at(
        item.transcript,
        'golden-path-collision',
        `The golden path differs only in letter case from ${others}; a case-insensitive file system (macOS, Windows) would store them as one file.`,
        'Rename one of the transcripts so that their paths differ by more than case.',
      );
    }
  }
  sessionCollisions(planned);
  return planned.sort((a, b) => (a.transcript < b.transcript ? -1 : a.transcript > b.transcript ? 1 : 0));
}

/**
 * A file named `FILE#N` next to a planned FILE: the goldens of a file holding several sessions
 * (aider, OpenHands output) are named `FILE#N`, so its golden may be session N's (whether FILE
 * holds N sessions depends on its content, which the plan does not read: appending a session would
 * make them collide silently). The file named `FILE#N` is the one refused; FILE's sessions run.
 */
function sessionCollisions(planned: readonly PlannedTranscript[]): void {
  const fold = (name: string): string => name.normalize('NFC').toLowerCase();
  const byName = new Map(planned.map((p) => [fold(p.transcript), p.transcript]));
  for (const item of planned) {
    const m = /^(.+)#([1-9]\d*)$/.exec(item.transcript);
    const file = m ? byName.get(fold(m[1] as string)) : undefined;
    if (item.golden === '' || m === null || file === undefined) continue;
    item.problem = at(
      item.transcript,
      'golden-path-collision',
      `The golden path is also that of session ${m[2] as string} of ${file}: a file holding several sessions (aider chat history, OpenHands output) names its goldens FILE#N.`,
      "Rename this file so that its name is not another transcript's name followed by #N.",
    );
  }
}

/** The part of the plan this shard runs (all of it when unsharded). */
export function shardOf<T extends { transcript: string }>(items: readonly T[], shard: Shard | null): T[] {
  return shard === null ? [...items] : items.filter((item) => inShard(item.transcript, shard));
}
