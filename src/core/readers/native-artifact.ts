// Validation of one native artifact object (DESIGN §2 field table). Every field is type-checked;
// a bad field is an error naming its path and what is accepted, never the value it holds.
import { ARTIFACT_KINDS, type Artifact, type ArtifactKind, type SourcePos, type ToolCall } from '../types.js';
import { buildArtifact } from './artifact-builder.js';
import { readContent } from './content.js';
import type { ReadContext } from './context.js';
import { describeValue, isObject, joinPath, safeName, type JsonObject } from './values.js';

const CODE = 'invalid-artifact';

type Rule = { expected: string; check: (value: unknown) => boolean };

const isStringArray = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isCount = (v: unknown): boolean => Number.isInteger(v) && (v as number) >= 0;
const isCallIds = (v: unknown): v is string[] => isStringArray(v) && (v as []).length > 0;

/** Fields whose check is a plain type test; kind, content, tool_calls and scope have their own. */
const SIMPLE_FIELDS: Record<string, Rule> = {
  id: { expected: 'a non-empty string', check: (v) => typeof v === 'string' && v !== '' },
  role: { expected: 'a string', check: (v) => typeof v === 'string' },
  tool: { expected: 'a string', check: (v) => typeof v === 'string' },
  call_id: { expected: 'a non-empty string', check: (v) => typeof v === 'string' && v !== '' },
  call_ids: {
    expected: 'a non-empty array of strings',
    check: (v) => isStringArray(v) && (v as []).length > 0,
  },
  exit_code: { expected: 'an integer', check: (v) => Number.isInteger(v) },
  is_error: { expected: 'a boolean', check: (v) => typeof v === 'boolean' },
  tags: { expected: 'an array of strings', check: isStringArray },
  provenance: { expected: 'an array of artifact ids (strings)', check: isStringArray },
  created_at: { expected: 'a non-negative integer (a turn number)', check: isCount },
  ttl: { expected: 'a non-negative integer (a number of turns)', check: isCount },
  pin: { expected: 'a boolean', check: (v) => typeof v === 'boolean' },
  pressure: {
    expected: 'a number from 0.0 to 1.0',
    check: (v) => typeof v === 'number' && v >= 0 && v <= 1,
  },
  sidechain: { expected: 'a boolean', check: (v) => typeof v === 'boolean' },
};

const KIND_NAMES = [...ARTIFACT_KINDS, 'constraint'];
export const NATIVE_FIELDS = ['kind', 'content', 'tool_calls', 'scope', ...Object.keys(SIMPLE_FIELDS)];

export interface NativeSite {
  ctx: ReadContext;
  /** `artifacts[3]` in a JSON file; empty for a JSONL record. */
  path: string;
  defaultId: string;
  /** Unknown field names already warned about in this file: one warning per name is enough. */
  unknownSeen: Set<string>;
}

interface FieldSite {
  ctx: ReadContext;
  path: string;
  near: SourcePos;
}

function fail(site: FieldSite, field: string, expected: string, value: unknown, hint: string): null {
  const path = joinPath(site.path, field);
  site.ctx.error(
    CODE,
    site.near,
    `\`${path}\` must be ${expected}; found ${describeValue(value)}.`,
    hint || `Fix \`${path}\`, or leave the field out.`,
  );
  return null;
}

function readKind(value: unknown, site: FieldSite): { kind: ArtifactKind; alias?: string } | null {
  if (value === 'constraint') return { kind: 'policy', alias: 'constraint' };
  if (typeof value === 'string' && (ARTIFACT_KINDS as readonly string[]).includes(value)) {
    return { kind: value as ArtifactKind };
  }
  const found = typeof value === 'string' ? 'an unsupported kind' : describeValue(value);
  site.ctx.error(
    CODE,
    site.near,
    `\`${joinPath(site.path, 'kind')}\` must be one of ${KIND_NAMES.join(', ')}; found ${found}.`,
    'Give every artifact one of the accepted kinds.',
  );
  return null;
}

const CALL_HINT = 'Each tool call is {"id": "...", "name": "...", "arguments": "{...}"}.';

function readToolCall(call: unknown, site: FieldSite): ToolCall | null {
  if (!isObject(call)) return fail(site, '', 'an object', call, CALL_HINT);
  const { id, name } = call;
  const args = call['arguments'];
  if (typeof id !== 'string' || id === '') return fail(site, 'id', 'a non-empty string', id, CALL_HINT);
  if (typeof name !== 'string' || name === '')
    return fail(site, 'name', 'a non-empty string', name, CALL_HINT);
  if (args !== undefined && typeof args !== 'string' && !isObject(args)) {
    return fail(site, 'arguments', 'a JSON string or an object', args, CALL_HINT);
  }
  // Arguments given as an object are stored the way providers send them: as a JSON string.
  return { id, name, arguments: typeof args === 'string' ? args : JSON.stringify(args ?? {}) };
}

