// The policy as a JSON Schema, generated from the zod schema (schema.ts) so editors can complete
// and check `.github/context-policy.yml` (docs/policy.md). `npm run schema` writes it to
// schema/context-policy.schema.json; test/core/policy/json-schema.test.ts fails when that file is
// stale. The schema is an editor aid: `policy validate` stays the authority (cross-field rules such
// as the guardian thresholds' order, RE2 patterns and known phone regions are checked there only).
import { z } from 'zod';
import { PolicySchema } from './schema.js';

/**
 * Draft-07: the newest draft the YAML language server (VS Code's Red Hat YAML, monaco-yaml,
 * Neovim/Helix via yaml-language-server) and VS Code's JSON service fully support.
 */
export const POLICY_JSON_SCHEMA_DRAFT = 'http://json-schema.org/draft-07/schema#';

/** Where the published package serves the schema (the `$id`); docs/policy.md shows pinned forms. */
export const POLICY_JSON_SCHEMA_ID =
  'https://cdn.jsdelivr.net/npm/context-stability/schema/context-policy.schema.json';

/** Path of the committed schema, relative to the repository (and package) root. */
export const POLICY_JSON_SCHEMA_FILE = 'schema/context-policy.schema.json';

/**
 * The description of every field, by dotted path (`pii.rules[]` = each rule). Shown on hover and
 * in completion; the test requires one for every property, so a new field cannot miss it.
 */
