// Small helpers for looking at parsed JSON values without ever quoting them: diagnostics name
// a value's type, never its content (transcripts may hold PII).
import { maskedForMessage } from '../pii/shown.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `a string`, `an array`, `null`…: what a diagnostic may say about a value instead of quoting it. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  switch (typeof value) {
    case 'string':
      return 'a string';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'a boolean';
    case 'object':
      return 'an object';
    default:
      return 'an unsupported value';
  }
}

const SAFE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;

/**
 * Field names and record types are schema words, so naming them helps the user; but a key can be
 * anything, so only identifier-like names are echoed (null otherwise).
 */
export function safeName(name: string): string | null {
  return SAFE_NAME.test(name) && maskedForMessage(name) === name ? name : null;
}

export function joinPath(base: string, key: string | number): string {
  if (typeof key === 'number') return `${base}[${key}]`;
  if (key === '') return base;
  return base === '' ? key : `${base}.${key}`;
}

/** Top-level scalar fields of a wrapper object (model, task_id, reward…): cheap, useful metadata. */
export function scalarFields(obj: JsonObject, exclude: readonly string[]): Record<string, unknown> {
  const meta: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(obj)) {
    if (exclude.includes(key)) continue;
    if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
      meta[key] = value;
  }
  return meta;
}
