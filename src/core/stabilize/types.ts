// Result model of stabilize() (DESIGN §4, §7). The report JSON and the goldens are built from it.
import type { ArtifactKind, Content, ToolCall } from '../types.js';

export const STAGES = [
  'normalize',
  'scope',
  'summaries',
  'pii',
  'tool_output',
  'dedup',
  'collapse',
  'protect',
  'budget',
  'order',
] as const;
export type Stage = (typeof STAGES)[number];

export const ACTIONS = [
  'kept',
  'masked',
  'compressed',
  'excerpted',
  'collapsed',
  'deduplicated',
  'expired',
  'dropped',
] as const;
export type Action = (typeof ACTIONS)[number];

/**
 * Reason codes. Stable: goldens, semantic diffs and `explain` depend on them.
 * - kept: `in_budget`, `protected`
 * - masked: `pii`, `tool_output_fields` (a verbose JSON output masked to keep_fields)
 * - masked: `pii_thinking` (thinking blocks holding PII left out; a signed block cannot be masked)
 * - dropped: `sidechain`, `abandoned_branch`, `compacted`, `unpaired_result`, `unpaired_call`, `scope_reset`, `verbose_tool_output`,
 *   `superseded`, `budget`, `aggressive_chatter`, `pair_unit` (went with its call or result)
 * - expired: `summary_expired`, `summary_invalid`, `summary_superseded` (a compaction summary replaced by
 *   a later or refreshed one; docs/compaction.md)
 * - deduplicated: `duplicate`, `near_duplicate`
 * - collapsed: `retry_run`, `compacted_into` (left the context; the compaction summary named in the detail
 *   stands for it: `compaction.enabled`, docs/compaction.md)
 * - excerpted: `excerpt` (protected evidence cut to its head and tail to fit the budget),
 *   `verbose_tool_output` (a protected output over tool_output.max_tokens, kept as an excerpt)
 * - compressed: `pair_placeholder` (result replaced by a placeholder that keeps its call valid),
 *   `pair_unit` (an assistant that stays lost a call whose result left), `unpaired_call`,
 *   `pending_call` / `pending_approval` (a call the history ends on, with no result yet: a note in
 *   the message says so instead)
 */
export type Reason = string;

export interface LedgerEntry {
  id: string;
  /** The stage that made the final decision. */
  stage: Stage;
  action: Action;
  reason: Reason;
  /** Plain words; never raw content (no PII). */
  detail?: string;
  /** Tokens of the original artifact; null when it was dropped without an exact count (docs/stabilizer.md). */
  tokens_before: number | null;
  /** Tokens in the stabilized context; 0 when not in it. */
  tokens_after: number;
  duplicate_of?: string;
  /** Why the artifact could not be dropped: `system`, `pinned`, `tag:error`, `latest:bash:npm test`… */
  protected_by?: string[];
  /** PII masked in this artifact, by type (counts only). */
  pii?: Record<string, number>;
  /**
   * What the request for the target API changes on the way out: parts it has no place for, call
   * ids renamed to be unique (`openai: left out 1 thinking part …`). Set only when there is any.
   */
  emit?: string[];
  line: number;
}

export type SummaryStatus = 'valid' | 'expired' | 'invalid';
export interface SummaryLog {
  id: string;
  status: SummaryStatus;
  /**
   * Why it is not valid: `missing_provenance`, `scope_mismatch`, `authority_exceeds_sources`, `expired`;
   * `superseded` (status expired) for a compaction summary replaced by a later or refreshed one.
   */
  reasons: string[];
  age: number;
  ttl: number;
  provenance: string[];
  line: number;
}

export type Status = 'ok' | 'warning' | 'escalated';

export type EventLevel = 'safety' | 'major' | 'detail';
export interface StabilizeEvent {
  level: EventLevel;
  code: string;
  message: string;
  /** Artifact the event is about, when there is one. */
  id?: string;
}

export interface ContextItem {
  id: string;
  kind: ArtifactKind;
  role?: string;
  tokens: number;
  content: Content;
  tool?: string;
  call_id?: string;
  /** A result answering several calls at once (SWE-agent `tool_call_ids`). */
  call_ids?: string[];
  tool_calls?: ToolCall[];
  is_error?: boolean;
  /** The result was replaced by a short placeholder that keeps its call valid. */
  placeholder?: boolean;
  /** Protected evidence cut to its head and tail (the ledger's `excerpted` entry says how much). */
  excerpt?: boolean;
  line: number;
}

/**
 * A compaction summary made in this run (docs/compaction.md): the artifacts it stands for, the summary
 * it refreshes, and its validation (the summaries stage's rules).
 */
export interface CompactionLog {
  id: string;
  /** Provenance: ids of the artifacts it stands for (a refreshed summary's sources included). */
  covers: string[];
  /** The compaction summary of the transcript it replaces (now `summary_superseded`). */
  refreshed_from?: string;
  tokens: number;
  /** The turn it was made in. */
  created_at: number;
  scope: { task?: string; phase?: string };
  status: SummaryStatus;
  /** Lines of the full text left out to fit `compaction.max_tokens` or the budget (the text says which). */
  lines_left_out: number;
}

export interface StabilizeResult {
  transcript: string;
  status: Status;
  budget: { limit: number; used: number };
  context: ContextItem[];
  ledger: LedgerEntry[];
  summaries: SummaryLog[];
  events: StabilizeEvent[];
  /** Set only when a compaction summary was made (`compaction.enabled`). */
  compaction?: CompactionLog[];
}
