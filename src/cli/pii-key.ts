// The key of `pii.strategy: hash` at the edge (docs/pii.md): the CLI and the Action read it from
// CONTEXT_STABILITY_PII_KEY, never from the policy (which is committed, hashed into goldens and
// shown in reports). A policy that hashes without it is an input error (exit 2) saying what to set.
import { diagnostic } from '../core/diagnostics.js';
import { PII_KEY_ENV } from '../core/pii/aliases.js';
import { HASH_PLACEHOLDER } from '../core/pii/template.js';
import type { Policy } from '../core/policy/index.js';
import type { Diagnostic } from '../core/types.js';

/** The key from the environment; an empty value is no key. */
export function piiKeyFrom(env: Readonly<Record<string, string | undefined>>): string | undefined {
  const key = env[PII_KEY_ENV];
  return key === undefined || key === '' ? undefined : key;
}

/** The error of a policy that hashes values when no key is set; undefined when all is well. */
export function missingPiiKey(policy: Policy, key: string | undefined, file: string): Diagnostic | undefined {
  if (key !== undefined || !policy.pii.replacement.includes(HASH_PLACEHOLDER)) return undefined;
  return diagnostic(
    'error',
    'pii-key',
    { file, line: 1, column: 1 },
    `pii.strategy is hash, which needs a key: the environment variable ${PII_KEY_ENV} is not set.`,
    `Set ${PII_KEY_ENV} to the key the goldens were made with (in a workflow, from a secret: env: ${PII_KEY_ENV}: \${{ secrets.CONTEXT_STABILITY_PII_KEY }}).`,
  );
}
