// `inspect FILE…`: how each transcript was read — format, artifacts, token counts, pairing.
import { sanitizeForPolicy } from '../../core/stabilize/stabilize.js';
import { formatDiagnostic, hasErrors } from '../../core/diagnostics.js';
import type { Diagnostic } from '../../core/types.js';
import { DIRECTORY_SEARCH, expandInputs } from '../../io/expand-inputs.js';
import { loadPolicy } from '../../io/load-policy.js';
import { loadTranscripts } from '../../io/load-transcript.js';
import { loadPolicyTokenizer } from '../../tokens/load.js';
import { PROGRAM, UsageError, parseOptions } from '../args.js';
import { LIMIT_HELP, LIMIT_OPTIONS, parseLimits } from '../input-limits.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { renderFileText } from '../inspect/render-text.js';
import { summarizeTranscript, unreadableSummary } from '../inspect/summary.js';
import type { FileSummary } from '../inspect/summary.js';
import { guardOutput } from '../workflow-output.js';
import { INSPECT_REPORT_SCHEMA } from '../json-schemas.js';
import {
  INPUT_FORMAT_HELP,
  INPUT_FORMAT_OPTIONS,
  SESSIONS_HELP,
  inputFormatOption,
  parseSession,
} from '../prepare.js';

const OPTIONS = {
  json: { type: 'boolean' },
  ...INPUT_FORMAT_OPTIONS,
  policy: { type: 'string' },
  session: { type: 'string' },
  ...LIMIT_OPTIONS,
} as const;

const HELP = `Usage: ${PROGRAM} inspect FILE… [options]

Shows how each transcript is read: detected format, artifacts (id, kind, role, tokens,
source line), tool-call pairing and diagnostics. Never prints message content.
FILE may be a file, a directory (searched for ${DIRECTORY_SEARCH})
or a quoted glob pattern such as 'transcripts/**/*.jsonl'. Each session of a multi-session
aider chat history is shown as its own transcript, FILE#N.

Options:
  --json                  print { schema_version: ${INSPECT_REPORT_SCHEMA}, files: [...] } as JSON instead
                          of tables
${INPUT_FORMAT_HELP}
  --policy FILE           policy whose tokenizer and message_overhead count tokens
                          (default .github/context-policy.yml when present, else built-in)
${SESSIONS_HELP}
${LIMIT_HELP}
  -h, --help              show this help

Diagnostics go to stderr as file:line:column lines.
Exit codes: 0 all files read cleanly, 2 bad usage, or any file unreadable or with errors
(the other files are still inspected).

Examples:
  ${PROGRAM} inspect session.jsonl
  ${PROGRAM} inspect --json 'recordings/**/*.json' > inspect.json
`;

function printDiagnostics(io: CliIO, diagnostics: readonly Diagnostic[]): void {
  for (const d of diagnostics) io.stderr(`${formatDiagnostic(d)}\n`);
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, OPTIONS);
  if (positionals.length === 0) throw new UsageError('inspect needs at least one FILE.');
  const format = inputFormatOption('inspect', values, io, 'no --format (its output format is --json)');
  const limits = parseLimits(values);
  const session = parseSession(values.session);

  const loaded = await loadPolicy(values.policy, { cwd: io.cwd });
  printDiagnostics(io, loaded.diagnostics);
  if (!loaded.ok) return EXIT_INPUT;
  const { policy } = loaded;
  const tokenizer = await loadPolicyTokenizer(policy);
  const cost = { message_overhead: policy.message_overhead, part_tokens: policy.part_tokens };

  const inputs = await expandInputs(positionals, { cwd: io.cwd });
  printDiagnostics(io, inputs.diagnostics);
  let failed = hasErrors(inputs.diagnostics);

  // Under GitHub Actions the tables go out in a stop-commands block; JSON is inert, not wrapped.
  const out = guardOutput(io, values.json ? 'json' : 'text');
  const summaries: FileSummary[] = [];
  try {
    for (const file of inputs.files) {
      const sessions = await loadTranscripts(file, {
        format,
        cwd: io.cwd,
        ...limits,
        ...(session !== undefined ? { session } : {}),
      });
      for (const { name, result } of sessions) {
        const summary = result.ok
          ? summarizeTranscript(sanitizeForPolicy(result.transcript, policy, loaded.rules), tokenizer, cost)
          : unreadableSummary(name, tokenizer, result.diagnostics);
        printDiagnostics(io, summary.diagnostics);
        if (!result.ok || hasErrors(summary.diagnostics)) failed = true;
        if (values.json) summaries.push(summary);
        else out.io.stdout(renderFileText(summary));
      }
    }
    if (values.json) {
      const report = { schema_version: INSPECT_REPORT_SCHEMA, files: summaries };
      out.io.stdout(`${JSON.stringify(report, null, 2)}\n`);
    }
  } finally {
    out.close();
  }
  return failed ? EXIT_INPUT : EXIT_OK;
}

export const inspectCommand: Command = {
  path: ['inspect'],
  summary: 'show the artifacts, token counts and tool pairing of transcripts (no content)',
  help: HELP,
  run,
};
