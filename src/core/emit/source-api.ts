// The API a transcript format's recordings talk to: `--emit same` writes its request, and the
// `provider` check (policy `target: same`) applies its rules. One table, so a new format is one row.
import type { TranscriptFormat } from '../types.js';

export interface SourceApi {
  /** What `--emit same` writes. Formats without an emitter of their own name the closest API. */
  emit: 'native' | 'openai' | 'anthropic' | 'responses';
  /** The request rules the context must meet: a format that names no single API must suit both. */
  apis: readonly ('openai' | 'anthropic')[];
}

const OPENAI: SourceApi = { emit: 'openai', apis: ['openai'] };
/** Recordings of Responses API items (Codex rollouts too): written back as a Responses request, checked by the OpenAI rules. */
const RESPONSES: SourceApi = { emit: 'responses', apis: ['openai'] };
const ANTHROPIC: SourceApi = { emit: 'anthropic', apis: ['anthropic'] };
/** Provider-agnostic recordings (SDKs that call any model): written as OpenAI, checked for both. */
const ANY: SourceApi = { emit: 'openai', apis: ['openai', 'anthropic'] };

export const SOURCE_API: Readonly<Record<TranscriptFormat, SourceApi>> = {
  native: { emit: 'native', apis: ['openai', 'anthropic'] },
  openai: OPENAI,
  anthropic: ANTHROPIC,
  'claude-code': ANTHROPIC,
  'claude-web': ANTHROPIC,
  codex: RESPONSES,
  responses: RESPONSES,
  'vercel-ai': ANY,
  langchain: ANY,
  gemini: OPENAI,
  openhands: OPENAI,
  aider: OPENAI,
};
