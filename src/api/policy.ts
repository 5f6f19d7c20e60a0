// Library policies: `options.policy` is a complete Policy or any partial policy object (the keys
// of .github/context-policy.yml); it is validated by the same rules as a policy file.
import { InputError } from '../core/diagnostics.js';
import { defaultPolicyResult, policyFromObject } from '../core/policy/index.js';
import type { ParsedPolicy, Policy, PolicyInput } from '../core/policy/index.js';

/** A complete Policy (e.g. `DEFAULT_POLICY`, `parsePolicy(…).policy`) or a partial one such as `{ budget: 4000 }`. */
export type PolicyOption = Policy | PolicyInput;

/** The name policy diagnostics give an in-memory policy object. */
export const POLICY_OBJECT_FILE = '<policy object>';

// An agent stabilizes before every model call, usually with the same policy object: validate and
// compile its PII rules once. Only frozen objects are cached (parsePolicy and DEFAULT_POLICY freeze
// theirs), since a mutable object may change between calls.
const validated = new WeakMap<object, ParsedPolicy>();

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

/**
 * The policy validated, defaults filled, PII rules compiled; the built-in default when absent.
 * `diagnostics` holds the warnings of a valid policy (unknown keys, which are ignored). Throws an
 * InputError listing every diagnostic (field path, accepted values, a hint) when invalid.
 */
export function resolvePolicy(policy: PolicyOption | undefined): ParsedPolicy {
  if (policy === undefined) return defaultPolicyResult();
  const known = validated.get(policy);
  if (known) return known;
  const parsed = policyFromObject(policy, { file: POLICY_OBJECT_FILE });
  // Warnings (unknown keys) stay in the list: a misspelt key often explains the error next to it.
  if (!parsed.ok) throw new InputError(parsed.diagnostics);
  if (isDeepFrozen(policy)) validated.set(policy, parsed);
  return parsed;
}
