// Builds artifacts without `undefined`-valued keys, so equal inputs give objects that compare and
// serialize identically whichever reader made them.
import type { Artifact, Content } from '../types.js';

export type ArtifactDraft = { [K in keyof Artifact]: Artifact[K] | undefined };

/**
 * Every artifact field, in the order of the DESIGN §2 table: built artifacts get this key order
 * whatever order the draft had. A Record over keyof Artifact, so a new field cannot be forgotten.
 */
const FIELDS: Record<keyof Artifact, true> = {
  id: true,
  kind: true,
  role: true,
  content: true,
  tool: true,
  call_id: true,
  call_ids: true,
  tool_calls: true,
  exit_code: true,
  is_error: true,
  tags: true,
  scope: true,
  provenance: true,
  created_at: true,
  ttl: true,
  pin: true,
  pressure: true,
  sidechain: true,
  offChain: true,
  source: true,
};
const FIELD_ORDER = Object.keys(FIELDS) as (keyof Artifact)[];

export function buildArtifact(draft: ArtifactDraft): Artifact {
  const out: Record<string, unknown> = {};
  for (const key of FIELD_ORDER) {
    if (draft[key] !== undefined) out[key] = draft[key];
  }
  return out as unknown as Artifact;
}

/** Every artifact has these; the other fields are optional. */
export type ArtifactFields = Pick<Artifact, 'id' | 'kind' | 'content' | 'source'> & {
  [K in keyof Artifact]?: Artifact[K] | undefined;
};

/** An artifact from the fields at hand (the others stay absent), in the same key order. */
export function makeArtifact(fields: ArtifactFields): Artifact {
  return buildArtifact(fields as ArtifactDraft);
}

export function isEmptyContent(content: Content): boolean {
  return content.length === 0;
}
