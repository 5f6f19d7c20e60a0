// Credentials in HIGH-SIGNAL formats only: each has a fixed prefix or frame that ordinary text,
// hashes and ids do not produce. Generic "high-entropy string" rules are deliberately absent:
// in transcripts full of git SHAs, UUIDs and base64 they mask far more than they protect.
//
// Deliberately not matched:
// - Stripe publishable keys (`pk_live_…`): meant to ship in client code, not a secret.
// - Twilio account SIDs (`AC` + 32 hex): an account id that appears in every API URL; it
//   grants nothing without the auth token (which has no recognisable format).

import type { Detector, PiiMatch } from '../types.js';
import { forEachMatch, isAsciiAlnum } from './scan.js';

interface SecretFormat {
  /** What the format is; for maintainers, never reported. */
  name: string;
  /**
   * The regex only runs when the text contains one of these literals (cheap pre-filter), and
   * from the first of them on: every match starts with one. Empty: the regex always runs.
   */
  prefixes: readonly string[];
  /** Global regex; `g` flag required. */
  re: RegExp;
  /** Mask only the last capture group (the value after a key name), not the whole match. */
  valueOnly?: boolean;
  /**
   * Check "no token character before the match" in code instead of a leading lookbehind, which
   * would stop V8 from scanning fast for the first literal. Only for formats that run on every
   * text and have bounded lengths: with an unbounded tail, retrying every start inside a long
   * token run would be quadratic, which the lookbehind (NOT_BEFORE) prevents.
   */
  bounded?: boolean;
  /** Extra structural check of the matched text. */
  accept?: (match: string) => boolean;
}

// Token body characters: base62 plus `_`/`-` (base64url).
const B = 'A-Za-z0-9_\\-';
const NOT_BEFORE = `(?<![${B}])`;
const NOT_AFTER = `(?![${B}])`;

function re(source: string, flags = 'g'): RegExp {
  return new RegExp(source, flags);
}

// The PEM body: base64, header lines (`Proc-Type: 4,ENCRYPTED`), whitespace and `\n` escapes of
// a JSON string. With no END line (truncated output) the body runs to the first other character.
const PEM_BODY = `[A-Za-z0-9+/=\\\\\\s:,.-]`;
const PEM_LABEL = `[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?`;

