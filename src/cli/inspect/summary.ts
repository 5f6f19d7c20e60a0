// What `inspect` reports about a transcript: structure, token counts, pairing — never content,
// since transcripts may hold PII and inspect output lands in CI logs.
import { sessionLabel } from '../../core/text/session-name.js';
import { countArtifactTokens } from '../../core/tokens/count.js';
import type { TokenCostConfig } from '../../core/tokens/count.js';
import type { Tokenizer } from '../../core/tokens/tokenizer.js';
import type {
  Artifact,
  ArtifactKind,
  Diagnostic,
  Pairing,
  Transcript,
  TranscriptFormat,
} from '../../core/types.js';

export interface ArtifactSummary {
  id: string;
  kind: ArtifactKind;
  role?: string;
  tokens: number;
  line: number;
  column: number;
  tool?: string;
  call_id?: string;
  call_ids?: string[];
  tool_calls?: { id: string; name: string }[];
  /** Tool result: id of the assistant artifact whose call it answers. */
  answers?: string;
  sidechain?: true;
}

export interface PairingSummary {
  paired_results: number;
  unpaired_calls: Pairing['unpairedCalls'];
  unpaired_results: Pairing['unpairedResults'];
}

export interface FileSummary {
  file: string;
  /** The run a session stands for (an OpenHands row's `instance_id`), when its transcript says. */
  session_label?: string;
  /** null when the file could not be read or parsed at all. */
  format: TranscriptFormat | null;
  tokenizer: { name: string; version: string };
  artifact_count: number;
  total_tokens: number;
  artifacts: ArtifactSummary[];
  pairing: PairingSummary | null;
  diagnostics: Diagnostic[];
}

function summarizeArtifact(
  a: Artifact,
  pairing: Pairing,
  tok: Tokenizer,
  cfg: TokenCostConfig,
): ArtifactSummary {
  const out: ArtifactSummary = {
    id: a.id,
    kind: a.kind,
    tokens: countArtifactTokens(a, tok, cfg),
    line: a.source.line,
    column: a.source.column,
  };
  if (a.role !== undefined && a.role !== a.kind) out.role = a.role;
  if (a.tool !== undefined) out.tool = a.tool;
  if (a.call_id !== undefined) out.call_id = a.call_id;
  if (a.call_ids !== undefined) out.call_ids = [...a.call_ids];
  if (a.tool_calls !== undefined) out.tool_calls = a.tool_calls.map((c) => ({ id: c.id, name: c.name }));
  const answers = pairing.resultToCall[a.id];
  if (answers !== undefined) out.answers = answers;
  if (a.sidechain === true) out.sidechain = true;
  return out;
}

export function summarizeTranscript(t: Transcript, tok: Tokenizer, cfg: TokenCostConfig): FileSummary {
  const artifacts = t.artifacts.map((a) => summarizeArtifact(a, t.pairing, tok, cfg));
  const label = sessionLabel(t.meta);
  return {
    file: t.file,
    ...(label !== undefined ? { session_label: label } : {}),
    format: t.format,
    tokenizer: { name: tok.name, version: tok.version },
    artifact_count: artifacts.length,
    total_tokens: artifacts.reduce((sum, a) => sum + a.tokens, 0),
    artifacts,
    pairing: {
      paired_results: Object.keys(t.pairing.resultToCall).length,
      unpaired_calls: t.pairing.unpairedCalls.map((c) => ({ ...c })),
      unpaired_results: t.pairing.unpairedResults.map((r) => ({ ...r })),
    },
    diagnostics: t.diagnostics,
  };
}

export function unreadableSummary(file: string, tok: Tokenizer, diagnostics: Diagnostic[]): FileSummary {
  return {
    file,
    format: null,
    tokenizer: { name: tok.name, version: tok.version },
    artifact_count: 0,
    total_tokens: 0,
    artifacts: [],
    pairing: null,
    diagnostics,
  };
}
