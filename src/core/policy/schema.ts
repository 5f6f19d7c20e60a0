// The policy contract (DESIGN §3) as a zod schema: every field, its accepted shape and its
// default. Each schema's `error` text is the "accepted values or shape" a diagnostic shows, so
// the wording lives next to the rule it describes.
import { z } from 'zod';
import { DEFAULT_PHONE_REGIONS, isPhoneRegion } from '../pii/detectors/phone.js';
import { PII_STRATEGIES } from '../pii/aliases.js';
import { DEFAULT_PII_DETECTORS, PII_DETECTOR_NAMES } from '../pii/registry.js';
import { MAX_TYPE_NAME_CHARS } from '../pii/template.js';
import { TOKENIZER_NAMES } from '../tokens/tokenizer.js';
import type { TokenizerName } from '../tokens/tokenizer.js';
import { showValue } from './format.js';
import { effectiveTemplate, templateIssues } from './pii-template.js';

export const POLICY_VERSION = 1;

/** The encodings gpt-tokenizer ships (the list is owned by the token counter). */
export const TOKENIZERS = TOKENIZER_NAMES;
export type { TokenizerName };

/**
 * Whose tokens the budget counts. Only OpenAI's encodings run locally; for the other families a
 * local count is scaled by a measured `calibration` (src/core/tokens/calibrate.ts, docs/tokenizers.md).
 */
export const MODEL_FAMILIES = ['openai', 'anthropic', 'gemini', 'other'] as const;
export type ModelFamily = (typeof MODEL_FAMILIES)[number];

/** Calibration factors are kept to 3 decimals so scaled counts are exact integer arithmetic. */
export const CALIBRATION_RANGE = { min: 0.25, max: 4 } as const;

export const TRUNCATION_MODES = ['default', 'aggressive'] as const;
export type TruncationMode = (typeof TRUNCATION_MODES)[number];

export const NOTIFICATION_LEVELS = ['quiet', 'normal', 'verbose'] as const;
export type NotificationLevel = (typeof NOTIFICATION_LEVELS)[number];

export const CHECK_SEVERITIES = ['error', 'warning', 'off'] as const;
export type CheckSeverity = (typeof CHECK_SEVERITIES)[number];

export const CHECK_NAMES = [
  'budget',
  'order',
  'pii',
  'protected',
  'pairing',
  'summaries',
  'guardian',
  'drift',
  'task',
  'recency',
  'nonempty',
  'provider',
] as const;
export type CheckName = (typeof CHECK_NAMES)[number];

/**
 * Checks that are off unless the policy names them (`checks.<name>`): optional without a default,
 * so a policy that does not mention them keeps its hash, and its goldens.
 */
export const OPTIONAL_CHECK_NAMES = ['cache_prefix'] as const;
export type OptionalCheckName = (typeof OPTIONAL_CHECK_NAMES)[number];

/**
 * Checks that run at `warning` unless the policy names them (issue 28): optional without a default
 * too, so that a policy that does not mention them keeps its hash.
 */
export const WARNING_CHECK_NAMES = ['fresh_results', 'retention'] as const;
export type WarningCheckName = (typeof WARNING_CHECK_NAMES)[number];

/** The severity a policy gives a check that runs at `warning` unless named. */
export function warningCheckSeverity(
  policy: { readonly checks: { readonly [K in WarningCheckName]?: CheckSeverity } },
  name: WarningCheckName,
): CheckSeverity {
  return policy.checks[name] ?? 'warning';
}

/** What an in-agent adapter does when a call's context is `escalated` (runtime.on_escalated). */
export const ESCALATION_CHOICES = ['stop', 'continue'] as const;
export type EscalationChoice = (typeof ESCALATION_CHOICES)[number];

/**
 * The API the stabilized context is sent to, whose request rules the `provider` check applies:
 * `same` = the transcript's own (Claude Code → anthropic; a native transcript must suit both).
 */
