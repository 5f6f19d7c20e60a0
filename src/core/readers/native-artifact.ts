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

/**
 * The kinds of the PRD's artifact shape (seed 004: `system`, `task`, `message`, `tool_output`) read
 * as aliases: `message` is a chat message whose `role` says whose it is, `tool_output` a tool's
 * output (kind `tool`). A `tool_output` without `call_id` answers no call: it stays an output of
 * its own (pairing.ts), kept or dropped by budget and sent to the chat APIs as user text
 * (emit/standalone.ts); no call is made up for it. `constraint` is the DESIGN's alias of `policy`.
 */
const ALIASES = ['constraint', 'message', 'tool_output'] as const;
const KIND_NAMES = [...ARTIFACT_KINDS, ...ALIASES];

/** The roles a `message` artifact may name, and the kind each one reads as (no role: user). */
const MESSAGE_ROLES: Readonly<Record<string, ArtifactKind>> = {
  user: 'user',
  assistant: 'assistant',
  system: 'system',
};
const ROLE_LIST = 'user, assistant or system';
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

interface KindRead {
  kind: ArtifactKind;
  /** The role the artifact keeps: the alias it was written as (`constraint`), or none. */
  alias?: string;
  /** The `role` field said which kind the artifact is (a `message`): it is not kept as a role. */
  roleRead?: true;
}

function readKind(value: unknown, role: unknown, site: FieldSite): KindRead | null {
  if (value === 'constraint') return { kind: 'policy', alias: 'constraint' };
  if (value === 'tool_output') return { kind: 'tool' };
  if (value === 'message') return readMessageRole(role, site);
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

/** A `message` artifact: its `role` (user when left out) gives the kind. */
function readMessageRole(role: unknown, site: FieldSite): KindRead | null {
  if (role === undefined) return { kind: 'user', roleRead: true };
  // A role that is no string is reported by the field's own check.
  if (typeof role !== 'string') return null;
  const kind = Object.hasOwn(MESSAGE_ROLES, role) ? MESSAGE_ROLES[role] : undefined;
  if (kind !== undefined) return { kind, roleRead: true };
  const name = safeName(role);
  site.ctx.error(
    CODE,
    site.near,
    `\`${joinPath(site.path, 'role')}\` of a \`message\` artifact must be ${ROLE_LIST}; found ${name ? `role \`${name}\`` : 'an unsupported role'}.`,
    role === 'tool'
      ? 'Write a tool\'s output as {"kind": "tool_output", "content": "..."} (with "call_id" when it answers a call).'
      : `Write the role as ${ROLE_LIST} (left out: user), or give the artifact a kind of its own (task, tool_output, summary...).`,
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
  const approval = call['approval'];
  if (approval !== undefined && approval !== 'requested' && approval !== 'approved' && approval !== 'denied')
    return fail(site, 'approval', 'requested, approved or denied', approval, CALL_HINT);
  // Arguments given as an object are stored the way providers send them: as a JSON string.
  const stored = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  return { id, name, arguments: stored, ...(approval !== undefined ? { approval } : {}) };
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
  const kind = readKind(node['kind'], node['role'], fs);
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
    role: kind.roleRead ? undefined : (field<string>('role') ?? kind.alias),
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
