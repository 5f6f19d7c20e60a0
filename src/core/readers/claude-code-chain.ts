// Which records of a Claude Code session the model saw last. A session log is a tree: each record
// names its `parentUuid`; a rewind starts a new branch from an earlier record, and a compaction
// writes a `compact_boundary` record (parent null) followed by a summary that stands for everything
// before it. The conversation is the chain from the last message back to its root or boundary.
// Records off that chain are marked (not removed): the stabilizer leaves them out with a reason.
import type { Artifact } from '../types.js';

export type OffChain = NonNullable<Artifact['offChain']>;

export interface ChainNode {
  uuid: string;
  parent: string | null;
  line: number;
  boundary: boolean;
  /** A boundary's `logicalParentUuid`: the last record the compaction summary stands for. */
  logicalParent?: string;
  /** Artifacts read from this record (none for a boundary). */
  artifacts: Artifact[];
}

/**
 * Marks the artifacts of records off the chain that ends at the last message: `compacted` before
 * the compaction boundary the chain starts from, `abandoned_branch` otherwise. When the chain
 * cannot be followed (a parent that is not in the file, a cycle, more than one root), nothing is
 * marked: the file is read in file order rather than guessed at.
 */
export function markOffChain(nodes: readonly ChainNode[]): void {
  // A session has one root (compaction boundaries aside). Logs written without the tree (every
  // parentUuid null) have many: then file order is all there is.
  if (nodes.filter((n) => n.parent === null && !n.boundary).length > 1) return;
  const byUuid = new Map(nodes.map((n) => [n.uuid, n]));
  const leaf = [...nodes].reverse().find((n) => n.artifacts.length > 0);
  if (!leaf) return;
  const chain = new Set<string>();
  let boundary: ChainNode | undefined;
  for (let cur: ChainNode | undefined = leaf; cur;) {
    if (chain.has(cur.uuid)) return;
    chain.add(cur.uuid);
    if (cur.boundary) {
      boundary = cur;
      break;
    }
    if (cur.parent === null) break;
    const next = byUuid.get(cur.parent);
    if (!next) return;
    cur = next;
  }
  // What the compaction summary stands for: the chain that ended at the boundary's logical parent.
  // Without that link, everything before the boundary counts as compacted.
  const compacted = new Set<string>();
  for (let cur = boundary?.logicalParent ? byUuid.get(boundary.logicalParent) : undefined; cur;) {
    if (compacted.has(cur.uuid)) break;
    compacted.add(cur.uuid);
    cur = cur.parent === null ? undefined : byUuid.get(cur.parent);
  }
  for (const n of nodes) {
    if (chain.has(n.uuid)) continue;
    const before = boundary !== undefined && n.line < boundary.line;
    const summarized = before && (boundary?.logicalParent === undefined || compacted.has(n.uuid));
    const reason: OffChain = summarized ? 'compacted' : 'abandoned_branch';
    for (const a of n.artifacts) a.offChain = reason;
  }
}