export const PROVIDER_TARGETS = ['same', 'openai', 'anthropic'] as const;
export type ProviderTarget = (typeof PROVIDER_TARGETS)[number];

/** Sections of the stabilized context (DESIGN §4, stage 10). */
export const ORDER_SECTIONS = ['system', 'policy', 'task', 'conversation', 'summaries'] as const;
export type OrderSection = (typeof ORDER_SECTIONS)[number];

/** Artifact kinds that can be ranked by authority (a summary's authority is that of its sources). */
export const AUTHORITY_KINDS = [
  'system',
  'policy',
  'task',
  'tool',
  'retrieval',
  'user',
  'assistant',
] as const;
export type AuthorityKind = (typeof AUTHORITY_KINDS)[number];

/** Every detector a policy may list: the seven built-ins (the default) and the opt-in ones. */
export const PII_DETECTORS = PII_DETECTOR_NAMES;
export type PiiDetector = (typeof PII_DETECTORS)[number];

/** Non-text content part types with a declared token cost; any other type costs `other`. */
export const PART_TOKEN_KINDS = ['image', 'audio', 'file', 'other'] as const;
export type PartTokenKind = (typeof PART_TOKEN_KINDS)[number];

/** Size limits that keep a policy cheap to validate and apply. */
export const POLICY_LIMITS = {
  maxBudget: 10_000_000,
  maxRules: 50,
  maxPatternChars: 500,
  maxRuleNameChars: MAX_TYPE_NAME_CHARS,
  maxListItems: 256,
  maxListItemChars: 200,
  maxAllowItems: 1000,
  maxAllowItemChars: 500,
  maxReplacementChars: 100,
  maxDigitRun: 64,
  maxWatchdogSeconds: 86_400,
} as const;

/** Seconds one transcript may take when the policy sets no `watchdog` (0 turns the watchdog off). */
// Elapsed time, not CPU: a 44 MB transcript at the record cap took 8 s of CPU and 67 s on a 2-core
// machine shared with a dozen other processes. Five minutes stops a hang without failing a slow runner.
export const WATCHDOG_DEFAULT_SECONDS = 300;

/** The policy's limit on one transcript, in seconds; 0: no limit. */
export function watchdogSeconds(policy: {
  readonly watchdog?: { readonly max_seconds: number } | undefined;
}): number {
  return policy.watchdog?.max_seconds ?? WATCHDOG_DEFAULT_SECONDS;
}

/** Rule names become `{TYPE}` in the replacement and keys in reports: keep them plain. */
export const RULE_NAME_PATTERN = /^[a-z][a-z0-9_]*$/;

/** The placeholder in `pii.replacement` that becomes the upper-case detector type. */
export const TYPE_PLACEHOLDER = '{TYPE}';

const L = POLICY_LIMITS;

type Ctx = z.core.$RefinementCtx<unknown>;

function report(ctx: Ctx, path: PropertyKey[], input: unknown, message: string, hint: string): void {
  ctx.addIssue({ code: 'custom', path, input, message, params: { hint } });
}

function integer(min: number, max: number) {
  return z
    .number({ error: () => `an integer from ${min} to ${max}` })
    .int()
    .min(min)
    .max(max);
}

function fraction() {
  return z
    .number({ error: () => 'a number from 0 to 1' })
    .min(0)
    .max(1);
}

function flag() {
  return z.boolean({ error: () => 'true or false' });
}

function oneOf<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, { error: () => `one of ${values.join(', ')}` });
}

function nameList(maxItems: number, maxChars: number) {
  const shape = `a list of non-empty strings (at most ${maxItems}, each at most ${maxChars} characters)`;
  return z
    .array(
      z
        .string({ error: () => shape })
        .min(1)
        .max(maxChars),
      { error: () => shape },
    )
    .max(maxItems);
}

