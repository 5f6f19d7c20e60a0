// Accumulates the artifacts of one synthetic transcript: assigns ids and source positions, keeps
// the PII ground truth in step with the text, and tracks size so generation stops on target.

import type { Artifact, ToolCall } from '../../../src/core/types.js';
import type { PiiType, PlantedPii } from './pii.js';
import type { Rng } from './rng.js';

export type NewArtifact = Omit<Artifact, 'id' | 'source'>;

export interface ToolResultSpec {
  content: string;
  exitCode?: number;
  isError?: boolean;
  tags?: string[];
  /** PII values that occur in `content`. */
  plants?: readonly { type: PiiType; value: string }[];
}

export interface ToolCallSpec {
  name: string;
  args: Record<string, unknown>;
  result: ToolResultSpec;
}

export interface Limits {
  /** Stop when this many artifacts exist (exact: steps that would overshoot are refused). */
  messages?: number;
  /** Stop once the native JSONL size reaches this many bytes. */
  bytes?: number;
}

export class TranscriptBuilder {
  readonly artifacts: Artifact[] = [];
  readonly planted: PlantedPii[] = [];
  /** Size of the native JSONL serialization so far, in UTF-8 bytes. */
  size = 0;
  private callCounter = 0;

  constructor(
    readonly rng: Rng,
    readonly file: string,
    readonly limits: Limits,
  ) {}

  /** Whether a step adding `count` artifacts may run now. */
  fits(count: number): boolean {
    const { messages, bytes } = this.limits;
    if (messages !== undefined && this.artifacts.length + count > messages) return false;
    if (bytes !== undefined && this.size >= bytes) return false;
    return true;
  }

  done(): boolean {
    return !this.fits(1);
  }

  /** Turn counter for summaries: the position the next artifact will take. */
  get turn(): number {
    return this.artifacts.length;
  }

  add(fields: NewArtifact, plants: readonly { type: PiiType; value: string }[] = []): Artifact {
    const index = this.artifacts.length;
    const artifact: Artifact = {
      id: `a${index}`,
      ...fields,
      source: { file: this.file, line: index + 1, column: 1 },
    };
    this.artifacts.push(artifact);
    for (const p of plants) this.planted.push({ artifact: artifact.id, type: p.type, value: p.value });
    const { source: _source, ...onDisk } = artifact;
    this.size += Buffer.byteLength(JSON.stringify(onDisk), 'utf8') + 1;
    return artifact;
  }

  /** A later copy of `original` (a repeated question, an identical tool output): same text, new id. */
  repeat(original: Artifact, overrides: Partial<NewArtifact> = {}): Artifact {
    const { id: _id, source: _source, ...fields } = original;
    const plants = this.planted.filter((p) => p.artifact === original.id);
    return this.add({ ...fields, ...overrides }, plants);
  }

  nextCallId(): string {
    this.callCounter++;
    return `call_${this.rng.base62(20)}${this.callCounter.toString(36)}`;
  }

  /**
   * One assistant message with its tool calls (parallel when several), followed directly by one
   * result per call in call order. Returns false (adding nothing) when the step does not fit.
   */
  toolRound(
    text: string,
    calls: readonly ToolCallSpec[],
    extra: { tags?: string[]; pin?: boolean; plants?: readonly { type: PiiType; value: string }[] } = {},
  ): { assistant: Artifact; results: Artifact[] } | null {
    if (!this.fits(1 + calls.length)) return null;
    const toolCalls: ToolCall[] = calls.map((c) => ({
      id: this.nextCallId(),
      name: c.name,
      arguments: JSON.stringify(c.args),
    }));
    const assistant = this.add(
      {
        kind: 'assistant',
        content: text,
        tool_calls: toolCalls,
        ...(extra.tags ? { tags: extra.tags } : {}),
        ...(extra.pin ? { pin: true } : {}),
      },
      extra.plants ?? [],
    );
    const results = calls.map((c, i) => {
      const call = toolCalls[i] as ToolCall;
      const r = c.result;
      return this.add(
        {
          kind: 'tool',
          tool: c.name,
          call_id: call.id,
          content: r.content,
          ...(r.exitCode !== undefined ? { exit_code: r.exitCode } : {}),
          ...(r.isError ? { is_error: true } : {}),
          ...(r.tags && r.tags.length > 0 ? { tags: r.tags } : {}),
        },
        r.plants ?? [],
      );
    });
    return { assistant, results };
  }

  /** Adds one plain message if it fits. */
  message(fields: NewArtifact, plants: readonly { type: PiiType; value: string }[] = []): Artifact | null {
    return this.fits(1) ? this.add(fields, plants) : null;
  }
}
