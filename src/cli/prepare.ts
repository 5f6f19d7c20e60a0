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
import { loadTokenizer } from '../tokens/load.js';
import { UsageError, parseChoice } from './args.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from './input-limits.js';
import type { CliIO } from './command.js';

export const FORMAT_CHOICES: readonly FormatOption[] = ['auto', ...TRANSCRIPT_FORMATS];

/** The options shared by commands that read one transcript under a policy. */
export const PREPARE_OPTIONS = {
  policy: { type: 'string' },
  format: { type: 'string' },
  session: { type: 'string' },
  ...LIMIT_OPTIONS,
} as const;

/** Help line of --session for commands that read one transcript (the last session by default). */
export const SESSION_HELP = `  --session N|last        which session of an aider chat history holding several (one per
                          '# aider chat started at' heading): 1-based, or last (default last);
                          it is reported as FILE#N`;

/** Help line of --session for commands that read every session of each file by default. */
export const SESSIONS_HELP = `  --session N|last        only this session of each aider chat history (one session per
                          '# aider chat started at' heading): 1-based, or last; by default
                          every session is its own transcript, FILE#N`;

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
  --format FORMAT         reader to use: ${FORMAT_CHOICES.join(', ')} (default auto)
${SESSION_HELP}
${LIMIT_HELP}`;

export interface PrepareRequest {
  file: string;
  policy?: string | undefined;
  format?: string | undefined;
  session?: string | undefined;
  maxFileSize?: string | undefined;
  maxRecords?: string | undefined;
}

export interface Prepared {
  policy: Policy;
  rules: CompiledRule[];
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
  const format = parseChoice('--format', req.format ?? 'auto', FORMAT_CHOICES);
  const limits = parseLimits({ 'max-file-size': req.maxFileSize, 'max-records': req.maxRecords });
  const session = parseSession(req.session);

  const loaded = await loadPolicy(req.policy, { cwd: io.cwd });
  printDiagnostics(io, loaded.diagnostics);
  if (!loaded.ok) return undefined;

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
  const tokenizer = await loadTokenizer(loaded.policy.tokenizer);
  return {
    policy: loaded.policy,
    rules: loaded.rules,
    tokenizer,
    // Every output of the command shows this transcript: PII goes from its ids and names first.
    transcript: sanitizeForPolicy(read.transcript, loaded.policy, loaded.rules),
    partial: hasErrors(read.transcript.diagnostics),
  };
}