/** A list drawn from a fixed set, each value at most once. */
function setOf<const T extends readonly [string, ...string[]]>(values: T, minItems: number) {
  const shape = `a ${minItems > 0 ? 'non-empty ' : ''}list of ${values.join(', ')} (each at most once)`;
  return z
    .array(z.enum(values, { error: () => shape }), { error: () => shape })
    .min(minItems)
    .superRefine((list, ctx) => {
      list.forEach((item, index) => {
        if (list.indexOf(item) !== index) {
          report(
            ctx,
            [index],
            item,
            `${showValue(item)} is listed more than once; each value may appear once.`,
            'Remove the repeated entry.',
          );
        }
      });
    })
    .meta({ uniqueItems: true }); // for the JSON Schema (json-schema.ts): editors flag a repeat too
}

/** Regions whose national phone numbers count: codes libphonenumber knows, each once. */
function regionList() {
  const shape = 'a list of region codes (ISO 3166-1 alpha-2, upper case, e.g. US, GB, DE), each at most once';
  return z
    .array(z.string({ error: () => shape }).meta({ pattern: '^[A-Z]{2}$' }), { error: () => shape })
    .max(L.maxListItems)
    .superRefine((list, ctx) => {
      list.forEach((item, index) => {
        if (!isPhoneRegion(item)) {
          report(
            ctx,
            [index],
            item,
            `${showValue(item)} is not a region code the phone detector knows.`,
            'Use an upper-case ISO 3166-1 alpha-2 code such as US, GB, DE, FR, IN or JP.',
          );
        } else if (list.indexOf(item) !== index) {
          report(
            ctx,
            [index],
            item,
            `${showValue(item)} is listed more than once; each value may appear once.`,
            'Remove the repeated entry.',
          );
        }
      });
    })
    .meta({ uniqueItems: true });
}

function mapping<T extends z.core.$ZodLooseShape>(shape: T, keys: string) {
  return z.strictObject(shape, { error: () => `a mapping with the keys ${keys}` });
}

const RULE_NAME_SHAPE = `a name of lower-case letters, digits and _ that starts with a letter (at most ${L.maxRuleNameChars} characters)`;

const RuleSchema = mapping(
  {
    name: z
      .string({ error: () => RULE_NAME_SHAPE })
      .max(L.maxRuleNameChars)
      .regex(RULE_NAME_PATTERN),
    pattern: z
      .string({
        error: () => `a non-empty RE2 regular expression of at most ${L.maxPatternChars} characters`,
      })
      .min(1)
      .max(L.maxPatternChars),
  },
  'name, pattern',
);

const RulesSchema = z
  .array(RuleSchema, { error: () => `a list of { name, pattern } rules (at most ${L.maxRules})` })
  .max(L.maxRules)
  .superRefine((rules, ctx) => {
    const first = new Map<string, number>();
    rules.forEach((rule, index) => {
      const earlier = first.get(rule.name);
      if (earlier === undefined) first.set(rule.name, index);
      else {
        report(
          ctx,
          [index, 'name'],
          rule.name,
          `${showValue(rule.name)} is already the name of pii.rules[${earlier}]; rule names must be unique.`,
          'Rename one of the rules: the name is the `{TYPE}` of its replacements.',
        );
      }
    });
  });

