// The text of an artifact that PII masking sees (DESIGN §4 stage 4: tool arguments included).

import type { Artifact } from '../../../src/core/types.js';
import { contentText } from './serialize/types.js';

export function artifactText(a: Artifact): string {
  const parts = [contentText(a.content)];
  for (const c of a.tool_calls ?? []) parts.push(c.arguments);
  return parts.join('\n');
}