/** One line per format: adding a format is adding a line. */
// prettier-ignore
const FORMATS: readonly SecretFormat[] = [
  { name: 'AWS access key id', prefixes: ['AKIA', 'ASIA'], re: /(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}(?![A-Z0-9])/g },
  { name: 'AWS secret access key (after its key name)', prefixes: ['aws_secret_access_key', 'AWS_SECRET_ACCESS_KEY', 'SecretAccessKey', 'secretAccessKey'], re: /(?:aws_secret_access_key|secretaccesskey)["']?\s{0,8}[:=]\s{0,8}["']?([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])/gi, valueOnly: true },
  { name: 'GitHub token (classic PAT, OAuth, user/server, refresh)', prefixes: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], re: re(`${NOT_BEFORE}gh[pousr]_[A-Za-z0-9]{36,}${NOT_AFTER}`) },
  { name: 'GitHub fine-grained PAT', prefixes: ['github_pat_'], re: re(`${NOT_BEFORE}github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59,}${NOT_AFTER}`) },
  { name: 'GitLab personal access token', prefixes: ['glpat-'], re: re(`${NOT_BEFORE}glpat-[${B}]{20,}`) },
  { name: 'Google API key', prefixes: ['AIza'], re: re(`${NOT_BEFORE}AIza[${B}]{35}${NOT_AFTER}`) },
  { name: 'Google OAuth client secret', prefixes: ['GOCSPX-'], re: re(`${NOT_BEFORE}GOCSPX-[${B}]{28}${NOT_AFTER}`) },
  { name: 'Anthropic API key', prefixes: ['sk-ant-'], re: re(`${NOT_BEFORE}sk-ant-[${B}]{32,}`) },
  { name: 'OpenAI project / service-account / admin key', prefixes: ['sk-proj-', 'sk-svcacct-', 'sk-admin-'], re: re(`${NOT_BEFORE}sk-(?:proj|svcacct|admin)-[${B}]{32,}`) },
  { name: 'OpenAI legacy user key', prefixes: ['sk-'], re: re(`${NOT_BEFORE}sk-[A-Za-z0-9]{32,}${NOT_AFTER}`) },
  { name: 'Slack token (bot, user, app, config, refresh)', prefixes: ['xox'], re: re(`${NOT_BEFORE}xox[abposr]-[A-Za-z0-9-]{10,}`) },
  { name: 'Slack app-level token', prefixes: ['xapp-'], re: re(`${NOT_BEFORE}xapp-\\d-[A-Za-z0-9-]{10,}`) },
  { name: 'Slack webhook URL', prefixes: ['https://hooks.slack.com/', 'http://hooks.slack.com/'], re: /https?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/[A-Za-z0-9_/-]+/g },
  { name: 'Stripe secret / restricted key', prefixes: ['sk_live_', 'sk_test_', 'rk_live_', 'rk_test_'], re: re(`${NOT_BEFORE}[sr]k_(?:live|test)_[A-Za-z0-9]{16,}${NOT_AFTER}`) },
  { name: 'Twilio API key SID', prefixes: ['SK'], re: /(?<![A-Za-z0-9])SK[0-9a-f]{32}(?![A-Za-z0-9])/g },
  { name: 'SendGrid API key', prefixes: ['SG.'], re: re(`${NOT_BEFORE}SG\\.[${B}]{22}\\.[${B}]{43}${NOT_AFTER}`) },
  { name: 'npm access token', prefixes: ['npm_'], re: re(`${NOT_BEFORE}npm_[A-Za-z0-9]{36}${NOT_AFTER}`) },
  { name: 'PyPI API token', prefixes: ['pypi-AgE'], re: re(`${NOT_BEFORE}pypi-AgE[${B}]{50,}`) },
  { name: 'Hugging Face token', prefixes: ['hf_'], re: re(`${NOT_BEFORE}hf_[A-Za-z0-9]{34}${NOT_AFTER}`) },
  { name: 'Discord bot token', prefixes: [], bounded: true, re: re(`[MNO][A-Za-z0-9]{23,25}\\.[${B}]{6}\\.[${B}]{27,38}${NOT_AFTER}`) },
  { name: 'PEM private key block', prefixes: ['-----BEGIN '], re: re(`-----BEGIN ${PEM_LABEL}-----[\\s\\S]*?(?:-----END ${PEM_LABEL}-----|(?!${PEM_BODY}))`) },
  { name: 'JSON Web Token', prefixes: ['eyJ'], re: re(`${NOT_BEFORE}eyJ[${B}]{8,}\\.[${B}]{2,}\\.[${B}]*`), accept: isJwt },
];

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

const PREFIXES = [...new Set(FORMATS.flatMap((f) => f.prefixes))];

/** For each prefix, the formats (by index in FORMATS) whose matches may start with it. */
const FORMATS_BY_PREFIX: ReadonlyMap<string, readonly number[]> = new Map(
  PREFIXES.map((p) => [p, FORMATS.flatMap((f, i) => (f.prefixes.includes(p) ? [i] : []))]),
);

/** Prefixes by their first UTF-16 code unit: which ones may start where the scan stopped. */
const PREFIXES_BY_FIRST = new Map<number, string[]>();
for (const p of PREFIXES) {
  const first = p.charCodeAt(0);
  PREFIXES_BY_FIRST.set(first, [...(PREFIXES_BY_FIRST.get(first) ?? []), p]);
}

const PREFIXED_FORMATS = FORMATS.filter((f) => f.prefixes.length > 0).length;

// Every prefix in one alternation: its first search answers "could any prefixed format be here?"
// in one pass, and almost every text says no.
const PREFIX_SCAN = new RegExp(
  PREFIXES.map((p) => p.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'),
  'g',
);

/**
 * Where each prefixed format's regex must start: the first occurrence of any of its prefixes (-1:
 * none, skip the format), by index in FORMATS; undefined when the text holds no prefix at all. One
 * scan from left to right visits every position where some prefix starts (overlaps included:
 * `sk-` and `sk-ant-` start at the same place) until every prefixed format has its position.
 */
function prefixStarts(text: string): Int32Array | undefined {
  PREFIX_SCAN.lastIndex = 0;
  let m = PREFIX_SCAN.exec(text);
  if (m === null) return undefined;
  const starts = new Int32Array(FORMATS.length).fill(-1);
  let missing = PREFIXED_FORMATS;
  while (m !== null && missing > 0) {
    const at = m.index;
    for (const prefix of PREFIXES_BY_FIRST.get(text.charCodeAt(at)) ?? []) {
      if (!text.startsWith(prefix, at)) continue;
      for (const f of FORMATS_BY_PREFIX.get(prefix) ?? []) {
        if (starts[f] === -1) {
          starts[f] = at;
          missing--;
        }
      }
    }
    PREFIX_SCAN.lastIndex = at + 1;
    m = PREFIX_SCAN.exec(text);
  }
  return starts;
}

function isTokenChar(code: number): boolean {
  return isAsciiAlnum(code) || code === 95 || code === 45;
}

export function findSecrets(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  const prefixed = prefixStarts(text);
  for (let index = 0; index < FORMATS.length; index++) {
    const format = FORMATS[index]!;
    const from = format.prefixes.length === 0 ? 0 : (prefixed?.[index] ?? -1);
    if (from === -1) continue;
    forEachMatch(format.re, text, from, (m) => {
      const glued = format.bounded && m.index > 0 && isTokenChar(text.charCodeAt(m.index - 1));
      if (glued || (format.accept && !format.accept(m[0]))) {
        format.re.lastIndex = m.index + 1; // a real match may still start inside this one (after a '.')
        return;
      }
      const end = m.index + m[0].length;
      const value = m[m.length - 1] ?? '';
      const start = format.valueOnly ? end - value.length : m.index;
      out.push({ type: 'secret', start, end });
    });
  }
  return out;
}

export function secretDetector(): Detector {
  return { type: 'secret', find: findSecrets };
}
