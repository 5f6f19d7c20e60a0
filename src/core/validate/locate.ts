// Where a violation is annotated: the artifact's own line and column in its transcript.
import type { Artifact, Transcript } from '../types.js';
import type { Violation } from './types.js';

export class Locator {
  private readonly byId: Map<string, Artifact>;

  constructor(t: Transcript) {
    this.byId = new Map(t.artifacts.map((a) => [a.id, a]));
  }

  artifact(id: string): Artifact | undefined {
    return this.byId.get(id);
  }

  /** A violation at artifact `id` (line 1 when the id is not one of the transcript's). */
  at(id: string, message: string): Violation {
    const a = this.byId.get(id);
    return a ? { id, line: a.source.line, column: a.source.column, message } : { id, line: 1, message };
  }
}
