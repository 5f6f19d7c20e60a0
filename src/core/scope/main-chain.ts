// Which artifacts are on the conversation the model saw: the one filter every scope rule and check
// applies before it looks for a task statement, a request or a conversation.
import type { Artifact } from '../types.js';

/** Not a side chain (a sub-agent), not off the chain (a rewound branch, before a compaction). */
export function onMainChain(a: Pick<Artifact, 'sidechain' | 'offChain'>): boolean {
  return a.sidechain !== true && a.offChain === undefined;
}