export const POLICY_FIELD_DESCRIPTIONS: Readonly<Record<string, string>> = {
  version: 'Policy format version. This release reads version 1.',
  tokenizer: 'Encoding used to count tokens (gpt-tokenizer).',
  model_family:
    'Whose tokens the budget counts: openai (counted exactly; the default), or anthropic, gemini or other, which need a calibration.',
  calibration:
    'Provider tokens per local token (0.25–4, at most 3 decimals): every count is scaled by it, rounded up. Required for anthropic, gemini and other; measure it with context-stability calibrate (docs/tokenizers.md).',
  target:
    'API whose request rules the provider check applies: same (the transcript’s own; Claude Code → anthropic), openai or anthropic.',
  budget: 'Maximum tokens of the stabilized context.',
  message_overhead: 'Framing tokens counted per artifact.',
  keep_recent: 'The N newest turns: each one’s user message and latest answer stay in the context.',
  authority: 'Artifact kinds, highest authority first, each at most once.',
  order:
    'Sections of the stabilized context, in this order, each at most once. System and policy must come before task, and task before conversation and summaries; sections left out follow in default order.',
  resilience: 'What survives compression: protected tools and message kinds, truncation and notices.',
  'resilience.enabled': 'Protect the listed tools and message kinds from being dropped.',
  'resilience.truncation_mode': 'default, or aggressive: cut protected outputs to shorter excerpts.',
  'resilience.protected_tools': 'Tool names whose calls and results are never dropped.',
  'resilience.protected_message_kinds': 'Message kinds (tags) that are never dropped.',
  'resilience.notification_level': 'How much the stabilizer tells the agent about what it removed.',
  pii: 'PII masking: detectors, phone regions, extra rules, allow list, strategy and replacement text.',
  'pii.detectors':
    'Detectors that mask PII. The default is the seven built-ins; the others are opt-in (docs/pii.md).',
  'pii.regions':
    'Regions (ISO 3166-1 alpha-2, upper case) whose national phone numbers are masked after a context word; international numbers (+…) are masked for every region.',
  'pii.digit_run': 'Mask any run of at least N digits: 0 turns it off, 3 is the strict rule; 1 is refused.',
  'pii.rules': 'Extra detectors: RE2 regular expressions (no lookaround; (?i) for any case).',
  'pii.rules[]': 'One extra detector.',
  'pii.rules[].name':
    'Lower-case letters, digits and _, starting with a letter; unique. Upper-cased, it is the {TYPE} of the replacement.',
  'pii.rules[].pattern': 'An RE2 regular expression; it must not match empty text or the replacement.',
  'pii.allow': 'Literal values that are never masked.',
  'pii.strategy':
    'What a found value becomes: numbered ([EMAIL_1], one number per value in the transcript or session), redact ([REDACTED_EMAIL]), hash ([EMAIL_k3f9ab2c], a keyed hash; the key comes from CONTEXT_STABILITY_PII_KEY or the piiKey option) or block (masked as redact, and a call whose context holds PII is refused). See docs/pii.md.',
  'pii.replacement':
    'Text that replaces each match; {TYPE} is the detector or rule name in upper case, {N} the value’s number (numbered only), {HASH} its keyed hash (hash only). Default per strategy: [{TYPE}_{N}], [REDACTED_{TYPE}], [{TYPE}_{HASH}]. No digits, quotes, backslashes or control characters.',
  tool_output: 'Large tool outputs: their token limit and the JSON fields kept.',
  'tool_output.max_tokens':
    'Larger outputs: unprotected ones are masked down to keep_fields or dropped, protected ones cut to an excerpt.',
  'tool_output.keep_fields': 'JSON tool outputs are masked down to these fields.',
  dedup: 'Folding of near-duplicate artifacts.',
  'dedup.enabled': 'Fold near-duplicates.',
  'dedup.similarity': 'Similarity from 0 to 1: near-duplicates at or above it are folded.',
  summaries: 'Lifetime of summaries.',
  'summaries.ttl': 'User turns a summary stays valid.',
  guardian: 'Context pressure thresholds from 0 to 1 (warning ≤ compress ≤ critical).',
  'guardian.warning': 'Pressure at which the guardian warns.',
  'guardian.compress': 'Pressure at which the guardian compresses.',
  'guardian.critical': 'Pressure at which the guardian halts the session.',
  checks:
    'Severity of each check’s violations: error fails the run, warning is reported, off is skipped (docs/checks.md).',
  'checks.budget': 'The context fits the budget.',
  'checks.order': 'Sections come in the policy’s order.',
  'checks.pii': 'No PII is left in the context.',
  'checks.protected': 'Nothing protected was dropped.',
  'checks.pairing': 'Every tool call has its result and every result its call.',
  'checks.summaries': 'Summaries are within their ttl and name their sources.',
  'checks.guardian': 'The session honoured the guardian’s halts and checkpoints.',
  'checks.drift':
    'The context matches its golden snapshot. warning: drift is reported but does not fail; off: goldens are not compared.',
  'checks.task': 'The task statement of the current scope is in the context.',
  'checks.recency': 'The latest user message is in the context.',
  'checks.nonempty': 'Some conversation follows the system prompt.',
  'checks.provider': 'The target API would accept the request (see target).',
  'checks.cache_prefix':
    'Off unless set: replayed turn by turn, each request repeats at least cache_prefix.min_share of the previous one as a byte-identical prefix (the provider’s prompt cache stays warm).',
  'checks.fresh_results':
    'Warning unless set: the results of the open tool loop (what the model just asked for) are in the context whole; an excerpt is a warning, a dropped result a violation at its call.',
  'checks.retention':
    'Warning unless set: replayed call by call, every argument value of a tool call that the history held reaches the model at that call, and a summary keeps the instructions, errors and pending calls of the turns it replaces.',
  compaction:
    'Replace the older turns the budget cannot keep with one summary built deterministically from them, instead of dropping them (off unless set).',
  'compaction.enabled': 'Turn compaction on.',
  'compaction.max_tokens': 'Most tokens the compaction summary may take.',
  'compaction.request_chars': 'User requests in the summary are shortened to this many characters.',
  runtime: 'How the in-agent adapters (Vercel AI SDK, LangChain, OpenAI Agents, request bodies) behave.',
  'runtime.on_escalated':
    'stop: the adapter throws ContextEscalatedError before the model call; continue: it sends the context and reports a warning.',
  cache_prefix: 'Settings of the cache_prefix check.',
  'cache_prefix.min_share':
    'Least share (0 to 1) of each replayed request, in tokens, that must be a byte-identical prefix of the previous request.',
  retention: 'Settings of the retention check.',
  'retention.max_calls':
    'Most tool-calling model calls replayed per transcript (the newest 8 always); each costs one stabilization.',
  watchdog: 'A limit on the time one transcript may take in check, update and view (300 seconds unless set).',
  'watchdog.max_seconds':
    'Seconds one transcript (reading and checking it) may take; a slower one is reported as error[timeout] (exit 2) and the run goes on. 0: no limit.',
  stable_prefix:
    'Keep each request a byte-identical prefix of the next while the history fits, so the provider’s prompt cache stays warm.',
  'stable_prefix.enabled':
    'Cut the history at stable points (on by default); off cuts newest-first at every call.',
  'stable_prefix.low_water':
    'When a call must cut, how full (0 to 1 of the budget) the context is left; later calls append until the budget is reached.',
  repair: 'How an emitted request is repaired instead of escalated.',
  'repair.leading_user_text':
    'Text of the placeholder user turn put before a history that starts with an assistant turn, where the target API requires a user turn first.',
  part_tokens: 'Declared token cost of each non-text content part, so a budget never rests on a guess.',
  'part_tokens.image': 'Tokens counted per image part.',
  'part_tokens.audio': 'Tokens counted per audio part.',
  'part_tokens.file': 'Tokens counted per file part.',
  'part_tokens.other': 'Tokens counted per part of any other type.',
  $schema:
    'The JSON Schema this file follows, for editors (a JSON policy’s usual reference). Ignored by context-stability.',
};