// The replacement is written inside JSON strings of tool outputs and arguments, and masking
// must be idempotent (DESIGN §4): a digit could be re-masked by `digit_run`, a quote or
// backslash would break the JSON it sits in.
const FORBIDDEN_IN_REPLACEMENT: readonly { test: RegExp; what: string }[] = [
  { test: /["\\]/, what: 'a quote or backslash' },
  { test: /[\u0000-\u001f\u007f-\u009f]/, what: 'a control character' },
  { test: /\p{Nd}/u, what: 'a digit' },
];

const ReplacementSchema = z
  .string({ error: () => `a non-empty string of at most ${L.maxReplacementChars} characters` })
  .min(1)
  .max(L.maxReplacementChars)
  .superRefine((text, ctx) => {
    for (const { test, what } of FORBIDDEN_IN_REPLACEMENT) {
      if (test.test(text)) {
        report(
          ctx,
          [],
          text,
          `${showValue(text)} contains ${what}; a replacement must not contain quotes, backslashes, control characters or digits.`,
          `Use plain text such as '[REDACTED_${TYPE_PLACEHOLDER}]': it is written inside JSON strings and must not be masked again.`,
        );
        return;
      }
    }
  });

const GuardianSchema = mapping(
  {
    warning: fraction().default(0.55),
    compress: fraction().default(0.7),
    critical: fraction().default(0.85),
  },
  'warning, compress, critical',
).superRefine((g, ctx) => {
  // Compare only values that passed their own range check, so one bad number is one error.
  const valid = (n: number) => Number.isFinite(n) && n >= 0 && n <= 1;
  if (!valid(g.warning) || !valid(g.compress) || !valid(g.critical)) return;
  const hint = 'Order the thresholds so that warning ≤ compress ≤ critical.';
  if (g.warning > g.compress) {
    report(ctx, ['warning'], g.warning, `${g.warning} is above compress (${g.compress}).`, hint);
  }
  // warning ≤ critical follows from the two comparisons above it.
  if (g.compress > g.critical) {
    report(ctx, ['compress'], g.compress, `${g.compress} is above critical (${g.critical}).`, hint);
  }
});

/**
 * The seeds' invariant (DESIGN §5): system prompt and constraints first, then the task, then the
 * conversation and summaries. Sections left out of `order` follow the listed ones in default order,
 * so the check is on that effective order.
 */
function orderInvariant(list: readonly OrderSection[], ctx: Ctx): void {
  const effective = [...list, ...ORDER_SECTIONS.filter((s) => !list.includes(s))];
  const pos = (s: OrderSection): number => effective.indexOf(s);
  const pairs: [OrderSection, OrderSection][] = [
    ['system', 'task'],
    ['policy', 'task'],
    ['task', 'conversation'],
    ['task', 'summaries'],
    ['system', 'conversation'],
    ['policy', 'conversation'],
    ['system', 'summaries'],
    ['policy', 'summaries'],
  ];
  const broken = pairs.find(([first, then]) => pos(then) < pos(first));
  if (!broken) return;
  const [first, then] = broken;
  const index = list.indexOf(then);
  report(
    ctx,
    index === -1 ? [] : [index],
    then,
    `${then} comes before ${first}${list.includes(first) ? '' : ` (${first} is not listed, so it follows the listed sections)`}; the system prompt and constraints must come first, then the task, then the conversation and summaries.`,
    'Start order with system, policy, task: order: [system, policy, task, conversation, summaries] (summaries may come before conversation).',
  );
}

const severity = () => oneOf(CHECK_SEVERITIES).default('error');

const CALIBRATION_SHAPE = `a number from ${CALIBRATION_RANGE.min} to ${CALIBRATION_RANGE.max} with at most 3 decimals (provider tokens per local token)`;

function calibration() {
  return z
    .number({ error: () => CALIBRATION_SHAPE })
    .min(CALIBRATION_RANGE.min)
    .max(CALIBRATION_RANGE.max)
    .superRefine((n, ctx) => {
      if (Math.abs(n * 1000 - Math.round(n * 1000)) < 1e-6) return;
      report(
        ctx,
        [],
        n,
        `${n} has more than 3 decimals; counts are scaled in thousandths.`,
        `Round it up to 3 decimals (${Math.ceil(n * 1000) / 1000}); calibrate prints 2.`,
      );
    });
}

/**
 * A budget for a family without a local tokenizer needs a measured factor: a Claude or Gemini
 * budget must never silently be an OpenAI count.
 */
function familyNeedsCalibration(
  p: { model_family?: ModelFamily | undefined; calibration?: number | undefined; tokenizer: string },
  ctx: Ctx,
): void {
  const family = p.model_family;
  if (family === undefined || family === 'openai' || p.calibration !== undefined) return;
  report(
    ctx,
    ['model_family'],
    family,
    `${family} has no local tokenizer, so a budget in ${family} tokens needs a calibration: how many ${family} tokens one ${p.tokenizer} token is.`,
    "Measure it from the provider's reported input tokens (context-stability calibrate, docs/tokenizers.md) and add e.g. calibration: 1.2 next to model_family.",
  );
}

export const PolicySchema = mapping(
  {
    version: z
      .literal(POLICY_VERSION, { error: () => `the number ${POLICY_VERSION}` })
      .default(POLICY_VERSION),
    tokenizer: oneOf(TOKENIZERS).default('o200k_base'),
    // Both optional without a default, so a policy that sets neither keeps its hash (and goldens).
    model_family: oneOf(MODEL_FAMILIES).optional(),
    calibration: calibration().optional(),
    target: oneOf(PROVIDER_TARGETS).default('same'),
    budget: integer(1, L.maxBudget).default(8000),
    message_overhead: integer(0, 1000).default(3),
    keep_recent: integer(0, 100_000).default(2),
    authority: setOf(AUTHORITY_KINDS, 1).default((): AuthorityKind[] => [
      'system',
      'policy',
      'tool',
      'retrieval',
      'user',
    ]),
    order: setOf(ORDER_SECTIONS, 1)
      .superRefine(orderInvariant)
      .default((): OrderSection[] => ['system', 'policy', 'task', 'conversation', 'summaries']),
    resilience: mapping(
      {
        enabled: flag().default(true),
        truncation_mode: oneOf(TRUNCATION_MODES).default('default'),
        protected_tools: nameList(L.maxListItems, L.maxListItemChars).default(() => [
          'bash',
          'read',
          'edit',
          'write',
          'apply_patch',
        ]),
        protected_message_kinds: nameList(L.maxListItems, L.maxListItemChars).default(() => [
          'error',
          'result',
          'decision',
        ]),
        notification_level: oneOf(NOTIFICATION_LEVELS).default('normal'),
      },
      'enabled, truncation_mode, protected_tools, protected_message_kinds, notification_level',
    ).prefault({}),
    pii: mapping(
      {
        detectors: setOf(PII_DETECTORS, 0).default(() => [...DEFAULT_PII_DETECTORS]),
        regions: regionList().default(() => [...DEFAULT_PHONE_REGIONS]),
        digit_run: z
          .number({ error: () => `0 (off) or an integer from 2 to ${L.maxDigitRun}` })
          .int()
          .min(0)
          .max(L.maxDigitRun)
          .refine((n) => n !== 1, {
            message: `1 would mask every single digit; expected 0 (off) or an integer from 2 to ${L.maxDigitRun}.`,
            params: { hint: 'Set digit_run to 0 to turn it off, or to 3 for the strict rule.' },
          })
          .meta({ not: { const: 1 } })
          .default(0),
        rules: RulesSchema.default(() => []),
        allow: nameList(L.maxAllowItems, L.maxAllowItemChars).default(() => []),
        // Optional without a default: a policy that names no strategy keeps its hash (the default
        // strategy shows in its replacement).
        strategy: oneOf(PII_STRATEGIES).optional(),
        // Its default depends on the strategy (filled in below).
        replacement: ReplacementSchema.optional(),
      },
      'detectors, regions, digit_run, rules, allow, strategy, replacement',
    )
      .superRefine((pii, ctx) => {
        // A replacement that breaks its own rules is reported once, by them.
        if (pii.replacement === undefined || !ReplacementSchema.safeParse(pii.replacement).success) return;
        for (const issue of templateIssues(pii.replacement, pii.strategy)) {
          report(ctx, ['replacement'], pii.replacement, issue.message, issue.hint);
        }
      })
      .transform((pii) => ({ ...pii, replacement: effectiveTemplate(pii.replacement, pii.strategy) }))
      .prefault({}),
    tool_output: mapping(
      {
        max_tokens: integer(1, L.maxBudget).default(256),
        keep_fields: nameList(L.maxListItems, L.maxListItemChars).default(() => [
          'result',
          'status',
          'error',
        ]),
      },
      'max_tokens, keep_fields',
    ).prefault({}),
    dedup: mapping(
      { enabled: flag().default(true), similarity: fraction().default(0.9) },
      'enabled, similarity',
    ).prefault({}),
    summaries: mapping({ ttl: integer(0, 1_000_000).default(50) }, 'ttl').prefault({}),
    guardian: GuardianSchema.prefault({}),
    checks: mapping(
      {
        budget: severity(),
        order: severity(),
        pii: severity(),
        protected: severity(),
        pairing: severity(),
        summaries: severity(),
        guardian: severity(),
        drift: severity(),
        task: severity(),
        recency: severity(),
        nonempty: severity(),
        provider: severity(),
        cache_prefix: oneOf(CHECK_SEVERITIES).optional(),
        fresh_results: oneOf(CHECK_SEVERITIES).optional(),
        retention: oneOf(CHECK_SEVERITIES).optional(),
      },
      [...CHECK_NAMES, ...OPTIONAL_CHECK_NAMES, ...WARNING_CHECK_NAMES].join(', '),
    ).prefault({}),
    // The three below are optional without a default: a policy that sets none keeps its hash.
    compaction: mapping(
      {
        enabled: flag().default(false),
        max_tokens: integer(32, L.maxBudget).default(600),
        request_chars: integer(20, 10_000).default(160),
      },
      'enabled, max_tokens, request_chars',
    ).optional(),
    runtime: mapping({ on_escalated: oneOf(ESCALATION_CHOICES).default('stop') }, 'on_escalated').optional(),
    cache_prefix: mapping({ min_share: fraction().default(0.5) }, 'min_share').optional(),
    retention: mapping({ max_calls: integer(1, 1_000).default(24) }, 'max_calls').optional(),
    // Absent, a transcript may take WATCHDOG_DEFAULT_SECONDS (watchdogSeconds): a policy that does not
    // set it keeps its hash and goldens.
    watchdog: mapping(
      { max_seconds: integer(0, L.maxWatchdogSeconds).default(WATCHDOG_DEFAULT_SECONDS) },
      'max_seconds',
    ).optional(),
    // Issue 27: on by default (prefault), so every policy keeps a stable prefix out of the box.
    stable_prefix: mapping(
      { enabled: flag().default(true), low_water: fraction().default(0.85) },
      'enabled, low_water',
    ).prefault({}),
    repair: mapping(
      {
        leading_user_text: z
          .string({ error: () => 'a non-empty string of at most 200 characters' })
          .min(1)
          .max(200)
          .refine((text) => text.trim().length > 0, {
            message: 'a placeholder of only spaces cannot open a valid request; expected some text.',
          })
          .default('[The conversation continues from earlier turns.]'),
      },
      'leading_user_text',
    ).prefault({}),
    part_tokens: mapping(
      {
        image: integer(0, 1_000_000).default(765),
        audio: integer(0, 1_000_000).default(1000),
        file: integer(0, 1_000_000).default(1000),
        other: integer(0, 1_000_000).default(256),
      },
      PART_TOKEN_KINDS.join(', '),
    ).prefault({}),
  },
  'version, tokenizer, model_family, calibration, target, budget, message_overhead, keep_recent, authority, order, resilience, pii, tool_output, dedup, summaries, guardian, checks, compaction, runtime, cache_prefix, retention, watchdog, stable_prefix, repair, part_tokens',
).superRefine(familyNeedsCalibration);

type DeepReadonly<T> = T extends readonly (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** A validated policy with every default filled in. Parsed policies are frozen. */
export type Policy = DeepReadonly<z.output<typeof PolicySchema>>;

/** What a policy file (or a library caller) may write: every key optional. */
export type PolicyInput = z.input<typeof PolicySchema>;

export type PiiRule = Policy['pii']['rules'][number];
