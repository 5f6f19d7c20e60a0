// What every per-transcript command needs before it can run: the policy (with its compiled PII
// rules), the tokenizer that policy names and the transcript itself. Problems go to stderr as
// file:line:column diagnostics; the caller only learns whether it can go on.
import { sanitizeForPolicy } from '../core/stabilize/stabilize.js';
import { formatDiagnostic, hasErrors } from '../core/diagnostics.js';
import type { CompiledRule, Policy } from '../core/policy/index.js';
import type { FormatOption } from '../core/readers/index.js';
import type { Tokenizer } from '../core/tokens/tokenizer.js';
import { TRANSCRIPT_FORMATS } from '../core/types.js';
import type { Diagnostic, Transcript } from '../core/types.js';
import { loadPolicy } from '../io/load-policy.js';
import { loadTranscript } from '../io/load-transcript.js';
import { loadPolicyTokenizer } from '../tokens/load.js';
import { PROGRAM, UsageError, parseChoice } from './args.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from './input-limits.js';
import type { CliIO } from './command.js';
import { missingPiiKey, piiKeyFrom } from './pii-key.js';

export const FORMAT_CHOICES: readonly FormatOption[] = ['auto', ...TRANSCRIPT_FORMATS];

/**
 * `--input-format`: the reader of the transcripts. `--format` is its deprecated name on the
 * commands that never had an output `--format` (inspect, stabilize, explain); everywhere else
 * `--format` is the output format (check, merge, guardian bundle).
 */
export const INPUT_FORMAT_OPTIONS = {
  'input-format': { type: 'string' },
  format: { type: 'string' },
} as const;

