// `npm run bench:pii` (issue 11): precision and recall of every PII detector on a labelled set
// built from a fixed seed, the share of non-PII strings masked, and the MB/s of the full scan.
// Prints markdown; always exits 0 when it ran (a measurement, not a test). PII_BENCH_SEED=<n>
// draws another set. Details: bench/README.md, "PII detectors".

import { DEFAULT_TARGETS, ID_TARGET, OPT_IN_TARGET, buildDataset, buildOptInSamples } from './dataset.js';
import { NEGATIVE_FAMILIES } from './negatives.js';
import { loadDefaultSet, loadOptIn } from './opt-in.js';
import {
  GOALS,
  falsePositiveTable,
  familyTable,
  goalRows,
  missTable,
  scoreTable,
  table,
  templateRecallTable,
  yes,
} from './report.js';
import type { Sample } from './sample.js';
import { addNegatives, scoreNegatives, scoreSamples } from './score.js';
import { bytesOf, measureSpeed } from './speed.js';

const DEFAULT_SEED = 20_240_611;

function seedFromEnv(): number {
  const raw = process.env.PII_BENCH_SEED;
  if (raw === undefined || raw === '') return DEFAULT_SEED;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0)
    throw new RangeError('PII_BENCH_SEED must be a non-negative integer');
  return n;
}

