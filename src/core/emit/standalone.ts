// A tool output that answers no call: native transcripts allow it (the seeds' data model has tool
// outputs without call ids: a log the harness captured, a result whose call id was not recorded).
// The chat APIs take a tool result only as the answer to a call in the turn before, so such an output
// is sent as user text, unchanged (its tokens are what the budget counted).
import type { ContextItem } from '../stabilize/types.js';

export function isStandaloneOutput(item: ContextItem): boolean {
  return item.kind === 'tool' && item.call_id === undefined && (item.call_ids?.length ?? 0) === 0;
}
