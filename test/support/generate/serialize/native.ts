// Native format (DESIGN §2): JSONL, one artifact per line, or `{meta, artifacts}` JSON. `source`
// is a reader-side position, so it is not written.

import type { Artifact } from '../../../../src/core/types.js';
import type { ArtifactRef, Serialized } from './types.js';
import { linesInWrapper } from './types.js';

function onDisk(a: Artifact): Omit<Artifact, 'source'> {
  const { source: _source, ...rest } = a;
  return rest;
}

export function serializeNativeJsonl(artifacts: readonly Artifact[]): Serialized {
  const refs = new Map<string, ArtifactRef>();
  const lines = artifacts.map((a, i) => {
    refs.set(a.id, { id: a.id, line: i + 1 });
    return JSON.stringify(onDisk(a));
  });
  return { text: lines.length > 0 ? `${lines.join('\n')}\n` : '', refs };
}

export function serializeNativeJson(artifacts: readonly Artifact[]): Serialized {
  const refs = new Map<string, ArtifactRef>();
  artifacts.forEach((a, i) => refs.set(a.id, { id: a.id, line: i + 2 }));
  const head = `{"meta":${JSON.stringify({ generator: 'context-stability synthetic' })},"artifacts":[`;
  return { text: linesInWrapper(head, artifacts.map(onDisk), ']}'), refs };
}
