// Credentials in HIGH-SIGNAL formats: each has a fixed prefix or frame that ordinary text, hashes
// and ids do not produce. The formats were learnt from the providers' documentation, checked
// against gitleaks' rule list and secretlint's recommended preset; the rules are our own.
//
// Deliberately not matched:
// - Stripe publishable keys (`pk_live_…`), Supabase publishable keys (`sb_publishable_…`), New
//   Relic browser keys (`NRJS-…`): meant to ship in client code, not secrets.
// - Twilio account SIDs (`AC` + 32 hex): an account id that appears in every API URL; it
//   grants nothing without the auth token (which has no recognisable format).
// - Mailgun `key-` + 32 hex, Azure AD client secrets (`…8Q~…`), Heroku UUID keys, Vault's legacy
//   `s.` tokens: prefixes or shapes that ordinary ids and cache keys also produce. A value under
//   a secret-naming key is still found by the generic assignment rule (secret-generic.ts).

import type { PiiMatch } from '../types.js';
import { escapeLetterAt, forEachMatch, isAsciiAlnum } from './scan.js';

export interface SecretFormat {
  /** What the format is; for maintainers, never reported. */
  name: string;
  /**
   * Every match starts with one of these literals: the regex is tried (sticky) where the
   * pre-filter finds one, and nowhere else. Empty (and no trigger): the regex scans the text.
   */
  prefixes: readonly string[];
  /** Global regex; `g` flag required. */
  re: RegExp;
  /** Mask only the last capture group (the value after a key name), not the whole match. */
  valueOnly?: boolean;
  /**
   * Where a value may start, checked in code before the regex is tried (startsValue). `token`: at
   * a token boundary, or right after the `-`/`_` that ends a short id prefix (`call_ghp_…`,
   * `id-sk-proj-…`, issue 34). `word`: at a token boundary only, for a prefix that is also an
   * ordinary word part (`client_secret_…`, `GSI1_SK…`). Absent: the regex states its own start.
   */
  start?: 'token' | 'word';
  /** Extra structural check of the matched text. */
  accept?: (match: string) => boolean;
  /**
   * For a format without a prefix: an occurrence `i` of `char` that `test` accepts points at
   * the places `i + offset` (for each of `at`) where the regex is tried.
   */
  trigger?: { char: string; at: readonly number[]; test: (text: string, i: number) => boolean };
}

// Token body characters: base62 plus `_`/`-` (base64url).
const B = 'A-Za-z0-9_\\-';
const NOT_AFTER = `(?![${B}])`;
/**
 * How many characters an id prefix glued before a token may hold (`toolu_01…_ghp_…`). Bounded so
 * that a run of prefixes (`ghp_ghp_ghp_…`) tries a format's regex at most MAX_ID_PREFIX / 3 times
 * per token run: every attempt may scan to the run's end, so an unbounded count would be quadratic.
 */
const MAX_ID_PREFIX = 32;

function re(source: string, flags = 'g'): RegExp {
  return new RegExp(source, flags);
}

// The PEM body: base64, header lines (`Proc-Type: 4,ENCRYPTED`), whitespace and `\n` escapes of
// a JSON string. With no END line (truncated output) the body runs to the first other character.
const PEM_BODY = `[A-Za-z0-9+/=\\\\\\s:,.-]`;
const PEM_LABEL = `[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?`;

// GitLab's routable tokens end in `.<version>.<crc>` after the base64url payload.
const GITLAB_SUFFIX = `(?:\\.[0-9a-z]{2}\\.?[0-9a-z]{7}${NOT_AFTER})?`;
const GITLAB_PREFIXES = [
  'glpat-',
  'gldt-',
  'glrt-',
  'glcbt-',
  'glptt-',
  'glft-',
  'glimt-',
  'glagent-',
  'gloas-',
  'glsoat-',
  'glffct-',
];

// The bech32 alphabet (upper case) of age keys.
const BECH32 = 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L';

const GITHUB_PREFIXES = ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'];