/** `words` as help lines: the first after `first`, the others indented to the help's column. */
function helpLines(first: string, words: readonly string[], width = 94): string {
  const indent = ' '.repeat(26);
  const lines: string[] = [];
  let line = first;
  for (const word of words) {
    if (line.length + 1 + word.length > width && line.trim() !== '') {
      lines.push(line);
      line = `${indent}${word}`;
    } else {
      line = line.endsWith(' ') ? `${line}${word}` : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/** Help lines of --input-format. */
export const INPUT_FORMAT_HELP = helpLines(
  '  --input-format FORMAT   reader to use (default auto: detected from the content):',
  [
    ...FORMAT_CHOICES.map((f, i) => (i < FORMAT_CHOICES.length - 1 ? `${f},` : `${f};`)),
    ...'--format FORMAT is its deprecated name, accepted until the next release'.split(' '),
  ],
);

/** Output formats of other commands: given to --format here, they were meant as one. */
const OUTPUT_FORMAT_WORDS = new Set(['text', 'json', 'markdown', 'md', 'github']);

/**
 * The transcript format of `--input-format`, or of the deprecated `--format` (a one-line warning
 * on stderr). No transcript format is named like an output format, so the old name is never
 * ambiguous; an output-format value given to it is a usage error naming what the command has.
 */
export function inputFormatOption(
  command: string,
  values: { 'input-format'?: string | undefined; format?: string | undefined },
  io: CliIO,
  output = 'no output format',
): FormatOption {
  const legacy = values.format;
  if (legacy === undefined)
    return parseChoice('--input-format', values['input-format'] ?? 'auto', FORMAT_CHOICES);
  if (values['input-format'] !== undefined)
    throw new UsageError('--format is now --input-format: give --input-format only.');
  if (OUTPUT_FORMAT_WORDS.has(legacy))
    throw new UsageError(
      `${command} has ${output}; --format is now --input-format, the transcript format (${FORMAT_CHOICES.join(', ')}).`,
    );
  const format = parseChoice('--input-format', legacy, FORMAT_CHOICES);
  io.stderr(`${PROGRAM}: warning: --format is now --input-format (the old name goes in the next release).\n`);
  return format;
}

/** The options shared by commands that read one transcript under a policy. */
export const PREPARE_OPTIONS = {
  policy: { type: 'string' },
  ...INPUT_FORMAT_OPTIONS,
  session: { type: 'string' },
  ...LIMIT_OPTIONS,
} as const;

/** Help line of --session for commands that read one transcript (the last session by default). */
export const SESSION_HELP = `  --session N|last        which session of a file holding several (aider chat history: one per
                          '# aider chat started at' heading; OpenHands output.jsonl: one per
                          row): 1-based, or last (default: the last with a message); it is
                          reported as FILE#N`;

/** Help line of --session for commands that read every session of each file by default. */
export const SESSIONS_HELP = `  --session N|last        only this session of each file holding several (aider chat history:
                          one per '# aider chat started at' heading; OpenHands output.jsonl:
                          one per row): 1-based, or last; by default every session with a
                          message is its own transcript, FILE#N`;

/**
 * `--session N|last`: a session number (1-based) or 'last'; undefined when the option is absent.
 * Whether the file holds that session is known only once it is read (an error then, exit 2).
 */
export function parseSession(value: string | undefined): number | 'last' | undefined {
  if (value === undefined) return undefined;
  if (value === 'last') return 'last';
  const n = /^[1-9]\d{0,8}$/.test(value) ? Number(value) : NaN;
  if (Number.isNaN(n)) throw new UsageError('Option --session accepts a session number (1, 2, …) or last.');
  return n;
}

/** Help lines for PREPARE_OPTIONS, aligned with the other commands' help. */
export const PREPARE_HELP = `  --policy FILE           policy to apply (default .github/context-policy.yml when present,
                          else the built-in default)
${INPUT_FORMAT_HELP}
${SESSION_HELP}
${LIMIT_HELP}`;

export interface PrepareRequest {
  file: string;
  policy?: string | undefined;
  /** From inputFormatOption; auto when absent. */
  format?: FormatOption | undefined;
  session?: string | undefined;
  maxFileSize?: string | undefined;
  maxRecords?: string | undefined;
}

export interface Prepared {
  policy: Policy;
  rules: CompiledRule[];
  /** The key of `pii.strategy: hash`, from CONTEXT_STABILITY_PII_KEY (pii-key.ts). */
  piiKey: string | undefined;
  tokenizer: Tokenizer;
  transcript: Transcript;
  /**
   * The transcript loaded, but some records could not be read (skipped JSONL lines). The command
   * still runs on the rest and then exits 2, as `inspect` does: part of the input was unreadable.
   */
  partial: boolean;
}

function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
}

/**
 * Loads policy, tokenizer and transcript. Bad option values throw a UsageError (exit 2 via the
 * router); an invalid policy or an unreadable transcript prints its diagnostics and returns
 * undefined, which the caller turns into exit 2.
 */
export async function prepare(req: PrepareRequest, io: CliIO): Promise<Prepared | undefined> {
  const format = req.format ?? 'auto';
  const limits = parseLimits({ 'max-file-size': req.maxFileSize, 'max-records': req.maxRecords });
  const session = parseSession(req.session);

  const loaded = await loadPolicy(req.policy, { cwd: io.cwd });
  printDiagnostics(io, loaded.diagnostics);
  if (!loaded.ok) return undefined;
  const piiKey = piiKeyFrom(io.env);
  const keyless = missingPiiKey(loaded.policy, piiKey, loaded.source);
  if (keyless) {
    printDiagnostics(io, [keyless]);
    return undefined;
  }

  const read = await loadTranscript(req.file, {
    format,
    cwd: io.cwd,
    ...limits,
    ...(session !== undefined ? { session } : {}),
  });
  if (!read.ok) {
    printDiagnostics(io, read.diagnostics);
    return undefined;
  }
  printDiagnostics(io, read.transcript.diagnostics);
  const tokenizer = await loadPolicyTokenizer(loaded.policy);
  return {
    policy: loaded.policy,
    rules: loaded.rules,
    piiKey,
    tokenizer,
    // Every output of the command shows this transcript: PII goes from its ids and names first.
    transcript: sanitizeForPolicy(read.transcript, loaded.policy, loaded.rules),
    partial: hasErrors(read.transcript.diagnostics),
  };
}
