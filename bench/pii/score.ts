// Scoring of the detectors' matches against the labels. A prediction is a span findPiiIn returns
// (the product's full scan: JSON texts by literal with their keys as type hints, other texts as
// plain text; overlapping matches merged and typed by priority). A label is found when a prediction
// of the same type overlaps it; a prediction is right when it overlaps a label of its type.

import { findPiiIn } from '../../src/core/pii/index.js';
import type { Detector, PiiMatch } from '../../src/core/pii/index.js';
import { shapeOf } from './sample.js';
import type { CarrierKind, Negative, Sample, Span } from './sample.js';

export interface TypeScore {
  type: string;
  labelled: number;
  predicted: number;
  /** Labels overlapped by a prediction of their type. */
  found: number;
  /** Predictions overlapping a label of their type. */
  correct: number;
  /** Found labels with a prediction of exactly the same span. */
  exact: number;
  /** Labels overlapped by a prediction of any type: masked, if maybe under another type's name. */
  covered: number;
  /** Per carrier kind: labelled and found. */
  byKind: Map<CarrierKind, { labelled: number; found: number }>;
}

/** An error, by shape and where it happened (template or family name): never the value. */
export interface ErrorShape {
  type: string;
  shape: string;
  where: string;
  /** For a missed label: the type a prediction over it had instead, if any. */
  predictedAs?: string;
}

export interface Scores {
  types: Map<string, TypeScore>;
  /** Per type, per template (its region suffix `-JP` dropped): labelled and found. */
  byTemplate: Map<string, Map<string, { labelled: number; found: number }>>;
  misses: ErrorShape[];
  falsePositives: ErrorShape[];
}

export interface NegativeScores {
  total: number;
  masked: number;
  falsePositives: ErrorShape[];
  /** Predictions by type (a string may hold several). */
  byType: Map<string, number>;
  /** Per family: strings, and strings with a match. */
  byFamily: Map<string, { total: number; masked: number }>;
}

const overlaps = (a: Span | PiiMatch, b: Span | PiiMatch) => a.start < b.end && b.start < a.end;

function score(types: readonly string[]): Map<string, TypeScore> {
  return new Map(
    types.map((type) => [
      type,
      { type, labelled: 0, predicted: 0, found: 0, correct: 0, exact: 0, covered: 0, byKind: new Map() },
    ]),
  );
}

/** Scores `samples` for `types`; predictions of other types are ignored (not scored here). */
export function scoreSamples(
  samples: readonly Sample[],
  detectors: readonly Detector[],
  types: readonly string[],
): Scores {
  const scores = score(types);
  const byTemplate = new Map<string, Map<string, { labelled: number; found: number }>>();
  const misses: ErrorShape[] = [];
  const falsePositives: ErrorShape[] = [];
  for (const sample of samples) {
    const predicted = findPiiIn(sample.text, detectors, []);
    for (const label of sample.spans) {
      const s = scores.get(label.type);
      if (!s) continue;
      s.labelled++;
      const kind = s.byKind.get(sample.kind) ?? { labelled: 0, found: 0 };
      s.byKind.set(sample.kind, kind);
      kind.labelled++;
      const templates = byTemplate.get(label.type) ?? new Map<string, { labelled: number; found: number }>();
      byTemplate.set(label.type, templates);
      const name = sample.carrier.replace(/-[A-Z]{2}$/, '');
      const t = templates.get(name) ?? { labelled: 0, found: 0 };
      templates.set(name, t);
      t.labelled++;
      if (predicted.some((p) => overlaps(p, label))) s.covered++;
      const hits = predicted.filter((p) => p.type === label.type && overlaps(p, label));
      if (hits.length > 0) {
        s.found++;
        kind.found++;
        t.found++;
        if (hits.some((p) => p.start === label.start && p.end === label.end)) s.exact++;
      } else {
        const other = predicted.find((p) => overlaps(p, label));
        misses.push({
          type: label.type,
          shape: shapeOf(sample.text.slice(label.start, label.end)),
          where: sample.carrier,
          ...(other ? { predictedAs: other.type } : {}),
        });
      }
    }
    for (const p of predicted) {
      const s = scores.get(p.type);
      if (!s) continue;
      s.predicted++;
      if (sample.spans.some((label) => label.type === p.type && overlaps(p, label))) s.correct++;
      else
        falsePositives.push({
          type: p.type,
          shape: shapeOf(sample.text.slice(p.start, p.end)),
          where: sample.carrier,
        });
    }
  }
  return { types: scores, byTemplate, misses, falsePositives };
}

/** Every match in a non-PII string is a false positive. */
export function scoreNegatives(
  negatives: readonly Negative[],
  detectors: readonly Detector[],
): NegativeScores {
  const out: NegativeScores = {
    total: negatives.length,
    masked: 0,
    falsePositives: [],
    byType: new Map(),
    byFamily: new Map(),
  };
  for (const n of negatives) {
    const predicted = findPiiIn(n.text, detectors, []);
    const fam = out.byFamily.get(n.family) ?? { total: 0, masked: 0 };
    out.byFamily.set(n.family, fam);
    fam.total++;
    if (predicted.length > 0) {
      out.masked++;
      fam.masked++;
    }
    for (const p of predicted) {
      out.byType.set(p.type, (out.byType.get(p.type) ?? 0) + 1);
      out.falsePositives.push({
        type: p.type,
        shape: shapeOf(n.text.slice(p.start, p.end)),
        where: n.family,
      });
    }
  }
  return out;
}

/** Adds the false positives found in non-PII strings to the per-type predicted counts. */
export function addNegatives(scores: Scores, negatives: NegativeScores): void {
  for (const [type, count] of negatives.byType) {
    const s = scores.types.get(type);
    if (s) s.predicted += count;
  }
  scores.falsePositives.push(...negatives.falsePositives.filter((fp) => scores.types.has(fp.type)));
}

export interface ShapeGroup {
  type: string;
  shape: string;
  predictedAs: string | undefined;
  count: number;
  /** The templates or families it came from, most frequent first (`version/four-part ×8`). */
  where: string;
}

/** The most frequent (type, shape) groups, with counts and where they came from. */
export function topShapes(errors: readonly ErrorShape[], limit: number): ShapeGroup[] {
  const groups = new Map<string, { e: ErrorShape; count: number; where: Map<string, number> }>();
  for (const e of errors) {
    const key = `${e.type}\u0000${e.shape}\u0000${e.predictedAs ?? ''}`;
    const g = groups.get(key) ?? { e, count: 0, where: new Map<string, number>() };
    groups.set(key, g);
    g.count++;
    g.where.set(e.where, (g.where.get(e.where) ?? 0) + 1);
  }
  const byCount = <T>(a: [T, number], b: [T, number]) => b[1] - a[1];
  return [...groups.values()]
    .sort((a, b) => b.count - a.count || (a.e.type + a.e.shape < b.e.type + b.e.shape ? -1 : 1))
    .slice(0, limit)
    .map((g) => {
      const where = [...g.where.entries()].sort(byCount);
      const shown = where.slice(0, 3).map(([w, n]) => `${w} ×${n}`);
      if (where.length > 3) shown.push(`+${where.length - 3} more`);
      return {
        type: g.e.type,
        shape: g.e.shape,
        predictedAs: g.e.predictedAs,
        count: g.count,
        where: shown.join(', '),
      };
    });
}
