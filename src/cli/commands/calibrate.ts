// `calibrate FILE=TOKENS…`: measures the policy `calibration` of a model family without a local
// tokenizer. Each FILE is stabilized as `stabilize --emit` would send it; TOKENS is the input-token
// count the provider reported for that request (Anthropic count_tokens, a response's usage…). The
// factor is provider ÷ local over all files (src/core/tokens/calibration-fit.ts).
import { stabilizeTranscript } from '../../core/stabilize/stabilize.js';
import { countArtifactTokens } from '../../core/tokens/count.js';
import { fitCalibration } from '../../core/tokens/calibration-fit.js';
import type { CalibrationSample } from '../../core/tokens/calibration-fit.js';
import { inertJson, shownName } from '../../core/text/shown-name.js';
import { loadTokenizer } from '../../tokens/load.js';
import { MODEL_FAMILIES } from '../../core/policy/schema.js';
import { PROGRAM, UsageError, parseChoice, parseOptions } from '../args.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { CALIBRATE_REPORT_SCHEMA } from '../json-schemas.js';
import { LIMIT_HELP } from '../input-limits.js';
import { FORMAT_CHOICES, PREPARE_OPTIONS, SESSION_HELP, prepare } from '../prepare.js';

const OPTIONS = { ...PREPARE_OPTIONS, json: { type: 'boolean' }, family: { type: 'string' } } as const;

/** The families `calibrate` measures for (openai is counted exactly and needs none). */
const CALIBRATED_FAMILIES = MODEL_FAMILIES.filter((f) => f !== 'openai');

const HELP = `Usage: ${PROGRAM} calibrate FILE=TOKENS… [options]

Measures the calibration of a budget for a model family without a local tokenizer (Claude,
Gemini): how many provider tokens one local token is. For each FILE, TOKENS is the number of
input tokens the provider reported for the request
'${PROGRAM} stabilize FILE --emit anthropic' prints under the same policy (Anthropic's
count_tokens endpoint, or the usage of a call that sent exactly that request). Each FILE is
stabilized the same way here and its context counted with the policy's local encoding; the
factor is the sum of TOKENS over the sum of local counts, rounded up to 2 decimals. Prints the
factor, the spread of the per-file ratios and the policy lines to add. Never prints content.
How to measure, step by step: docs/tokenizers.md.

Options:
  --family NAME           the model family measured: ${CALIBRATED_FAMILIES.join(', ')} (default: the
                          policy's model_family, else anthropic)
  --json                  print { schema_version: ${CALIBRATE_REPORT_SCHEMA}, files, fit, policy } as JSON
  --policy FILE           policy to stabilize with (default .github/context-policy.yml when
                          present, else the built-in default)
  --input-format FORMAT   reader to use (default auto: detected from the content); the
                          choices are listed by 'inspect --help'
${SESSION_HELP}
${LIMIT_HELP}
  -h, --help              show this help

Exit codes: 0 measured, 2 bad usage, an invalid policy or an unreadable transcript (the other
files are still measured).

Examples:
  ${PROGRAM} calibrate transcripts/a.jsonl=18234 transcripts/b.json=5120
  ${PROGRAM} calibrate --json --policy .github/context-policy.yml session.jsonl=40210
`;

interface Pair {
  file: string;
  provider: number;
}

/** FILE=TOKENS, split at the last '=' (a file name may hold one). */
function parsePair(arg: string): Pair {
  const at = arg.lastIndexOf('=');
  const tokens = at > 0 ? arg.slice(at + 1) : '';
  if (at <= 0 || !/^[1-9][0-9]{0,9}$/.test(tokens)) {
    throw new UsageError(
      `calibrate takes FILE=TOKENS pairs, TOKENS a positive whole number of provider input tokens; ${shownName(arg)} is not one.`,
    );
  }
  return { file: arg.slice(0, at), provider: Number(tokens) };
}

interface FileRow extends CalibrationSample {
  file: string;
  ratio: number;
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  if (positionals.length === 0) throw new UsageError('calibrate needs at least one FILE=TOKENS pair.');
  const pairs = positionals.map(parsePair);
  if (values.format !== undefined)
    throw new UsageError('calibrate names the transcript format with --input-format.');
  const format = parseChoice('--input-format', values['input-format'] ?? 'auto', FORMAT_CHOICES);
  const chosen =
    values.family === undefined ? undefined : parseChoice('--family', values.family, CALIBRATED_FAMILIES);

