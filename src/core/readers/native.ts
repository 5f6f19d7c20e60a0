// Native reader: `{meta, artifacts:[...]}` in JSON, or one artifact object per JSONL line with an
// optional `{"meta":{...}}` record before the first artifact. Default ids: `a<index>` (JSON,
// 0-based) and `L<line>` (JSONL). The PRD's artifact shape (kinds `message`, `tool_output`) is read
// as aliases of the model's kinds (native-artifact.ts).
import { diagnostic } from '../diagnostics.js';
import type { Artifact, Diagnostic, SourcePos } from '../types.js';
import { ReadContext } from './context.js';
import { readNativeArtifact } from './native-artifact.js';
import type { ParsedLine, ParsedValue, ReaderOutput } from './reader-types.js';
import { describeValue, isObject, safeName } from './values.js';

const TOP_LEVEL = ['meta', 'artifacts'];

/** Ids must be unique: pairing, the ledger and goldens all key on them. */
class IdRegistry {
  private readonly seen = new Map<string, number>();
  constructor(private readonly diagnostics: Diagnostic[]) {}

  claim(artifact: Artifact, where: string): boolean {
    const first = this.seen.get(artifact.id);
    if (first === undefined) {
      this.seen.set(artifact.id, artifact.source.line);
      return true;
    }
    this.diagnostics.push(
      diagnostic(
        'error',
        'duplicate-id',
        artifact.source,
        `${where} has the same id as the artifact at line ${first}.`,
        'Give every artifact a unique id, or leave `id` out to get a default one.',
      ),
    );
    return false;
  }
}

function readMeta(value: unknown, ctx: ReadContext, near: SourcePos): Record<string, unknown> | null {
  if (isObject(value)) return value;
  ctx.error(
    'invalid-artifact',
    ctx.pos(value, near),
    `\`meta\` must be an object; found ${describeValue(value)}.`,
    'Write meta as {"key": value, ...} or leave it out.',
  );
  return null;
}

export function readNativeJson(doc: ParsedValue, file: string): ReaderOutput {
  const diagnostics: Diagnostic[] = [];
  const ctx = new ReadContext(file, doc.positions, diagnostics);
  const root = doc.value;
  const near = ctx.pos(root);
  if (!isObject(root) || !Array.isArray(root['artifacts'])) {
    ctx.error(
      'invalid-artifact',
      near,
      `A native JSON transcript must be an object with an \`artifacts\` array; found ${describeValue(isObject(root) ? root['artifacts'] : root)} there.`,
      'Write {"meta": {...}, "artifacts": [...]}, or pass --input-format to choose another reader.',
    );
    return { artifacts: [], meta: {}, diagnostics };
  }
  for (const key of Object.keys(root)) {
    if (TOP_LEVEL.includes(key)) continue;
    const name = safeName(key);
    ctx.warning(
      'unknown-field',
      near,
      `${name ? `Top-level field \`${name}\`` : 'A top-level field with an unusual name'} is not part of the native format and is ignored.`,
      'A native JSON transcript holds only `meta` and `artifacts`.',
    );
  }
  const meta = root['meta'] === undefined ? {} : (readMeta(root['meta'], ctx, near) ?? {});
  const ids = new IdRegistry(diagnostics);
  const unknownSeen = new Set<string>();
  const artifacts: Artifact[] = [];
  root['artifacts'].forEach((node, i) => {
    const path = `artifacts[${i}]`;
    const artifact = readNativeArtifact(node, { ctx, path, defaultId: `a${i}`, unknownSeen });
    if (artifact && ids.claim(artifact, `\`${path}\``)) artifacts.push(artifact);
  });
  return { artifacts, meta, diagnostics };
}

function isMetaRecord(value: unknown): value is { meta: unknown } {
  return isObject(value) && Object.keys(value).length === 1 && 'meta' in value;
}

export function readNativeJsonl(lines: ParsedLine[], file: string): ReaderOutput {
  const diagnostics: Diagnostic[] = [];
  const unknownSeen = new Set<string>();
  const artifacts: Artifact[] = [];
  let meta: Record<string, unknown> = {};
  let metaLine: number | null = null;
  const ids = new IdRegistry(diagnostics);
  for (const rec of lines) {
    const ctx = new ReadContext(file, rec.positions, diagnostics, { line: rec.line, column: 1 });
    const at: SourcePos = { file, line: rec.line, column: 1 };
    if (isMetaRecord(rec.value)) {
      // Meta describes the whole transcript, so it must come before any artifact and only once.
      if (artifacts.length > 0 || metaLine !== null) {
        ctx.error(
          'misplaced-meta',
          at,
          metaLine === null
            ? 'A meta record must come before the first artifact; this one is ignored.'
            : `A meta record was already given at line ${metaLine}; this one is ignored.`,
          'Put a single {"meta": {...}} record on the first line.',
        );
        continue;
      }
      meta = readMeta(rec.value.meta, ctx, at) ?? {};
      metaLine = rec.line;
      continue;
    }
    const artifact = readNativeArtifact(rec.value, { ctx, path: '', defaultId: `L${rec.line}`, unknownSeen });
    if (!artifact) continue;
    // JSONL artifacts are located at their line, column 1 (one record per line).
    const placed = { ...artifact, source: at };
    if (ids.claim(placed, 'This artifact')) artifacts.push(placed);
  }
  return { artifacts, meta, diagnostics };
}