/** One line per format: adding a format is adding a line. */
// prettier-ignore
export const FORMATS: readonly SecretFormat[] = [
  { name: 'AWS access key id', prefixes: ['AKIA', 'ASIA'], re: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { name: 'AWS secret access key (after its key name)', prefixes: ['aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'SecretAccessKey', 'secretAccessKey'], re: /(?:aws_secret_access_key|secretaccesskey)["']?\s{0,8}[:=]\s{0,8}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi, valueOnly: true },
  { name: 'GitHub token (classic PAT, OAuth, user/server, refresh)', prefixes: GITHUB_PREFIXES, start: 'token', re: re(`gh[pousr]_[A-Za-z0-9]{36,}${NOT_AFTER}`) },
  { name: 'GitHub token, stateless layout (ghs_<app id>_<JWT>, since 2026)', prefixes: GITHUB_PREFIXES, start: 'token', re: re(`gh[pousr]_[${B}]{4,}\\.[${B}]{8,}\\.[${B}]{8,}${NOT_AFTER}`) },
  { name: 'GitHub fine-grained PAT', prefixes: ['github_pat_'], start: 'token', re: re(`github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59,}${NOT_AFTER}`) },
  { name: 'GitLab token (PAT, deploy, runner, CI job, trigger, feed, mail, agent, OAuth, SCIM, feature flag)', prefixes: GITLAB_PREFIXES, start: 'token', re: re(`gl(?:pat|dt|rt|cbt|ptt|ft|imt|agent|oas|soat|ffct)-[${B}]{20,}${GITLAB_SUFFIX}`) },
  { name: 'Google API key', prefixes: ['AIza'], start: 'token', re: re(`AIza[${B}]{35}${NOT_AFTER}`) },
  { name: 'Google OAuth client secret', prefixes: ['GOCSPX-'], start: 'token', re: re(`GOCSPX-[${B}]{28}${NOT_AFTER}`) },
  { name: 'Anthropic API / admin / OAuth key', prefixes: ['sk-ant-'], start: 'token', re: re(`sk-ant-[${B}]{32,}`) },
  { name: 'OpenAI project / service-account / admin / unnamed-project key', prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-', 'sk-None-'], start: 'token', re: re(`sk-(?:proj|svcacct|admin|None)-[${B}]{32,}`) },
  { name: 'OpenAI legacy user key', prefixes: ['sk-'], start: 'token', re: re(`sk-[A-Za-z0-9]{32,}${NOT_AFTER}`) },
  { name: 'OpenRouter API key', prefixes: ['sk-or-v1-'], start: 'token', re: re(`sk-or-v1-[0-9a-f]{64}${NOT_AFTER}`) },
  { name: 'Groq API key', prefixes: ['gsk_'], start: 'token', re: re(`gsk_[A-Za-z0-9]{52}${NOT_AFTER}`) },
  { name: 'Perplexity API key', prefixes: ['pplx-'], start: 'token', re: re(`pplx-[A-Za-z0-9]{48}${NOT_AFTER}`) },
  { name: 'Slack token (bot, user, app, config, refresh)', prefixes: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxo-', 'xoxs-', 'xoxr-', 'xoxe-', 'xoxe.'], start: 'token', re: re(`xox(?:[abposr]|e(?:\\.xox[bp])?)-[A-Za-z0-9-]{10,}`) },
  { name: 'Slack app-level token', prefixes: ['xapp-'], start: 'token', re: re(`xapp-\\d-[A-Za-z0-9-]{10,}`) },
  { name: 'Slack webhook URL', prefixes: ['https://hooks.slack.com/', 'http://hooks.slack.com/'], re: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g },
  { name: 'Stripe secret / restricted key', prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], start: 'token', re: re(`[sr]k_(?:live|test)_[A-Za-z0-9]{16,}${NOT_AFTER}`) },
  { name: 'Stripe (or Svix) webhook signing secret', prefixes: ['whsec_'], start: 'token', re: re(`whsec_[A-Za-z0-9+/]{24,}={0,2}`) },
  { name: 'Twilio API key SID', prefixes: ['SK'], start: 'word', re: /SK[0-9a-f]{32}(?![A-Za-z0-9])/g },
  { name: 'SendGrid API key', prefixes: ['SG.'], start: 'token', re: re(`SG\\.[${B}]{22}\\.[${B}]{43}${NOT_AFTER}`) },
  { name: 'npm access token', prefixes: ['npm_'], start: 'token', re: re(`npm_[A-Za-z0-9]{36}${NOT_AFTER}`) },
  { name: 'PyPI API token', prefixes: ['pypi-AgE'], start: 'token', re: re(`pypi-AgE[${B}]{50,}`) },
  { name: 'Hugging Face token', prefixes: ['hf_'], start: 'token', re: re(`hf_[A-Za-z0-9]{34}${NOT_AFTER}`) },
  { name: 'Docker Hub personal / organisation access token', prefixes: ['dckr_pat_', 'dckr_oat_'], start: 'token', re: re(`dckr_[po]at_[${B}]{20,}`) },
  { name: 'Cloudflare API token / global key (cfut_, cfat_, cfk_: 40 characters and a checksum)', prefixes: ['cfut_', 'cfat_', 'cfk_'], start: 'token', re: re(`(?:cfut|cfat|cfk)_[A-Za-z0-9]{48}${NOT_AFTER}`) },
  { name: 'Cloudflare origin CA key', prefixes: ['v1.0-'], start: 'token', re: re(`v1\\.0-[0-9a-f]{24}-[0-9a-f]{146}${NOT_AFTER}`) },
  { name: 'Vercel token / API key (personal, integration, app access, app refresh, API key)', prefixes: ['vcp_', 'vci_', 'vca_', 'vcr_', 'vck_'], start: 'token', re: re(`vc[pacirk]_[A-Za-z0-9]{24,}${NOT_AFTER}`), accept: mixesClasses },
  { name: 'Tailscale key (API, auth, OAuth client, SCIM, webhook)', prefixes: ['tskey-'], start: 'token', re: re(`tskey-(?:api|auth|client|scim|webhook)-[A-Za-z0-9]{4,}-[A-Za-z0-9]{16,}${NOT_AFTER}`) },
  { name: 'HashiCorp Vault service / batch / recovery token', prefixes: ['hvs.', 'hvb.', 'hvr.'], start: 'token', re: re(`hv[sbr]\\.[${B}]{24,}(?:\\.[A-Za-z0-9]{4,})?${NOT_AFTER}`) },
  { name: 'Doppler token (personal, service, CLI, service account, SCIM, audit)', prefixes: ['dp.pt.', 'dp.st.', 'dp.ct.', 'dp.sa.', 'dp.scim.', 'dp.audit.'], start: 'token', re: re(`dp\\.(?:pt|st|ct|sa|scim|audit)\\.(?:[${B}]{1,64}\\.)?[A-Za-z0-9]{40,}${NOT_AFTER}`) },
  { name: 'Databricks personal access token', prefixes: ['dapi'], start: 'word', re: /dapi[0-9a-f]{32}(?:-\d)?(?![A-Za-z0-9_-])/g },
  { name: 'DigitalOcean token (personal, OAuth, refresh)', prefixes: ['dop_v1_', 'doo_v1_', 'dor_v1_'], start: 'token', re: re(`do[por]_v1_[0-9a-f]{64}${NOT_AFTER}`) },
  { name: 'Shopify token (admin, custom app, private app, shared secret)', prefixes: ['shpat_', 'shpca_', 'shppa_', 'shpss_'], start: 'token', re: re(`shp(?:at|ca|pa|ss)_[0-9a-fA-F]{32}${NOT_AFTER}`) },
  { name: 'Atlassian API token', prefixes: ['ATATT3'], re: /(?<![A-Za-z0-9_=-])ATATT3[A-Za-z0-9_=-]{100,}/g },
  { name: 'Linear API key', prefixes: ['lin_api_'], start: 'token', re: re(`lin_api_[A-Za-z0-9]{40}${NOT_AFTER}`) },
  { name: 'Postman API key', prefixes: ['PMAK-'], start: 'token', re: re(`PMAK-[0-9a-fA-F]{24}-[0-9a-fA-F]{34}${NOT_AFTER}`) },
  { name: 'Grafana service account token', prefixes: ['glsa_'], start: 'token', re: re(`glsa_[A-Za-z0-9]{32}_[0-9a-fA-F]{8}${NOT_AFTER}`) },
  { name: 'Grafana Cloud token', prefixes: ['glc_'], start: 'token', re: /glc_[A-Za-z0-9+/]{32,}={0,2}/g },
  { name: 'Grafana API key (legacy, base64 JSON)', prefixes: ['eyJrIjoi'], re: /(?<![A-Za-z0-9+/])eyJrIjoi[A-Za-z0-9+/]{50,}={0,2}/g },
  { name: 'New Relic user API key / insert key', prefixes: ['NRAK-', 'NRII-'], start: 'token', re: re(`(?:NRAK-[A-Z0-9]{27}|NRII-[A-Za-z0-9-]{32})${NOT_AFTER}`) },
  { name: 'Sentry organisation token', prefixes: ['sntrys_'], start: 'token', re: /sntrys_eyJ[A-Za-z0-9+/=_-]{60,}/g },
  { name: 'Sentry user token', prefixes: ['sntryu_'], start: 'token', re: re(`sntryu_[0-9a-f]{64}${NOT_AFTER}`) },
  { name: 'Notion integration token', prefixes: ['ntn_'], start: 'token', re: re(`ntn_[0-9]{11}[A-Za-z0-9]{32,35}${NOT_AFTER}`) },
  { name: 'Notion integration token (legacy secret_)', prefixes: ['secret_'], start: 'word', re: re(`secret_[A-Za-z0-9]{43}${NOT_AFTER}`) },
  { name: 'Supabase personal access token / secret key', prefixes: ['sbp_', 'sb_secret_'], start: 'token', re: re(`(?:sbp_[A-Za-z0-9_]{40,}|sb_secret_[${B}]{20,})${NOT_AFTER}`) },
  { name: 'PlanetScale password / service token / OAuth token', prefixes: ['pscale_pw_', 'pscale_tkn_', 'pscale_oauth_'], start: 'token', re: re(`pscale_(?:pw|tkn|oauth)_[${B}]{32,}`) },
  { name: 'Fly.io token (org, macaroon)', prefixes: ['fo1_', 'fm1a_', 'fm1r_', 'fm2_'], start: 'token', re: /(?:fo1_[A-Za-z0-9_-]{43}(?![A-Za-z0-9_-])|fm(?:1[ar]|2)_[A-Za-z0-9+/]{100,}={0,3})/g },
  { name: 'age secret key', prefixes: ['AGE-SECRET-KEY-1'], start: 'token', re: re(`AGE-SECRET-KEY-1[${BECH32}]{58}${NOT_AFTER}`) },
  { name: 'Heroku API key (HRKU-)', prefixes: ['HRKU-'], start: 'token', re: re(`HRKU-[${B}]{50,}`) },
  { name: 'Azure storage account key (connection string)', prefixes: ['AccountKey='], re: /AccountKey=([A-Za-z0-9+/]{40,}={0,2})(?![A-Za-z0-9+/=])/g, valueOnly: true },
  { name: 'Azure Service Bus / Event Hubs / IoT shared access key (connection string)', prefixes: ['SharedAccessKey='], re: /SharedAccessKey=([A-Za-z0-9+/]{30,}={0,2})(?![A-Za-z0-9+/=])/g, valueOnly: true },
  { name: 'Discord bot token', prefixes: [], start: 'token', trigger: { char: '.', at: [-26, -25, -24], test: discordDot }, re: re(`[MNO][A-Za-z0-9]{23,25}\\.[${B}]{6}\\.[${B}]{27,38}${NOT_AFTER}`) },
  { name: 'PEM private key block', prefixes: ['-----BEGIN '], re: re(`-----BEGIN ${PEM_LABEL}-----[\\s\\S]*?(?:-----END ${PEM_LABEL}-----|(?!${PEM_BODY}))`) },
  { name: 'JSON Web Token', prefixes: ['eyJ'], start: 'token', re: re(`eyJ[${B}]{8,}\\.[${B}]{2,}\\.[${B}]*`), accept: isJwt },
];

/** The first `.` of a Discord token: another `.` 7 later, 24 to 26 letters or digits before it. */
function discordDot(text: string, i: number): boolean {
  return (
    i >= 24 &&
    i + 7 < text.length &&
    text.charCodeAt(i + 7) === 46 &&
    isAsciiAlnum(text.charCodeAt(i - 1)) &&
    isAsciiAlnum(text.charCodeAt(i - 12)) &&
    isAsciiAlnum(text.charCodeAt(i - 24))
  );
}

/** A JWT's first segment is base64url JSON with an `alg` member. */
function isJwt(token: string): boolean {
  const header = token.slice(0, token.indexOf('.'));
  try {
    const json: unknown = JSON.parse(atob(header.replace(/-/g, '+').replace(/_/g, '/')));
    return typeof json === 'object' && json !== null && typeof (json as { alg?: unknown }).alg === 'string';
  } catch {
    return false; // not base64 or not JSON: not a JWT (the parser's message is never surfaced)
  }
}

/** A random body mixes at least two of lower case, upper case and digits; an identifier rarely. */
function mixesClasses(token: string): boolean {
  const body = token.slice(token.indexOf('_') + 1);
  const lower = /[a-z]/.test(body) ? 1 : 0;
  const upper = /[A-Z]/.test(body) ? 1 : 0;
  const digit = /[0-9]/.test(body) ? 1 : 0;
  return lower + upper + digit >= 2 && !/^(?:[A-Z][a-z]+)+$/.test(body);
}

// ---- pre-filter -------------------------------------------------------------------------------
//
// The formats' prefixes are found without one big alternation of literals (V8 scans such an
// alternation at a few hundred MB/s): each prefix is anchored on one of a few characters that
// are rare in ordinary text, `String#indexOf` visits every occurrence of that character (a
// memchr-like scan), and a table keyed by the character next to it says which prefixes may be
// there. A prefix with none of the anchor characters is searched for as a whole. Each format's
// regex is then tried, sticky, at each occurrence of its prefixes only: a text without prefixes
// costs the anchor scans, and a prefix near the start of a long text does not cost a scan of
// the rest of it per format.

/** Anchor characters, rarest first: a prefix is anchored on the first of them it contains. */
const ANCHORS = ['J', 'A', 'S', '_', '-', '.'];

interface Candidate {
  prefix: string;
  /** Index of the anchor character in the prefix. */
  offset: number;
  /** Formats (indexes in FORMATS) whose matches may start with the prefix. */
  formats: readonly number[];
}

/** Candidates that share the part of their prefix up to the anchor (`sk-` for `sk-ant-`, …). */
interface Group {
  head: string;
  offset: number;
  candidates: Candidate[];
}

interface AnchorTable {
  char: string;
  /** Prefixes with the anchor after their first character, by the code unit before it. */
  before: (Group[] | undefined)[];
  /** Prefixes that start with the anchor, by the code unit after it. */
  after: (Candidate[] | undefined)[];
  /** Prefix-less formats that this character triggers. */
  triggers: readonly number[];
}

const ALL_PREFIXES = [...new Set(FORMATS.flatMap((f) => f.prefixes))];

function formatsOf(prefix: string): number[] {
  return FORMATS.flatMap((f, i) => (f.prefixes.includes(prefix) ? [i] : []));
}

/** A dense (packed) table of 128 entries: sparse arrays would fall back to slow dictionary lookups. */
function asciiTable<T>(): (T | undefined)[] {
  return Array.from({ length: 128 }, () => undefined);
}

const TABLES: AnchorTable[] = ANCHORS.map((char) => ({
  char,
  before: asciiTable<Group[]>(),
  after: asciiTable<Candidate[]>(),
  triggers: FORMATS.flatMap((f, i) => (f.trigger?.char === char ? [i] : [])),
}));
/** Prefixes with no anchor character, searched for as a whole. */
const LITERALS: Candidate[] = [];

for (const prefix of ALL_PREFIXES) {
  const table = TABLES.find((t) => prefix.includes(t.char));
  const offset = table ? prefix.indexOf(table.char) : 0;
  const candidate = { prefix, offset, formats: formatsOf(prefix) };
  if (table === undefined) {
    LITERALS.push(candidate);
  } else if (offset === 0) {
    (table.after[prefix.charCodeAt(1)] ??= []).push(candidate);
  } else {
    const groups = (table.before[prefix.charCodeAt(offset - 1)] ??= []);
    const head = prefix.slice(0, offset + 1);
    const group = groups.find((g) => g.head === head);
    if (group) group.candidates.push(candidate);
    else groups.push({ head, offset, candidates: [candidate] });
  }
}

/** Formats whose regex always runs over the whole text (none has neither prefix nor trigger). */
const ALWAYS = FORMATS.flatMap((f, i) => (f.prefixes.length === 0 && f.trigger === undefined ? [i] : []));

/** Each format's regex, sticky: tried at the places the pre-filter finds, not scanned. */
const STICKY = FORMATS.map((f) => new RegExp(f.re.source, f.re.flags.replace('g', '') + 'y'));

/** A hit packs a position and a format index into one number, so that hits sort by position. */
const FORMAT_BITS = 128;
if (FORMATS.length > FORMAT_BITS) throw new RangeError('secret formats: raise FORMAT_BITS');

/**
 * Where a format's regex may match: every occurrence of one of its prefixes (and the places its
 * trigger points at), as `position * FORMAT_BITS + format`, sorted. Per occurrence of an anchor
 * character the work is two table lookups, and a comparison of a few characters when the
 * neighbour fits a prefix.
 */
function findHits(text: string): number[] {
  const hits: number[] = [];
  for (const table of TABLES) {
    const { char, before, after, triggers } = table;
    for (let i = text.indexOf(char); i !== -1; i = text.indexOf(char, i + 1)) {
      const prev = i > 0 ? text.charCodeAt(i - 1) : 128;
      const groups = prev < 128 ? before[prev] : undefined;
      if (groups !== undefined) {
        for (const g of groups) {
          const at = i - g.offset;
          if (at < 0 || text.charCodeAt(at) !== g.head.charCodeAt(0) || !text.startsWith(g.head, at))
            continue;
          for (const c of g.candidates) {
            if (c.prefix.length === g.head.length || text.startsWith(c.prefix, at)) {
              for (const f of c.formats) hits.push(at * FORMAT_BITS + f);
            }
          }
        }
      }
      const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 128;
      const candidates = next < 128 ? after[next] : undefined;
      if (candidates !== undefined) {
        for (const c of candidates) {
          if (text.startsWith(c.prefix, i)) for (const f of c.formats) hits.push(i * FORMAT_BITS + f);
        }
      }
      for (const f of triggers) {
        const trigger = FORMATS[f]!.trigger!;
        if (!trigger.test(text, i)) continue;
        for (const offset of trigger.at) if (i + offset >= 0) hits.push((i + offset) * FORMAT_BITS + f);
      }
    }
  }
  for (const c of LITERALS) {
    for (let at = text.indexOf(c.prefix); at !== -1; at = text.indexOf(c.prefix, at + 1)) {
      for (const f of c.formats) hits.push(at * FORMAT_BITS + f);
    }
  }
  for (let h = 1; h < hits.length; h++) {
    if (hits[h]! < hits[h - 1]!) return hits.sort((a, b) => a - b); // from several anchors
  }
  return hits;
}

function isTokenChar(code: number): boolean {
  return isAsciiAlnum(code) || code === 95 || code === 45;
}

/**
 * Whether a value of a format whose `start` is `mode` may start at `at`: at a token boundary (the
 * text's start, a character other than a letter, digit, `_` or `-`, or the letter of an escape
 * such as `\n` in JSON-like text), or, in `token` mode, after a `-`/`_` that ends an id prefix of
 * at most MAX_ID_PREFIX characters starting at a token boundary. Glued to a letter or digit, a
 * prefix is part of a longer word (`xghp_…`, `disk-…`).
 */
function startsValue(text: string, at: number, mode: 'token' | 'word'): boolean {
  if (atTokenBoundary(text, at)) return true;
  const prev = text.charCodeAt(at - 1);
  if (mode === 'word' || isAsciiAlnum(prev)) return false;
  for (let i = at - 1; i >= at - 1 - MAX_ID_PREFIX; i--) if (atTokenBoundary(text, i)) return true;
  return false;
}

function atTokenBoundary(text: string, i: number): boolean {
  return i <= 0 || !isTokenChar(text.charCodeAt(i - 1)) || escapeLetterAt(text, i - 1);
}

/** Appends the matches of every format to `out`. */
export function findFormatSecrets(text: string, out: PiiMatch[]): void {
  for (const index of ALWAYS) forEachMatch(FORMATS[index]!.re, text, 0, (m) => report(text, index, m, out));
  const hits = findHits(text);
  if (hits.length === 0) return;
  // Where each format's last match ends: a later hit inside it is part of it (a PEM body holding
  // another BEGIN line), which keeps the work linear.
  const matchedUntil = new Int32Array(FORMATS.length);
  for (const hit of hits) {
    const f = hit % FORMAT_BITS;
    const at = (hit - f) / FORMAT_BITS;
    if (at < matchedUntil[f]!) continue;
    const start = FORMATS[f]!.start;
    if (start !== undefined && !startsValue(text, at, start)) continue;
    const re = STICKY[f]!;
    re.lastIndex = at;
    const m = re.exec(text);
    if (m !== null && m[0].length > 0) {
      const end = report(text, f, m, out);
      if (end > 0) matchedUntil[f] = end;
    }
  }
}

/** Pushes the match `m` of format `f` unless its checks reject it; returns its end (else -1). */
function report(text: string, f: number, m: RegExpExecArray, out: PiiMatch[]): number {
  const format = FORMATS[f]!;
  const misplaced = format.start !== undefined && !startsValue(text, m.index, format.start);
  if (misplaced || (format.accept && !format.accept(m[0]))) return -1;
  const end = m.index + m[0].length;
  const value = m[m.length - 1] ?? '';
  out.push({ type: 'secret', start: format.valueOnly ? end - value.length : m.index, end });
  return end;
}
