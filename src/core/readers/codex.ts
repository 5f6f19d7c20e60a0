// Codex CLI rollout reader (`~/.codex/sessions/…/rollout-*.jsonl`): one record per line,
// `{timestamp, type, payload}`. What the model saw is in the `response_item` records, which are
// OpenAI Responses API items:
// - `message` (role user, developer, system or assistant; input_text / output_text parts);
// - `reasoning` (kept untouched, as a `reasoning` part of the assistant turn);
// - `function_call`, `custom_tool_call`, `local_shell_call` (tool calls, by `call_id`) and their
//   `*_output` items (tool results);
// - `web_search_call` (kept as a part of the assistant turn; it has no separate output).
// Consecutive model items (reasoning, assistant message, calls) form one assistant artifact, as
// one Chat Completions assistant message would (responses-items.ts, shared with the Responses
// reader; a custom or local shell output keeps its item type as `role`). `session_meta` gives meta; `turn_context` and
// `event_msg` (UI events that repeat the messages) are left out; any other record type is left
// out with one warning per type. A user message that only carries Codex's own context
// (`<environment_context>`, `<user_instructions>`) is system context, not the task. The session's
// base instructions (session_meta) are the first system artifact; a `compacted` record replaces
// the history before it (docs/formats.md, "codex").
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import { ReadContext } from './context.js';
import type { ParsedLine, ReaderOutput } from './reader-types.js';
import {
  artifact,
  itemParts,
  ModelTurns,
  readItemCall,
  readItemOutput,
  textOf,
  type ItemSite,
} from './responses-items.js';
import { describeValue, isObject, safeName, type JsonObject } from './values.js';

const CODE = 'invalid-codex-record';
const HINT =
  'Each rollout line is {"timestamp", "type", "payload"}; a response_item payload is a Responses API item.';

/** Record types that are read, or deliberately left out without a note. */
const KNOWN_RECORDS = new Set(['session_meta', 'response_item', 'turn_context', 'event_msg', 'compacted']);
const CALL_ITEMS = new Set(['function_call', 'custom_tool_call', 'local_shell_call']);
const OUTPUT_ITEMS = new Set(['function_call_output', 'custom_tool_call_output', 'local_shell_call_output']);
const CODEX_CONTEXT = /^\s*<(environment_context|user_instructions)>[\s\S]*<\/\1>\s*$/;

export function isCodexRecord(value: unknown): boolean {
  return (
    isObject(value) &&
    typeof value['type'] === 'string' &&
    KNOWN_RECORDS.has(value['type']) &&
    isObject(value['payload'])
  );
}

const META_KEYS = ['id', 'cli_version', 'originator', 'model_provider', 'source'];

/** The session's base instructions, when the rollout recorded them (a string, or `{text}`). */
function instructionsOf(payload: JsonObject): string | undefined {
  const base = payload['base_instructions'];
  const text = payload['instructions'] ?? (isObject(base) ? base['text'] : base);
  return typeof text === 'string' && text.trim() !== '' ? text : undefined;
}

class RolloutReader {
  readonly diagnostics: Diagnostic[] = [];
  readonly artifacts: Artifact[] = [];
  readonly meta: Record<string, unknown> = {};
  private readonly skipped = new Map<string, { line: number; count: number }>();
  private readonly turns = new ModelTurns(this.artifacts);

  constructor(private readonly file: string) {}

  record(rec: ParsedLine): void {
    const { file } = this;
    const ctx = new ReadContext(file, rec.positions, this.diagnostics, { line: rec.line, column: 1 });
    const at: SourcePos = { file, line: rec.line, column: 1 };
    const value = rec.value;
    const type = isObject(value) ? value['type'] : undefined;
    if (!isObject(value) || typeof type !== 'string') {
      ctx.error(
        CODE,
        at,
        `A rollout record must be an object with a string \`type\`; found ${describeValue(value)}.`,
        HINT,
      );
      return;
    }
    if (!KNOWN_RECORDS.has(type)) return this.skip(type, rec.line);
    const payload = value['payload'];
    if (!isObject(payload)) {
      ctx.error(
        CODE,
        at,
        `The record's \`payload\` must be an object; found ${describeValue(payload)}.`,
        HINT,
      );
      return;
    }
    if (type === 'session_meta') return this.sessionMeta(payload, rec.line, at);
    if (type === 'compacted') return this.compacted(payload, rec.line, ctx, at);
    if (type === 'response_item') this.item(payload, `L${rec.line}`, { ctx, at, code: CODE, hint: HINT });
  }

  private skip(type: string, line: number): void {
    const seen = this.skipped.get(type) ?? { line, count: 0 };
    seen.count++;
    this.skipped.set(type, seen);
  }