function readToolCalls(value: unknown, site: FieldSite): ToolCall[] | null {
  if (!Array.isArray(value)) return fail(site, 'tool_calls', 'an array of tool calls', value, CALL_HINT);
  const calls: ToolCall[] = [];
  let ok = true;
  value.forEach((call, i) => {
    const path = joinPath(joinPath(site.path, 'tool_calls'), i);
    const parsed = readToolCall(call, { ...site, path, near: site.ctx.pos(call, site.near) });
    if (parsed) calls.push(parsed);
    else ok = false;
  });
  return ok ? calls : null;
}

function readScope(value: unknown, site: FieldSite): Artifact['scope'] | null {
  const hint = 'Write the scope as {"task": "...", "phase": "..."}; both are optional strings.';
  if (!isObject(value)) return fail(site, 'scope', 'an object', value, hint);
  const scope: { task?: string; phase?: string } = {};
  for (const [key, v] of Object.entries(value)) {
    if ((key === 'task' || key === 'phase') && typeof v === 'string') scope[key] = v;
    else if (key === 'task' || key === 'phase') return fail(site, `scope.${key}`, 'a string', v, hint);
    else return fail(site, 'scope', 'an object with only task and phase', value, hint);
  }
  return scope;
}

function warnUnknown(obj: JsonObject, site: NativeSite, near: SourcePos): void {
  for (const key of Object.keys(obj)) {
    if (NATIVE_FIELDS.includes(key) || site.unknownSeen.has(key)) continue;
    site.unknownSeen.add(key);
    const name = safeName(key);
    const where = site.path === '' ? '' : ` in \`${site.path}\``;
    site.ctx.warning(
      'unknown-field',
      near,
      `${name ? `Field \`${name}\`` : 'A field with an unusual name'}${where} is not an artifact field and is ignored.`,
      `Accepted fields: ${NATIVE_FIELDS.join(', ')}. Remove or rename it (reported once per file).`,
    );
  }
}

/** The artifact, or null after reporting every invalid field. */
export function readNativeArtifact(node: unknown, site: NativeSite): Artifact | null {
  const near = site.ctx.pos(node);
  const fs: FieldSite = { ctx: site.ctx, path: site.path, near };
  if (!isObject(node)) {
    const what = site.path === '' ? 'The record' : `\`${site.path}\``;
    site.ctx.error(
      CODE,
      near,
      `${what} must be an artifact object; found ${describeValue(node)}.`,
      'Write each artifact as {"kind": "...", "content": "..."}.',
    );
    return null;
  }
  let ok = true;
  for (const [field, rule] of Object.entries(SIMPLE_FIELDS)) {
    const value = node[field];
    if (value !== undefined && !rule.check(value)) {
      fail(fs, field, rule.expected, value, '');
      ok = false;
    }
  }
  const kind = readKind(node['kind'], fs);
  const content = readContent(node['content'], {
    ctx: site.ctx,
    path: joinPath(site.path, 'content'),
    near,
    code: CODE,
  });
  const toolCalls = node['tool_calls'] === undefined ? undefined : readToolCalls(node['tool_calls'], fs);
  const scope = node['scope'] === undefined ? undefined : readScope(node['scope'], fs);
  const callIds = isCallIds(node['call_ids']) ? node['call_ids'] : undefined;
  if (callIds && node['call_id'] !== undefined && node['call_id'] !== callIds[0]) {
    fail(
      fs,
      'call_id',
      'the first of call_ids',
      node['call_id'],
      'Drop call_id or make it the first of call_ids.',
    );
    ok = false;
  }
  warnUnknown(node, site, near);
  if (!ok || !kind || content === null || toolCalls === null || scope === null) return null;
  const field = <T>(name: string): T | undefined => node[name] as T | undefined;
  return buildArtifact({
    id: field<string>('id') ?? site.defaultId,
    kind: kind.kind,
    role: field<string>('role') ?? kind.alias,
    content,
    tool: field('tool'),
    call_id: field<string>('call_id') ?? callIds?.[0],
    call_ids: callIds,
    tool_calls: toolCalls,
    exit_code: field('exit_code'),
    is_error: field('is_error'),
    tags: field('tags'),
    scope,
    provenance: field('provenance'),
    created_at: field('created_at'),
    ttl: field('ttl'),
    pin: field('pin'),
    pressure: field('pressure'),
    sidechain: field('sidechain'),
    source: near,
  });
}
