// Episodes shared by every archetype: phase and task changes, summaries (fresh, stale, with a
// missing source), short chatter, repeated and near-duplicate questions.

import type { Faker } from '@faker-js/faker';
import type { Artifact, ArtifactKind } from '../../../../src/core/types.js';
import type { TranscriptBuilder } from '../builder.js';
import type { Rng } from '../rng.js';
import { ADJECTIVES, FILLER_SENTENCES, NOUNS, VERBS } from '../text/vocab.js';

export interface SessionState {
  b: TranscriptBuilder;
  /** Sentences of the archetype's plain prose (coding notes, support replies). */
  prose: readonly string[];
  rng: Rng;
  faker: Faker;
  task: string;
  phase: string;
  taskCount: number;
  /** Position of the current phase marker: summaries cite sources from here on. */
  scopeStart: number;
  /** User questions that may come back verbatim or slightly reworded later. */
  questions: Artifact[];
}

export function newState(
  b: TranscriptBuilder,
  rng: Rng,
  faker: Faker,
  prose: readonly string[],
): SessionState {
  return { b, prose, rng, faker, task: 'T1', phase: '', taskCount: 1, scopeStart: 0, questions: [] };
}

export function sentences(rng: Rng, count: number, pool: readonly string[] = FILLER_SENTENCES): string {
  const out: string[] = [];
  for (let i = 0; i < count; i++) out.push(rng.pick(pool));
  return out.join(' ');
}

/** A phase marker: sets the scope `{task, phase}` from here on (DESIGN §2). */
export function phase(s: SessionState, name: string): boolean {
  const a = s.b.message({
    kind: 'phase',
    content: `Entering phase ${name} of task ${s.task}.`,
    scope: { task: s.task, phase: name },
  });
  if (!a) return false;
  s.phase = name;
  s.scopeStart = s.b.artifacts.length - 1;
  return true;
}

/** A new task: everything of the previous task is out of scope from here on. */
export function newTask(s: SessionState, description: string, firstPhase: string): boolean {
  if (!s.b.fits(2)) return false;
  s.taskCount++;
  s.task = `T${s.taskCount}`;
  s.b.add({ kind: 'task', content: description, ...(s.rng.chance(0.5) ? { pin: true } : {}) });
  s.questions = [];
  return phase(s, firstPhase);
}

const SOURCE_KINDS: ReadonlySet<ArtifactKind> = new Set(['user', 'assistant', 'tool']);

/**
 * A summary of part of the current scope. `created_at` is the summary's own position (the turn
 * counter is the artifact position); a third are stale (short ttl) and a few cite a source id that
 * never existed, so the summaries stage has invalid and expired input to reject.
 */
export function summary(s: SessionState): boolean {
  const { b, rng } = s;
  const candidates = b.artifacts.slice(s.scopeStart).filter((a) => SOURCE_KINDS.has(a.kind));
  if (candidates.length < 3 || !b.fits(1)) return false;
  const sources = rng
    .sample(candidates, rng.int(3, Math.min(8, candidates.length)))
    .sort((x, y) => x.source.line - y.source.line);
  const provenance = sources.map((a) => a.id);
  if (rng.chance(0.05)) provenance.push(`gone-${rng.hex(6)}`);
  const stale = rng.chance(0.33);
  const lines = [
    `Summary of ${sources.length} earlier messages in phase ${s.phase} of task ${s.task}.`,
    `The agent tried to ${rng.pick(VERBS)} the ${rng.pick(ADJECTIVES)} ${rng.pick(NOUNS)} and ${rng.pick(VERBS)} the ${rng.pick(NOUNS)}.`,
    sentences(rng, rng.int(2, 6), s.prose),
  ];
  b.add({
    kind: 'summary',
    content: lines.join('\n'),
    provenance,
    created_at: b.turn,
    ttl: stale ? rng.int(3, 15) : rng.int(400, 4000),
  });
  return true;
}

const QUESTIONS = [
  'Any update on this?',
  'Can you tell me where things stand right now?',
  'How long will this take to finish?',
  'Is there anything else you need from me before you continue?',
  'Could you explain again what the problem was?',
];

/** A user question; sometimes an exact repeat or a one-word variation of an earlier one. */
export function question(s: SessionState, text?: string): Artifact | null {
  const { b, rng } = s;
  if (s.questions.length > 0 && rng.chance(0.4)) {
    const earlier = rng.pick(s.questions);
    if (rng.chance(0.6) || typeof earlier.content !== 'string') return b.fits(1) ? b.repeat(earlier) : null;
    const words = earlier.content.split(' ');
    const at = rng.int(0, words.length - 1);
    words[at] = rng.pick(['really', 'exactly', 'please', 'now', 'again']);
    return b.message({ kind: 'user', content: words.join(' ') });
  }
  const a = b.message({ kind: 'user', content: text ?? rng.pick(QUESTIONS) });
  if (a) s.questions.push(a);
  return a;
}

/** A short exchange: a question and a plain answer (no tools). */
export function chatter(s: SessionState): boolean {
  if (!s.b.fits(2)) return false;
  question(s);
  s.b.add({ kind: 'assistant', content: sentences(s.rng, s.rng.int(1, 3), s.prose) });
  return true;
}

/** One artifact, used to land exactly on a requested message count. */
export function filler(s: SessionState): void {
  const last = s.b.artifacts[s.b.artifacts.length - 1];
  const kind: ArtifactKind = last?.kind === 'user' ? 'assistant' : 'user';
  s.b.message({ kind, content: sentences(s.rng, s.rng.int(1, 2), s.prose) });
}
