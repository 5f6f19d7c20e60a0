// Claude Code session reader (JSONL). `user` and `assistant` records carry Anthropic-style
// content in `message` and go through the Anthropic block conversion; `summary` records become
// `summary` artifacts. One artifact per record (assistant turns split over several records with
// the same message.id stay separate), plus one `tool` artifact `<id>.<block>` per tool_result.
//
// A session log is an append-only file written by a tool we do not control, so records we cannot
// use are reported as warnings and skipped, and the rest of the session still loads:
// - other record types (system, file-history-snapshot, queue-operation…): `skipped-record`, once
//   per type at its first line, with the count;
// - lines that are not objects, have no type, or hold a missing/invalid message: `malformed-record`.
// Lines that are not JSON at all are errors of the container (see container.ts).
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import { diagnostic } from '../diagnostics.js';
import { messageArtifacts, readAnthropicContent } from './anthropic-blocks.js';
import { buildArtifact } from './artifact-builder.js';
import { markOffChain, type ChainNode } from './claude-code-chain.js';
import { ReadContext } from './context.js';
import type { ParsedLine, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, safeName, type JsonObject } from './values.js';

const SKIP_HINT = 'The record was skipped; the rest of the session was loaded. Repair or remove the line.';

interface SkippedType {
  line: number;
  count: number;
}

class SessionReader {
  readonly artifacts: Artifact[] = [];
  readonly diagnostics: Diagnostic[] = [];
  readonly meta: Record<string, unknown> = {};
  private readonly usedIds = new Set<string>();
  private readonly skipped = new Map<string, SkippedType>();
  private readonly leaves = new Map<Artifact, string>();
  /** Main-chain records with a uuid, in file order: the session's tree (claude-code-chain.ts). */
  private readonly nodes: ChainNode[] = [];

  constructor(private readonly file: string) {}

  private malformed(at: SourcePos, message: string): void {
    this.diagnostics.push(diagnostic('warning', 'malformed-record', at, message, SKIP_HINT));
  }

  /** The record's uuid when present and not taken by an earlier record, else `L<line>`. */
  private idFor(record: JsonObject, line: number): string {
    const uuid = record['uuid'];
    const id = typeof uuid === 'string' && uuid !== '' && !this.usedIds.has(uuid) ? uuid : `L${line}`;
    this.usedIds.add(id);
    return id;
  }

  read(rec: ParsedLine): void {
    const at: SourcePos = { file: this.file, line: rec.line, column: 1 };
    const record = rec.value;
    if (!isObject(record)) {
      this.malformed(at, `The line holds ${describeValue(record)}, not a Claude Code record object.`);
      return;
    }
    const type = record['type'];
    if (typeof type !== 'string') {
      this.malformed(
        at,
        type === undefined
          ? 'The record has no `type` field.'
          : `The record's \`type\` must be a string; found ${describeValue(type)}.`,
      );
      return;
    }
    if (typeof record['sessionId'] === 'string' && this.meta['sessionId'] === undefined) {
      this.meta['sessionId'] = record['sessionId'];
    }
    if (type === 'summary') this.readSummary(record, at);
    else if (type === 'user' || type === 'assistant') this.readMessage(record, type, rec, at);
    else {
      if (type === 'system' && record['subtype'] === 'compact_boundary')
        this.node(record, rec.line, true, []);
      const seen = this.skipped.get(type);
      if (seen) seen.count += 1;
      else this.skipped.set(type, { line: rec.line, count: 1 });
    }
  }

  private readSummary(record: JsonObject, at: SourcePos): void {
    const summary = record['summary'];
    if (typeof summary !== 'string') {
      this.malformed(
        at,
        `The summary record's \`summary\` must be a string; found ${describeValue(summary)}.`,
      );
      return;
    }
    const artifact = buildArtifact({
      id: this.idFor(record, at.line),
      kind: 'summary',
      content: summary,
      source: at,
    });
    this.artifacts.push(artifact);
    const leaf = record['leafUuid'];
    if (typeof leaf === 'string') this.leaves.set(artifact, leaf);
  }

  private readMessage(record: JsonObject, kind: 'user' | 'assistant', rec: ParsedLine, at: SourcePos): void {
    const message = record['message'];
    if (!isObject(message)) {
      this.malformed(
        at,
        `The ${kind} record's \`message\` must be an object; found ${describeValue(message)}.`,
      );
      return;
    }
    // Problems inside the content make the record unusable: collect them apart, report one warning.
    const problems: Diagnostic[] = [];
    const ctx = new ReadContext(this.file, rec.positions, problems, at);
    const content = readAnthropicContent(message['content'], {
      ctx,
      path: 'message.content',
      near: at,
      code: 'malformed-record',
    });
    if (!content) {
      const first = problems[0];
      const more = problems.length > 1 ? ` (and ${problems.length - 1} more problem(s))` : '';
      this.malformed(at, `Invalid ${kind} record: ${first ? first.message : 'unreadable content.'}${more}`);
      return;
    }
    const sidechain = record['isSidechain'] === true ? true : undefined;
    const id = this.idFor(record, rec.line);
    const made: Artifact[] = [];
    for (const artifact of messageArtifacts(content, { id, kind, source: at, sidechain }, () => at)) {
      this.usedIds.add(artifact.id);
      this.artifacts.push(artifact);
      made.push(artifact);
    }
    if (!sidechain) this.node(record, rec.line, false, made);
  }

  private node(record: JsonObject, line: number, boundary: boolean, artifacts: Artifact[]): void {
    const uuid = record['uuid'];
    const parent = record['parentUuid'];
    if (typeof uuid !== 'string' || uuid === '') return;
    if (parent !== null && typeof parent !== 'string') return;
    const logical = record['logicalParentUuid'];
    this.nodes.push({
      uuid,
      parent,
      line,
      boundary,
      artifacts,
      ...(typeof logical === 'string' ? { logicalParent: logical } : {}),
    });
  }

  /**
   * A summary's `leafUuid` names the last message it covers: its provenance, when that message is in
   * this file (it often sits in an earlier session's file, and then the summary has none).
   */
  private linkSummaries(): void {
    const ids = new Set(this.artifacts.map((a) => a.id));
    for (const [artifact, leaf] of this.leaves) if (ids.has(leaf)) artifact.provenance = [leaf];
  }

  finish(): void {
    this.linkSummaries();
    markOffChain(this.nodes);
    for (const [type, { line, count }] of this.skipped) {
      const name = safeName(type);
      this.diagnostics.push(
        diagnostic(
          'warning',
          'skipped-record',
          { file: this.file, line, column: 1 },
          `Skipped ${count} record(s) of type ${name ? `\`${name}\`` : 'with an unusual name'} (first one here): they hold no conversation messages.`,
          'Nothing to do unless these records should count; only user, assistant and summary records are read.',
        ),
      );
    }
  }
}

export function readClaudeCode(lines: ParsedLine[], file: string): ReaderOutput {
  const reader = new SessionReader(file);
  for (const rec of lines) reader.read(rec);
  reader.finish();
  return { artifacts: reader.artifacts, meta: reader.meta, diagnostics: reader.diagnostics };
}
