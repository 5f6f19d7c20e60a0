// Writes a stabilized context in the native format (DESIGN §2): `{ meta, artifacts }`.
import type { ContextItem } from '../stabilize/types.js';

export interface NativeDocument {
  meta: Record<string, unknown>;
  artifacts: Record<string, unknown>[];
}

export function toNative(
  context: readonly ContextItem[],
  meta: Record<string, unknown> = {},
): NativeDocument {
  return {
    meta,
    artifacts: context.map((c) => {
      const a: Record<string, unknown> = { id: c.id, kind: c.kind };
      if (c.role !== undefined) a['role'] = c.role;
      a['content'] = c.content;
      if (c.tool !== undefined) a['tool'] = c.tool;
      if (c.call_id !== undefined) a['call_id'] = c.call_id;
      if (c.call_ids !== undefined) a['call_ids'] = c.call_ids;
      if (c.tool_calls !== undefined) a['tool_calls'] = c.tool_calls;
      if (c.is_error) a['is_error'] = true;
      return a;
    }),
  };
}