async function main(): Promise<void> {
  const seed = seedFromEnv();
  const started = performance.now();
  console.error(`bench:pii — building the labelled set (seed ${seed})…`);
  const data = buildDataset(seed);
  const defaultSet = loadDefaultSet();
  const defaults = defaultSet.detectors;
  const types = defaultSet.types;
  const optIn = await loadOptIn(defaultSet);

  const scores = scoreSamples(data.samples, defaults, types);
  const negatives = scoreNegatives(data.negatives, defaults);
  addNegatives(scores, negatives);

  let optSamples: Sample[] = [];
  let optUnknown: string[] = [];
  if ('types' in optIn) ({ samples: optSamples, unknown: optUnknown } = buildOptInSamples(seed, optIn.types));

  console.error('bench:pii — timing the scan…');
  const allTexts = [...data.samples.map((s) => s.text), ...data.negatives.map((n) => n.text)];
  const speed = await measureSpeed(allTexts, defaults, 'types' in optIn ? optIn.detectors : undefined);

  // --- report ---
  const out: string[] = [];
  const kinds = new Map<string, number>();
  let labels = 0;
  for (const s of data.samples) {
    kinds.set(s.kind, (kinds.get(s.kind) ?? 0) + 1);
    labels += s.spans.length;
  }
  out.push('## PII detectors: precision, recall and scan speed (issue 11)', '');
  const targets = types.map((t) => `${t} ${DEFAULT_TARGETS[t] ?? ID_TARGET}`).join(', ');
  out.push(
    `Seed ${seed} (\`PII_BENCH_SEED=<n>\`). Labelled set: ${data.samples.length} samples holding ` +
      `${labels} labelled values (≥ per type: ${targets}; carriers: ` +
      `${[...kinds.entries()].map(([k, n]) => `${k} ${n}`).join(', ')}), plus ${data.negatives.length} non-PII strings ` +
      `(${new Set(data.negatives.map((n) => n.text)).size} distinct) ` +
      `from ${NEGATIVE_FAMILIES} families; ${(bytesOf(allTexts) / 1e6).toFixed(2)} MB. Every text is scanned as ` +
      'the product does (`findPiiIn`: a JSON text by literal with its keys as type hints, any other text as ' +
      'plain text), no allow list, with the detectors the **default policy** enables ' +
      `(\`createDetectors(detectorConfig(DEFAULT_POLICY.pii, []))\`: ${defaults.map((d) => d.type).join(', ')}).`,
    '',
  );
  out.push(
    `Default types: the default policy's (${defaultSet.policyTypes.join(', ')}) plus the national IDs the ` +
      'issue makes default-on (uk_nhs, in_aadhaar, es_nif, it_fiscal_code, au_tfn)' +
      (defaultSet.notEnabled.length
        ? `; **not enabled by the default policy here: ${defaultSet.notEnabled.join(', ')}** (their recall is what it masks).`
        : '.'),
    '',
  );
  out.push('### Default types', '');
  out.push(scoreTable(scores, types, true), '');
  out.push(
    'TP: labels overlapped by a prediction of the same type. Precision: predictions overlapping a label of ' +
      'their type ÷ all predictions of that type (those in non-PII strings included). Recall: TP ÷ labelled. ' +
      'Exact boundary: TP whose prediction has exactly the label’s span ÷ TP. Masked (any type): labels ' +
      'overlapped by a prediction of any type ÷ labelled (the rest leak). Recall per carrier: TP ÷ labels ' +
      'in prose, JSON tool outputs, code/config, logs (n = labels).',
    '',
  );
  const goals = goalRows(scores, types, negatives, speed.mbps, speed.denseMbps);
  out.push('### Goals', '');
  out.push(
    table(
      ['goal', 'value', 'met?'],
      goals.map((g) => [g.goal, g.value, yes(g.met)]),
    ),
    '',
  );
  out.push(`All goals met: ${yes(goals.every((g) => g.met))}.`, '');

  out.push('### Scan speed', '', speed.markdown, '');

  out.push('### False positives: the 10 most frequent shapes', '');
  out.push(falsePositiveTable(scores.falsePositives, 10), '');
  out.push(
    'In non-PII strings and in the unlabelled text around labelled values. Shape: digit → d, upper → A, ' +
      'lower → a, others as written, long alphanumeric runs as `d{n}`/`A{n}`/`a{n}`/`w{n}` (mixed).',
    '',
  );
  out.push('### Non-PII strings with a match, by family', '');
  out.push(familyTable(negatives), '');
  out.push('### Missed labels: the 8 most frequent shapes per default type', '');
  out.push(missTable(scores.misses, types, 8), '');
  out.push(`### Templates below recall ${GOALS.recall}, per default type`, '');
  out.push(
    'Recall of each template (a `-XX` region suffix merged: `phone/national-cue-JP` counts as ' +
      '`phone/national-cue`); templates at or above the goal are left out.',
    '',
  );
  out.push(templateRecallTable(scores, types), '');

  if (defaultSet.withIds) {
    const idTypes = defaultSet.notEnabled;
    const idScores = scoreSamples(data.samples, defaultSet.withIds, idTypes);
    const idNeg = scoreNegatives(data.negatives, defaultSet.withIds);
    addNegatives(idScores, idNeg);
    out.push('### Preview: the national IDs switched on', '');
    out.push(
      `The default policy does not enable ${idTypes.join(', ')} here. With them added to its detectors ` +
        '(not what it masks today; for the goals, see the tables above):',
      '',
    );
    out.push(scoreTable(idScores, idTypes, true), '');
    out.push(
      `Non-PII strings masked: ${idNeg.masked} of ${idNeg.total} (${((idNeg.masked / idNeg.total) * 100).toFixed(2)}%).`,
      '',
    );
    out.push(familyTable(idNeg), '');
    out.push('Their false positives (non-PII strings and the text around labels):', '');
    out.push(falsePositiveTable(idScores.falsePositives, 10), '');
    out.push('Their missed labels (3 most frequent shapes per type):', '');
    out.push(missTable(idScores.misses, idTypes, 3), '');
  }

  out.push('### Opt-in detectors', '');
  if (!('types' in optIn)) {
    out.push(`Not scored: ${optIn.missing}.`, '');
  } else {
    const known = optIn.types.filter((t) => !optUnknown.includes(t));
    const optScores = scoreSamples(optSamples, optIn.detectors, known);
    const optNeg = scoreNegatives(data.negatives, optIn.detectors);
    addNegatives(optScores, optNeg);
    out.push(
      `${known.length} opt-in types outside the default table (built with ${optIn.how}), scored with the ` +
        `default policy's detectors on as well: ${optSamples.length} samples, ≥ ${OPT_IN_TARGET} labelled ` +
        'values each, plus the same non-PII strings.' +
        (optUnknown.length ? ` No generator yet for: ${optUnknown.join(', ')}.` : ''),
      '',
    );
    out.push(scoreTable(optScores, known, false), '');
    out.push(
      `Non-PII strings masked with these detectors on (default policy + opt-in): ${optNeg.masked} of ${optNeg.total} ` +
        `(${((optNeg.masked / optNeg.total) * 100).toFixed(2)}%).`,
      '',
    );
    out.push('False positives of the opt-in types:', '');
    out.push(falsePositiveTable(optScores.falsePositives, 10), '');
    out.push('Missed opt-in labels (3 most frequent shapes per type):', '');
    out.push(missTable(optScores.misses, known, 3), '');
  }
  out.push(`_Ran in ${((performance.now() - started) / 1000).toFixed(1)} s._`);
  console.log(out.join('\n'));
}

await main();
