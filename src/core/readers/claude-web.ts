// Claude web session reader: the JSON export of a claude.ai / Claude Code web session,
// `{loglines: [...], ...}`, as simonw/claude-code-transcripts reads it. Each logline is a Claude
// Code session record (`{type, timestamp, message: {role, content}}`, plus `uuid`, `parentUuid`,
// `isSidechain`… when the export keeps them), so the records are read as claude-code.ts reads
// them: `user` and `assistant` records through the Anthropic block conversion, `summary` records
// as `summary` artifacts, side chains marked, and the chain the model saw followed by uuid
// (claude-code-chain.ts; an export without uuids is read in file order). Claude Code's own records
// in the user's turn (command stubs, local command output, `isMeta` records) are tagged `meta` as
// claude-code.ts tags them.
// Logline i becomes artifact `m<i>` (an export may sit on one line, so lines cannot name it), and
// each tool_result block its own `tool` artifact `m<i>.<block>` positioned at the block.
//
// The export is a log of records, so a record that cannot be used is a WARNING at its position and
// is skipped: other record types once per type (`skipped-record`), user or assistant records with
// no usable message each (`malformed-record`). Meta: the scalar fields of the root.
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import { diagnostic } from '../diagnostics.js';
import { messageArtifacts, readAnthropicContent } from './anthropic-blocks.js';
import { buildArtifact } from './artifact-builder.js';
import { CommandRecords } from './claude-code.js';
import { markOffChain, type ChainNode } from './claude-code-chain.js';
import { ReadContext } from './context.js';
import type { ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, safeName, scalarFields, type JsonObject } from './values.js';

const SKIP_HINT = 'The record was skipped; the rest of the session was loaded. Repair or remove the record.';

/** An object whose `loglines` is an array: no other transcript shape has that key. */
export function isClaudeWebDocument(root: unknown): boolean {
  return isObject(root) && Array.isArray(root['loglines']);
}

class LoglineReader {
  readonly artifacts: Artifact[] = [];
  readonly diagnostics: Diagnostic[];
  private readonly skipped = new Map<string, { at: SourcePos; count: number }>();
  /** Artifact id of each record by its uuid, to link summaries to the record they cover. */
  private readonly byUuid = new Map<string, string>();
  private readonly leaves = new Map<Artifact, string>();
  private readonly nodes: ChainNode[] = [];
  private readonly commands = new CommandRecords();

  private readonly ctx: ReadContext;

  constructor(
    private readonly file: string,
    private readonly positions: ParsedValue['positions'],
  ) {
    this.diagnostics = [];
    this.ctx = new ReadContext(file, positions, this.diagnostics);
  }

  at(node: unknown): SourcePos {
    return this.ctx.pos(node);
  }

  private malformed(at: SourcePos, message: string): void {
    this.diagnostics.push(diagnostic('warning', 'malformed-record', at, message, SKIP_HINT));
  }

  /** `near` (the loglines array) stands in for the position of a record that is a scalar. */
  read(record: unknown, i: number, near: SourcePos): void {
    const at = this.ctx.pos(record, near);
    if (!isObject(record)) {
      this.malformed(at, `\`loglines[${i}]\` holds ${describeValue(record)}, not a session record object.`);
      return;
    }
    const type = record['type'];
    if (typeof type !== 'string') {
      this.malformed(
        at,
        type === undefined
          ? `\`loglines[${i}]\` has no \`type\` field.`
          : `\`loglines[${i}].type\` must be a string; found ${describeValue(type)}.`,
      );
      return;
    }
    if (type === 'summary') this.summary(record, i, at);
    else if (type === 'user' || type === 'assistant') this.message(record, type, i, at);
    else {
      if (type === 'system' && record['subtype'] === 'compact_boundary') this.node(record, i, true, []);
      const seen = this.skipped.get(type);
      if (seen) seen.count += 1;
      else this.skipped.set(type, { at, count: 1 });
    }
  }