  const rows: FileRow[] = [];
  let failed = false;
  let family = chosen ?? 'anthropic';
  let encoding = '';
  for (const pair of pairs) {
    const prepared = await prepare(
      {
        file: pair.file,
        policy: values.policy,
        format,
        session: values.session,
        maxFileSize: values['max-file-size'],
        maxRecords: values['max-records'],
      },
      io,
    );
    if (!prepared || prepared.partial) {
      failed = true;
      if (!prepared) continue;
    }
    const { transcript, policy, rules, tokenizer, piiKey } = prepared;
    // The context the provider counted is the one `stabilize --emit` sends under this policy; our
    // side of the ratio is that context counted with the bare encoding (no calibration).
    const result = stabilizeTranscript(transcript, { policy, tokenizer, rules, cache: new Map(), piiKey });
    const raw = await loadTokenizer(policy.tokenizer);
    const local = result.context.reduce((sum, a) => sum + countArtifactTokens(a, raw, policy), 0);
    rows.push({
      file: pair.file,
      local,
      provider: pair.provider,
      ratio: local > 0 ? pair.provider / local : 0,
    });
    encoding = policy.tokenizer;
    if (chosen === undefined && policy.model_family !== undefined && policy.model_family !== 'openai')
      family = policy.model_family;
  }

  const fit = fitCalibration(rows);
  const policyLines = fit === undefined ? [] : [`model_family: ${family}`, `calibration: ${fit.suggested}`];
  if (values.json) {
    const doc = {
      schema_version: CALIBRATE_REPORT_SCHEMA,
      tokenizer: encoding,
      files: rows.map((r) => ({
        file: r.file,
        local_tokens: r.local,
        provider_tokens: r.provider,
        ratio: round3(r.ratio),
      })),
      fit:
        fit === undefined
          ? null
          : { ...fit, ratio: round3(fit.ratio), min: round3(fit.min), max: round3(fit.max) },
      policy: fit === undefined ? null : policyLines.join('\n'),
    };
    io.stdout(inertJson(`${JSON.stringify(doc, null, 2)}\n`));
  } else {
    io.stdout(renderText(rows, fit, encoding, policyLines));
  }
  return failed || fit === undefined ? EXIT_INPUT : EXIT_OK;
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000;
}

function renderText(
  rows: readonly FileRow[],
  fit: ReturnType<typeof fitCalibration>,
  encoding: string,
  policyLines: readonly string[],
): string {
  const lines: string[] = [];
  const width = Math.max(4, ...rows.map((r) => shownName(r.file).length));
  lines.push(`${'file'.padEnd(width)}  ${'local'.padStart(9)}  ${'provider'.padStart(9)}  ratio`);
  for (const r of rows) {
    lines.push(
      `${shownName(r.file).padEnd(width)}  ${String(r.local).padStart(9)}  ${String(r.provider).padStart(9)}  ${r.ratio.toFixed(3)}`,
    );
  }
  if (fit === undefined) {
    lines.push('', 'Nothing to measure: no file has tokens on both sides.');
    return `${lines.join('\n')}\n`;
  }
  lines.push(
    '',
    `${fit.samples} file${fit.samples === 1 ? '' : 's'}: ${fit.provider} provider tokens / ${fit.local} ${encoding} tokens = ${fit.ratio.toFixed(3)} (per file ${fit.min.toFixed(3)}–${fit.max.toFixed(3)})`,
  );
  if (fit.samples < 5 || fit.max - fit.min > 0.25) {
    lines.push(
      'The factor is rough: measure at least 5 files that look like your sessions (docs/tokenizers.md).',
    );
  }
  lines.push('', 'Add to the policy:', ...policyLines.map((l) => `  ${l}`));
  return `${lines.join('\n')}\n`;
}

export const calibrateCommand: Command = {
  path: ['calibrate'],
  summary: 'measure the calibration of a Claude or Gemini budget from provider-reported tokens',
  help: HELP,
  run,
};
