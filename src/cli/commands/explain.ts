// `explain FILE ARTIFACT_ID`: what the stabilizer did to one artifact and why, in plain words.
import { maskedForMessage } from '../../core/pii/shown.js';
import { explainArtifact } from '../../core/report/explain.js';
import { stabilizeTranscript } from '../../core/stabilize/stabilize.js';
import type { LedgerEntry, StabilizeResult } from '../../core/stabilize/types.js';
import { shownName } from '../../core/text/shown-name.js';
import type { Artifact, Transcript } from '../../core/types.js';
import { PROGRAM, UsageError, parseOptions } from '../args.js';
import { EXIT_INPUT, EXIT_OK } from '../command.js';
import type { CliIO, Command } from '../command.js';
import { PREPARE_HELP, PREPARE_OPTIONS, inputFormatOption, prepare } from '../prepare.js';
import { closest } from '../suggest.js';

/** Ids listed when the one asked for does not exist. */
const IDS_SHOWN = 12;

const HELP = `Usage: ${PROGRAM} explain FILE ARTIFACT_ID [options]

Stabilizes FILE under the policy and explains the fate of one artifact: kept, masked,
compressed, deduplicated, expired or dropped, at which stage and why, what protects it, its
tokens before and after, and its place in the stabilized context. Never prints content.
Artifact ids are those of '${PROGRAM} inspect FILE' (e.g. m3 for OpenAI messages, L12 for
native JSONL records without an id and aider chat histories).

Options:
${PREPARE_HELP}
  -h, --help              show this help

Exit codes: 0 explained, 2 bad usage, an invalid policy, an unreadable transcript or an
unknown ARTIFACT_ID (the nearest ids are suggested). When only some JSONL records are
unreadable, the artifact is still explained, with exit 2.

Examples:
  ${PROGRAM} explain session.jsonl L42
  ${PROGRAM} explain --policy ci/strict.yml chat.json m7
`;

/**
 * Ids come from the file (already sanitized: one holding PII is an alias) or the user, who may
 * have typed the original: masked and kept short either way.
 */
function shortId(id: string): string {
  const shown = shownName(maskedForMessage(id));
  // A cut can make an address of what was none (`a@example.orgx…` cut after `org`): masked again.
  return shown.length > 60 ? `${maskedForMessage(shown.slice(0, 60))}…` : shown;
}

function unknownId(io: CliIO, transcript: Transcript, id: string): number {
  const ids = transcript.artifacts.map((a) => a.id);
  const suggestion = closest(id, ids);
  const shown = ids.slice(0, IDS_SHOWN).map(shortId).join(', ');
  const rest = ids.length > IDS_SHOWN ? `, … (${ids.length} in all)` : '';
  io.stderr(
    `${PROGRAM}: ${shownName(transcript.file)} has no artifact with id '${shortId(id)}'.` +
      `${suggestion !== undefined ? ` Did you mean '${shortId(suggestion)}'?` : ''}\n` +
      `Its ids: ${shown}${rest}\n` +
      `Run '${PROGRAM} inspect ${shownName(transcript.file)}' to list every id with its kind and line.\n`,
  );
  return EXIT_INPUT;
}

/**
 * The explanation with every name shown escaped (shownName): explainArtifact gets copies whose
 * ids, file and tool names are escaped, so each of its lines stays one line. It finds the
 * artifact's place in the context and its summary by id: there the artifact's own id becomes its
 * shown id and every other id a newline, which no shown id equals (shownName is not one-to-one).
 */
function shownExplanation(artifact: Artifact, entry: LedgerEntry, result: StabilizeResult): string {
  const id = shownName(artifact.id);
  const same = (other: string): string => (other === artifact.id ? id : '\n');
  const shownArtifact: Artifact = {
    ...artifact,
    id,
    source: { ...artifact.source, file: shownName(artifact.source.file) },
  };
  const shownEntry: LedgerEntry = {
    ...entry,
    ...(entry.detail !== undefined ? { detail: shownName(entry.detail) } : {}),
    ...(entry.duplicate_of !== undefined ? { duplicate_of: shownName(entry.duplicate_of) } : {}),
    ...(entry.protected_by !== undefined ? { protected_by: entry.protected_by.map(shownName) } : {}),
  };
  const shownResult: StabilizeResult = {
    ...result,
    context: result.context.map((c) => ({ ...c, id: same(c.id) })),
    summaries: result.summaries.map((s) => ({ ...s, id: same(s.id) })),
  };
  return explainArtifact(shownArtifact, shownEntry, shownResult).split('\n').map(shownName).join('\n');
}

async function run(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parseOptions(args, PREPARE_OPTIONS);
  if (positionals.length !== 2) throw new UsageError('explain needs a FILE and an ARTIFACT_ID.');
  const [file, id] = positionals as [string, string];
  const prepared = await prepare(
    {
      file,
      policy: values.policy,
      format: inputFormatOption('explain', values, io),
      session: values.session,
      maxFileSize: values['max-file-size'],
      maxRecords: values['max-records'],
    },
    io,
  );
  if (!prepared) return EXIT_INPUT;
  const { transcript, policy, rules, tokenizer, piiKey } = prepared;

  const artifact = transcript.artifacts.find((a) => a.id === id);
  if (!artifact) return unknownId(io, transcript, id);
  const result = stabilizeTranscript(transcript, { policy, tokenizer, rules, piiKey });
  const entry = result.ledger.find((e) => e.id === id);
  // The ledger holds one final decision per input artifact (DESIGN §4): a gap is our bug.
  if (!entry) throw new Error('The ledger has no decision for an artifact of the transcript.');
  io.stdout(shownExplanation(artifact, entry, result));
  return prepared.partial ? EXIT_INPUT : EXIT_OK;
}

export const explainCommand: Command = {
  path: ['explain'],
  summary: 'explain why one artifact was kept, masked or dropped (no content)',
  help: HELP,
  run,
};
