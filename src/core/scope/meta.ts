// The `meta` tag: a user message the client wrote rather than the user. Claude Code writes a
// slash-command stub (`<command-name>`…), local command output (`<local-command-stdout>`…), the
// caveat before them and other `isMeta` records into the user's turn (readers/claude-code.ts
// marks them). Such a message is still sent to the model, but it is never the task statement or
// the latest request (scope/task.ts). Any format may carry the tag (native `tags`).
import type { Artifact } from '../types.js';

export const META_TAG = 'meta';

export function isMetaMessage(a: Pick<Artifact, 'tags'>): boolean {
  return (a.tags ?? []).includes(META_TAG);
}
