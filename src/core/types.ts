// Shared data model of the pure core (DESIGN §2). Every reader produces these; every later
// stage, check and sink consumes them. Keep this file free of behaviour.

export const ARTIFACT_KINDS = [
  'system',
  'policy',
  'task',
  'user',
  'assistant',
  'tool',
  'retrieval',
  'summary',
  'phase',
] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const TRANSCRIPT_FORMATS = [
  'native',
  'openai',
  'anthropic',
  'claude-code',
  'codex',
  'responses',
  'vercel-ai',
  'langchain',
  'gemini',
  'openhands',
  'aider',
  'claude-web',
] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** 1-based line and column (column counted in UTF-16 code units, as editors and GitHub do). */
export interface SourcePos {
  file: string;
  line: number;
  column: number;
}

export interface TextPart {
  type: 'text';
  text: string;
}

/** Images, documents, audio…: counted at a fixed declared cost and never altered. */
export interface OpaquePart {
  type: string;
  [key: string]: unknown;
}

export type ContentPart = TextPart | OpaquePart;
export type Content = string | ContentPart[];

export interface ToolCall {
  id: string;
  name: string;
  /** Arguments as the provider sent them: a JSON string (OpenAI) or serialized input (Anthropic). */
  arguments: string;
  /**
   * A call that asked the user before running (AI SDK tool approvals; native `approval`): still
   * waiting (`requested`), or the user's answer. A pending call says so in the context (normalize).
   */
  approval?: 'requested' | 'approved' | 'denied';
}

export interface Artifact {
  id: string;
  kind: ArtifactKind;
  /** The role as written in the source (`developer`, `function`, `human`…), when it differs from kind. */
  role?: string;
  content: Content;
  tool?: string;
  /** Tool result: the call it answers. */
  call_id?: string;
  /** Tool result answering several calls at once (SWE-agent `tool_call_ids`); call_id is the first. */
  call_ids?: string[];
  /** Assistant: the tool calls it made. */
  tool_calls?: ToolCall[];
  exit_code?: number;
  is_error?: boolean;
  tags?: string[];
  scope?: { task?: string; phase?: string };
  provenance?: string[];
  created_at?: number;
  ttl?: number;
  pin?: boolean;
  pressure?: number;
  /** Claude Code side-chain (sub-agent) record: kept apart from the main line. */
  sidechain?: boolean;
  /**
   * Claude Code record off the conversation's chain: on a branch abandoned by a rewind, or before
   * the compaction boundary the conversation continues from. Left out by the stabilizer.
   */
  offChain?: 'abandoned_branch' | 'compacted';
  /** Where the artifact starts in its file: every finding is annotated here. */
  source: SourcePos;
}

/** Result of pairing tool results with calls (DESIGN §2: nearest earlier pending call of the id). */
export interface Pairing {
  /** result artifact id → id of the assistant artifact whose call it answers */
  resultToCall: Record<string, string>;
  unpairedCalls: { artifact: string; call_id: string; line: number }[];
  unpairedResults: { artifact: string; call_id: string; line: number }[];
}

export type Severity = 'error' | 'warning';

/**
 * A problem found in an input file. `message` and `hint` never quote the input: a transcript
 * or policy may hold PII, and error text ends up in logs, annotations and PR comments.
 */
export interface Diagnostic {
  severity: Severity;
  /** Stable kebab-case kind, e.g. `json-syntax`, `invalid-utf8`, `duplicate-key`. */
  code: string;
  file: string;
  line: number;
  column: number;
  message: string;
  /** What the user should do about it. */
  hint: string;
}

export interface Transcript {
  file: string;
  format: TranscriptFormat;
  meta: Record<string, unknown>;
  artifacts: Artifact[];
  pairing: Pairing;
  /** Non-fatal problems (skipped records, unpaired tools, duplicate keys…). */
  diagnostics: Diagnostic[];
}
