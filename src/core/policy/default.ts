// The built-in policy (DESIGN §3): what applies when a repository has no policy file, and the
// commented starting point `context-stability policy print-default` prints.
import { deepFreeze } from './freeze.js';
import { PolicySchema } from './schema.js';
import type { Policy } from './schema.js';

/** Every field at its default; frozen. */
export const DEFAULT_POLICY: Policy = deepFreeze(PolicySchema.parse({}));

/** DEFAULT_POLICY as commented YAML; parsing it yields exactly DEFAULT_POLICY (tested). */
export const DEFAULT_POLICY_YAML = `# context-stability policy: .github/context-policy.yml (YAML), or the same keys in JSON.
# Every key is optional: a key left out takes the value shown here.
version: 1
tokenizer: o200k_base        # o200k_base | cl100k_base | p50k_base | r50k_base (gpt-tokenizer)
# Whose tokens the budget counts: openai when left out (counted exactly). For anthropic, gemini
# or other, calibration (provider tokens per local token, measured with context-stability
# calibrate; docs/tokenizers.md) is required and every count is scaled by it, rounded up:
# model_family: anthropic
# calibration: 1.2
target: same                 # API whose request rules the provider check applies: same | openai | anthropic
budget: 8000                 # max tokens of the stabilized context
message_overhead: 3          # framing tokens counted per artifact
keep_recent: 2               # the N newest turns: each one's user message and latest answer stay
# Highest authority first; any of system, policy, task, tool, retrieval, user, assistant, each once.
authority: [system, policy, tool, retrieval, user]
# Sections of the stabilized context, in this order; any of these five, each once. System and
# policy must come before task, and task before conversation and summaries.
order: [system, policy, task, conversation, summaries]
resilience:
  enabled: true
  truncation_mode: default   # default | aggressive
  protected_tools: [bash, read, edit, write, apply_patch]
  protected_message_kinds: [error, result, decision]
  notification_level: normal # quiet | normal | verbose
pii:
  detectors: [email, phone, ssn, credit_card, iban, ip_address, secret, uk_nhs, in_aadhaar, es_nif, it_fiscal_code, au_tfn]
  # Opt-in (add by name): mac, crypto_wallet, url_credentials, us_itin, us_aba_routing, uk_nino,
  # in_pan, passport. The checksummed national ids are on by default. See docs/pii.md.
  # Regions whose NATIONAL phone numbers are masked when written in the region's own format
  # ((415) 555-0132, 090-1234-5678), after "number", or under a key such as "phone"; after a
  # phone word (phone, tel, mobile…) any phone shape is masked; international numbers (+…) are
  # masked for every region.
  regions: [AE, AR, AT, AU, BE, BR, CA, CH, CL, CN, CO, CZ, DE, DK, ES, FI, FR, GB, GR, HK, HU, IE, IL, IN, IT, JP, KR, MX, NL, NO, NZ, PH, PL, PT, RO, SE, SG, TR, TW, US, ZA]
  digit_run: 0               # mask any run of >= N digits (0 = off; 3 = the strict rule)
  rules: []                  # extra detectors, RE2 syntax (no lookaround; (?i) for any case), e.g.
  #  - { name: employee_id, pattern: 'EMP-\\d{6}' }
  allow: []                  # literal values never masked
  # What a found value becomes (docs/pii.md): numbered ([EMAIL_1], [EMAIL_2]: one number per value,
  # the same all conversation long; the default), redact ([REDACTED_EMAIL]), hash ([EMAIL_k3f9ab2c],
  # keyed: CONTEXT_STABILITY_PII_KEY) or block (masked as redact; a context holding PII is refused).
  # strategy: numbered
  # The text of each value: {TYPE} the detector or rule name in upper case, {N} its number (numbered
  # only), {HASH} its keyed hash (hash only); no digits, quotes or backslashes. Left out, it follows
  # the strategy: numbered '[{TYPE}_{N}]', redact and block '[REDACTED_{TYPE}]', hash '[{TYPE}_{HASH}]'.
  replacement: '[{TYPE}_{N}]'
tool_output:
  max_tokens: 256            # larger outputs: unprotected ones dropped, protected ones cut to an excerpt
  keep_fields: [result, status, error]   # JSON tool outputs are masked down to these
dedup: { enabled: true, similarity: 0.9 }   # similarity 0..1: near-duplicates at or above it are folded
summaries: { ttl: 50 }       # turns a summary stays valid
guardian: { warning: 0.55, compress: 0.70, critical: 0.85 }   # context pressure 0..1, warning <= compress <= critical
checks:                      # severity of each violation: error | warning | off
  budget: error
  order: error
  pii: error
  protected: error
  pairing: error
  summaries: error
  guardian: error
  drift: error               # warning: drift is reported but does not fail; off: goldens are not compared
  task: error                # the task statement of the current scope is in the context
  recency: error             # the latest user message is in the context
  nonempty: error            # some conversation follows the system prompt
  provider: error            # the target API would accept the request (see target)
stable_prefix:               # keep each request a byte-identical prefix of the next (prompt cache)
  enabled: true
  low_water: 0.85            # a call that must cut leaves the context at about this share of the budget
repair:
  leading_user_text: '[The conversation continues from earlier turns.]'   # put before an assistant-first Anthropic request
part_tokens:                 # declared token cost of each non-text content part, so budgets never rest on a guess
  image: 765
  audio: 1000
  file: 1000
  other: 256                 # any other part type
# Seconds one transcript may take in check, update and view; a slower one is reported as
# error[timeout] (exit 2) and the others are still checked. 0 = no limit. Not part of the hash.
# watchdog: { max_seconds: 300 }
`;