  private sessionMeta(payload: JsonObject, line: number, at: SourcePos): void {
    for (const k of META_KEYS)
      if (typeof payload[k] === 'string') this.meta[k === 'id' ? 'session_id' : k] = payload[k];
    const instructions = instructionsOf(payload);
    if (instructions === undefined) return;
    this.turns.close();
    this.artifacts.push(artifact({ id: `L${line}`, kind: 'system', content: instructions, source: at }));
  }

  /**
   * A compaction replaces the history the model sees from here on. With `replacement_history` the
   * record holds that history itself; without it Codex rebuilds it from the user messages so far
   * and the summary `message`, so those stay and everything else before the record is compacted.
   */
  private compacted(payload: JsonObject, line: number, ctx: ReadContext, at: SourcePos): void {
    this.turns.close();
    const replacement = payload['replacement_history'];
    const keepUsers = !Array.isArray(replacement);
    const covered: string[] = [];
    for (const a of this.artifacts) {
      if (a.offChain || (keepUsers && (a.kind === 'user' || a.kind === 'system'))) continue;
      a.offChain = 'compacted';
      covered.push(a.id);
    }
    if (Array.isArray(replacement)) {
      replacement.forEach((item, i) => {
        const site: ItemSite = { ctx, at: ctx.pos(item, at), code: CODE, hint: HINT };
        if (isObject(item)) this.item(item, `L${line}.${i}`, site);
        else
          ctx.error(
            CODE,
            site.at,
            `A replacement_history item must be an object; found ${describeValue(item)}.`,
            HINT,
          );
      });
      this.turns.close();
      return;
    }
    const message = payload['message'];
    if (typeof message !== 'string' || message.trim() === '') {
      ctx.error(
        CODE,
        at,
        `A compacted record must hold its summary \`message\` as a string; found ${describeValue(message)}.`,
        HINT,
      );
      return;
    }
    this.artifacts.push(
      artifact({
        id: `L${line}`,
        kind: 'summary',
        content: message,
        provenance: covered.length > 0 ? covered : undefined,
        source: at,
      }),
    );
  }

  private item(item: JsonObject, id: string, site: ItemSite): void {
    const { turns } = this;
    const { ctx, at } = site;
    const itemType = item['type'];
    if (itemType === 'reasoning' || itemType === 'web_search_call') {
      turns.parts([{ ...item, type: itemType }], id, at);
      return;
    }
    if (typeof itemType === 'string' && CALL_ITEMS.has(itemType)) {
      const call = readItemCall(item, site);
      if (call) turns.call(call, id, at);
      return;
    }
    if (itemType === 'message' && item['role'] === 'assistant') {
      const parts = itemParts(item['content'], site);
      if (parts) turns.parts(parts, id, at);
      return;
    }
    turns.close();
    if (typeof itemType === 'string' && OUTPUT_ITEMS.has(itemType)) {
      const out = readItemOutput(item, id, site);
      if (out) this.artifacts.push(out);
      return;
    }
    if (itemType === 'message') {
      const role = item['role'];
      if (role !== 'user' && role !== 'developer' && role !== 'system') {
        ctx.error(
          CODE,
          at,
          `A message item's \`role\` must be user, developer, system or assistant; found ${describeValue(role)}.`,
          HINT,
        );
        return;
      }
      const parts = itemParts(item['content'], site);
      if (!parts) return;
      // The role is kept where it differs from the kind: developer, or user for Codex's context.
      const kind = role === 'user' && !CODEX_CONTEXT.test(textOf(parts)) ? 'user' : 'system';
      const shownRole = role === kind ? undefined : role;
      this.artifacts.push(artifact({ id, kind, role: shownRole, content: parts, source: at }));
      return;
    }
    const name = typeof itemType === 'string' ? safeName(itemType) : null;
    this.skip(`response_item ${name ?? '(unnamed)'}`, at.line);
  }

  finish(): ReaderOutput {
    this.turns.close();
    for (const [type, { line, count }] of this.skipped) {
      const shown = type.startsWith('response_item ') ? type : (safeName(type) ?? '(unnamed)');
      this.diagnostics.push({
        severity: 'warning',
        code: 'skipped-record',
        file: this.file,
        line,
        column: 1,
        message: `Left out ${count} record${count === 1 ? '' : 's'} of type ${shown}, which this reader does not know (first here).`,
        hint: 'Nothing to do if these records hold no conversation; otherwise report the record type.',
      });
    }
    return { artifacts: this.artifacts, meta: this.meta, diagnostics: this.diagnostics };
  }
}

export function readCodex(lines: ParsedLine[], file: string): ReaderOutput {
  const reader = new RolloutReader(file);
  for (const rec of lines) reader.record(rec);
  return reader.finish();
}
