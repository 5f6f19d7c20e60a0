// PII inside the agent, per session (issue 29): the session's masker (its numbering table lives in
// the session memo, so a value keeps its number on every call), the refusal of `pii.strategy:
// block`, and the restore map that turns a tool call's aliases back into the values before the tool
// runs. The restore map stays in this process: nothing here is recorded, reported or logged.
import { InputError, diagnostic } from '../core/diagnostics.js';
import { jsonLiterals } from '../core/pii/json-literals.js';
import { PII_KEY_ENV, piiStrategyOf } from '../core/pii/aliases.js';
import type { PiiAliases } from '../core/pii/aliases.js';
import {
  HASH_PLACEHOLDER,
  isPerValue,
  labelTemplate,
  readAliases,
  renderTemplate,
} from '../core/pii/template.js';
import type { ParsedPolicy, Policy } from '../core/policy/index.js';
import type { Masker } from '../core/stabilize/finalize.js';
import type { StabilizeMemo } from '../core/stabilize/memo.js';
import { createMasker } from '../core/stabilize/stabilize.js';
import type { StabilizeResult } from '../core/stabilize/types.js';
import { contextPii } from '../core/stabilize/verdict.js';
import { ContextBlockedError } from './errors.js';

/**
 * `value` with the aliases of its strings replaced by the values they stand for, in the same shape
 * (a string stays a string, an object an object of the same keys).
 */
export type Restore = <T>(value: T) => T;

/**
 * A policy that hashes values needs the host's key: an InputError saying what to set, before any
 * call (the policy file itself is fine, so the diagnostic names the option).
 */
export function checkPiiKey(parsed: ParsedPolicy, key: string | undefined, file = '(policy)'): void {
  if (!parsed.policy.pii.replacement.includes(HASH_PLACEHOLDER) || (key !== undefined && key !== '')) return;
  throw new InputError([
    diagnostic(
      'error',
      'pii-key',
      { file, line: 1, column: 1 },
      'pii.strategy is hash, which needs a key, and none was given.',
      `Pass piiKey to the ContextStabilizer (e.g. piiKey: process.env.${PII_KEY_ENV}); the same key gives the same hashes in CI.`,
    ),
  ]);
}

/**
 * What messages and file names mask with: the policy's detectors, aliases inert, a found value in
 * the label form (`[REDACTED_EMAIL]`): a session id is masked outside any session's numbering.
 */
export function nameMasker(policy: Policy, rules: ParsedPolicy['rules']): Masker {
  const label = labelTemplate(policy.pii.replacement);
  return { ...createMasker(policy, rules), alias: (type) => renderTemplate(label, type) };
}

/**
 * The session's masker for what the session shows (recordings, summarizer inputs): the numbering
 * table and masked texts of its memo, so they carry the aliases the model sees.
 */
export function sessionMasker(
  policy: Policy,
  rules: ParsedPolicy['rules'],
  memo: StabilizeMemo,
  key: string | undefined,
): Masker {
  const own = memo.for(policy);
  return { ...createMasker(policy, rules, { aliases: own.aliases, key }), memo: own.masked };
}

/** pii.strategy block: throws ContextBlockedError when the context holds PII (counts by type only). */
export function refuseIfBlocked(
  session: string,
  shown: string,
  result: StabilizeResult,
  policy: Policy,
): void {
  if (piiStrategyOf(policy.pii) !== 'block') return;
  const found = contextPii(result.context, result.ledger);
  if (found.ids.length > 0) throw new ContextBlockedError(session, result, found, shown);
}

/** JSON-escaped characters of `s`, as they stand inside a JSON string. */
function inJsonString(s: string): string {
  return JSON.stringify(s).slice(1, -1);
}

function restoreText(text: string, template: string, aliases: PiiAliases): string {
  const tokens = readAliases(text, template);
  if (tokens.length === 0) return text;
  // In a JSON text (arguments as a string), an alias stands inside a string literal: the value
  // goes in escaped, so the JSON stays valid whatever the value holds.
  const json = jsonLiterals(text) !== null;
  let out = '';
  let pos = 0;
  for (const t of tokens) {
    const original = aliases.original(t.type, t.part);
    if (original === undefined) continue;
    out += text.slice(pos, t.start) + (json ? inJsonString(original) : original);
    pos = t.end;
  }
  return pos === 0 ? text : out + text.slice(pos);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/** Strings anywhere in arrays and plain objects (keys too); anything else as it is. */
function deepMap(value: unknown, fn: (s: string) => string, seen: WeakSet<object>): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) {
    if (seen.has(value)) return value;
    seen.add(value);
    let changed = false;
    const out = value.map((v: unknown) => {
      const m = deepMap(v, fn, seen);
      if (m !== v) changed = true;
      return m;
    });
    return changed ? out : value;
  }
  if (isPlainObject(value)) {
    if (seen.has(value)) return value;
    seen.add(value);
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const key = fn(k);
      const m = deepMap(v, fn, seen);
      if (key !== k || m !== v) changed = true;
      out[key] = m;
    }
    return changed ? out : value;
  }
  return value;
}

/**
 * The restore map of a session: numbered and hashed aliases back to the values they stand for, in
 * strings at any depth (JSON texts included). Secrets are never in it (aliases.ts); an alias the
 * session never gave out stays as it is. Under redact and block an alias stands for every value of
 * its type, so nothing can be restored: the value comes back unchanged.
 */
export function restorer(policy: Policy, aliases: PiiAliases): Restore {
  const template = policy.pii.replacement;
  const strategy = piiStrategyOf(policy.pii);
  if (strategy === 'redact' || strategy === 'block' || !isPerValue(template)) return (value) => value;
  return <T>(value: T): T => deepMap(value, (s) => restoreText(s, template, aliases), new WeakSet()) as T;
}