type JsonSchema = { [key: string]: unknown };

// Keywords in reading order; any other keyword follows, alphabetically. Property order is kept:
// it is the schema's, which is the order of the documented default policy.
const KEYWORD_ORDER = [
  '$schema',
  '$id',
  'title',
  'description',
  'type',
  'const',
  'enum',
  'default',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'not',
  'minItems',
  'maxItems',
  'uniqueItems',
  'items',
  'properties',
  'required',
  'additionalProperties',
];

function rank(keyword: string): number {
  const index = KEYWORD_ORDER.indexOf(keyword);
  return index === -1 ? KEYWORD_ORDER.length : index;
}

function isSchema(value: unknown): value is JsonSchema {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Adds descriptions, drops the `{}` default of mappings (each key has its own) and orders keywords. */
function finish(node: JsonSchema, path: string): JsonSchema {
  const out: JsonSchema = { ...node };
  if (path !== '') {
    const description = POLICY_FIELD_DESCRIPTIONS[path];
    if (description === undefined) throw new Error(`policy JSON Schema: no description for ${path}`);
    out['description'] = description;
  }
  if (out['type'] === 'object') delete out['default'];
  if (isSchema(out['properties'])) {
    const properties = out['properties'];
    out['properties'] = Object.fromEntries(
      Object.entries(properties).map(([key, child]) => [
        key,
        isSchema(child) ? finish(child, path === '' ? key : `${path}.${key}`) : child,
      ]),
    );
  }
  if (isSchema(out['items'])) out['items'] = finishItems(out['items'], `${path}[]`);
  const keys = Object.keys(out).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, out[key]]));
}

/** List items: mappings (pii.rules) are described and finished; scalar items are only ordered. */
function finishItems(items: JsonSchema, path: string): JsonSchema {
  if (items['type'] === 'object') return finish(items, path);
  const keys = Object.keys(items).sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(keys.map((key) => [key, items[key]]));
}

/**
 * The JSON Schema of a policy file, generated from PolicySchema with zod's `toJSONSchema`:
 * the input side (every key optional, defaults shown), draft-07, `additionalProperties: false` at
 * every level (see docs/policy.md), plus `$id`, title and a description for every field.
 */
export function policyJsonSchema(): JsonSchema {
  const generated = z.toJSONSchema(PolicySchema, { io: 'input', target: 'draft-07' }) as JsonSchema;
  const properties = isSchema(generated['properties']) ? generated['properties'] : {};
  return finish(
    {
      ...generated,
      $schema: POLICY_JSON_SCHEMA_DRAFT,
      $id: POLICY_JSON_SCHEMA_ID,
      title: 'context-stability policy',
      description:
        'The context-stability policy (.github/context-policy.yml, YAML or JSON). Every key is optional; a key left out takes its default. `context-stability policy validate` is the authority: it also checks what a schema cannot (e.g. warning ≤ compress ≤ critical, RE2 patterns, phone regions).',
      properties: { ...properties, $schema: { type: 'string' } },
    },
    '',
  );
}

/** The schema file's text: 2-space indent, trailing newline (also what prettier writes). */
export function policyJsonSchemaText(): string {
  return `${JSON.stringify(policyJsonSchema(), null, 2)}\n`;
}
