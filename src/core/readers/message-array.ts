// Where a chat transcript keeps its messages: a bare array, `messages`, or, in agent run records,
// `traj` (tau-bench), `history` or `trajectory` (SWE-agent). SWE-agent files hold both `history`
// (the chat) and `trajectory` (steps without roles), so a key only counts when it holds messages.
import { isObject } from './values.js';

export const MESSAGE_KEYS = ['messages', 'traj', 'history', 'trajectory'] as const;

export interface MessageArray {
  /** The key it sits under; null for a bare array. */
  key: string | null;
  messages: unknown[];
}

/** Judged by the first item: a message has a string `role`. */
function looksLikeMessages(items: unknown[]): boolean {
  const first = items[0];
  return isObject(first) && typeof first['role'] === 'string';
}

export function findMessageArray(root: unknown): MessageArray | null {
  if (Array.isArray(root))
    return root.length === 0 || looksLikeMessages(root) ? { key: null, messages: root } : null;
  if (!isObject(root)) return null;
  for (const key of MESSAGE_KEYS) {
    const value = root[key];
    if (Array.isArray(value) && looksLikeMessages(value)) return { key, messages: value };
  }
  // An empty or malformed `messages` array is still the messages: the reader reports what is wrong.
  const messages = root['messages'];
  return Array.isArray(messages) ? { key: 'messages', messages } : null;
}