  private summary(record: JsonObject, i: number, at: SourcePos): void {
    const summary = record['summary'];
    if (typeof summary !== 'string') {
      this.malformed(at, `\`loglines[${i}].summary\` must be a string; found ${describeValue(summary)}.`);
      return;
    }
    const artifact = buildArtifact({ id: `m${i}`, kind: 'summary', content: summary, source: at });
    this.artifacts.push(artifact);
    const leaf = record['leafUuid'];
    if (typeof leaf === 'string') this.leaves.set(artifact, leaf);
  }

  private message(record: JsonObject, kind: 'user' | 'assistant', i: number, at: SourcePos): void {
    const message = record['message'];
    if (!isObject(message)) {
      this.malformed(
        at,
        `The ${kind} record's \`loglines[${i}].message\` must be an object; found ${describeValue(message)}.`,
      );
      return;
    }
    // Problems inside the content make the record unusable: collect them apart, report one warning.
    const problems: Diagnostic[] = [];
    const content = readAnthropicContent(message['content'], {
      ctx: new ReadContext(this.file, this.positions, problems, at),
      path: `loglines[${i}].message.content`,
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
    const read = messageArtifacts(content, { id: `m${i}`, kind, source: at, sidechain }, (r) =>
      this.ctx.pos(r.node, at),
    );
    const made = this.commands.mark(record, kind, content.content, read);
    this.artifacts.push(...made);
    const uuid = record['uuid'];
    if (typeof uuid === 'string' && made.length > 0 && !this.byUuid.has(uuid))
      this.byUuid.set(uuid, made[made.length - 1]?.id ?? `m${i}`);
    if (!sidechain) this.node(record, i, false, made);
  }

  /** `line` of a chain node only orders records: the logline index stands in for it. */
  private node(record: JsonObject, i: number, boundary: boolean, artifacts: Artifact[]): void {
    const uuid = record['uuid'];
    const parent = record['parentUuid'];
    if (typeof uuid !== 'string' || uuid === '') return;
    if (parent !== null && typeof parent !== 'string') return;
    const logical = record['logicalParentUuid'];
    this.nodes.push({
      uuid,
      parent,
      line: i,
      boundary,
      artifacts,
      ...(typeof logical === 'string' ? { logicalParent: logical } : {}),
    });
  }

  finish(): void {
    for (const [artifact, leaf] of this.leaves) {
      const id = this.byUuid.get(leaf);
      if (id !== undefined) artifact.provenance = [id];
    }
    markOffChain(this.nodes);
    for (const [type, { at, count }] of this.skipped) {
      const name = safeName(type);
      this.diagnostics.push(
        diagnostic(
          'warning',
          'skipped-record',
          at,
          `Skipped ${count} record(s) of type ${name ? `\`${name}\`` : 'with an unusual name'} (first one here): they hold no conversation messages.`,
          'Nothing to do unless these records should count; only user, assistant and summary records are read.',
        ),
      );
    }
  }
}

export function readClaudeWeb(doc: ParsedValue, file: string): ReaderOutput {
  const reader = new LoglineReader(file, doc.positions);
  const root = doc.value;
  const loglines = isObject(root) ? root['loglines'] : undefined;
  if (!isObject(root) || !Array.isArray(loglines)) {
    const diagnostics: Diagnostic[] = [];
    const ctx = new ReadContext(file, doc.positions, diagnostics);
    ctx.error(
      'invalid-session',
      ctx.pos(root),
      `A Claude web session must be an object with a \`loglines\` array; found ${describeValue(isObject(root) ? loglines : root)}${isObject(root) ? ' there' : ''}.`,
      'Export the session as {"loglines": [...]}, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  const near = reader.at(loglines);
  loglines.forEach((record, i) => reader.read(record, i, near));
  reader.finish();
  return {
    artifacts: reader.artifacts,
    meta: scalarFields(root, ['loglines']),
    diagnostics: reader.diagnostics,
  };
}
