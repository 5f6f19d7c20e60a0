// What a candidate secret VALUE looks like, shared by the rules that find a value by its context
// (a key name, a URL's userinfo, a JSON key in the hint) rather than by its own format:
// - placeholders and references stand for a secret instead of being one (`<password>`,
//   `${DB_PASS}`, `process.env.X`, `changeme`, `***`), and a redaction token is already masked;
// - the entropy gate of the generic `key = value` rule (see `passesEntropyGate`).

/** `[REDACTED_SECRET]`, `[REDACTED_EMAIL]`, …: a value some earlier pass already masked. */
const REDACTION = /^\[REDACTED_[^\]]*\]$/;

/** Holds a redaction token anywhere (`Bearer [REDACTED_SECRET]`): masked before, leave it. */
export function containsRedaction(value: string): boolean {
  return value.includes('[REDACTED_');
}

export function isRedaction(value: string): boolean {
  return REDACTION.test(value);
}

// prettier-ignore
const PLACEHOLDER_WORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'passphrase', 'secret', 'token', 'key', 'apikey', 'api_key',
  'changeme', 'change_me', 'change-me', 'changeit', 'redacted', 'masked', 'hidden', 'removed',
  'placeholder', 'example', 'dummy', 'sample', 'null', 'nil', 'none', 'undefined', 'true', 'false',
  'yes', 'no', 'empty', 'todo', 'tbd', 'secret_here', 'required', 'optional',
]);

const PLACEHOLDER_SHAPES: readonly RegExp[] = [
  /^<[^<>]*>$/, // <password>
  /^\{+[^{}]*\}+$/, // {password}, {{ vault_password }}
  /^\$\{\{?[^{}]*\}?\}$/, // ${DB_PASS}, ${{ secrets.TOKEN }}
  /^\$\(.*\)$/, // $(cat token.txt)
  /^\$[A-Za-z_][A-Za-z0-9_]*$/, // $PASSWORD
  /^%(?:\([A-Za-z_]\w*\))?[-+ #0]?\d*[sdr]$/, // %s, %(password)s
  /^%[A-Za-z_]\w*%$/, // %DB_PASSWORD%
  /^\[[^[\]]*\]$/, // [hidden], [REDACTED]
  /^(.)\1+$/u, // xxxx, ****, ...., ••••, 00000000
  /^(?:x+|\*+|•+|…|\.{3,})(?:[-_ ](?:x+|\*+|•+))*$/iu, // XXXX-XXXX, ***_***
  /^your/i, // YOUR_API_KEY, your-token-here
  /^(?:my|the|some)[-_ ][a-z]/i, // my_password, the-secret
  /[-_ ]here$/i, // token_here, paste-key-here
  /^(?:process\.env|import\.meta\.env|os\.environ|os\.getenv|System\.getenv|Deno\.env|ENV)\b/, // references
];

/**
 * A value that stands for a credential instead of being one: empty, a redaction token, a
 * placeholder word or shape, a variable or environment reference, `true`/`false`/`null`.
 */
export function isPlaceholderOrReference(value: string): boolean {
  if (value === '' || isRedaction(value)) return true;
  if (PLACEHOLDER_WORDS.has(value.toLowerCase())) return true;
  return PLACEHOLDER_SHAPES.some((re) => re.test(value));
}

/** Counts per UTF-16 code unit, reset after each use (no allocation per value). */
const COUNTS = new Uint32Array(65536);

/** Shannon entropy of `value` in bits per UTF-16 code unit. */
export function shannonEntropy(value: string): number {
  const n = value.length;
  for (let i = 0; i < n; i++) COUNTS[value.charCodeAt(i)]!++;
  let h = 0;
  for (let i = 0; i < n; i++) {
    const c = value.charCodeAt(i);
    const count = COUNTS[c]!;
    if (count === 0) continue; // already counted
    const p = count / n;
    h -= p * Math.log2(p);
    COUNTS[c] = 0;
  }
  return h;
}

/**
 * Thresholds of the entropy gate. A value of 8 characters reaches 3.0 bits only when all 8 differ
 * (`Xk3$pL9q`), a real password of 11 (`Summer2024!`) has 3.1, a random 16-character token 3.5-4,
 * while words, counts, versions and timestamps stay below (`password1` 2.95, `2024-01-01T00:00Z`
 * 2.6, `aaaa1111` 1.0). Shorter values are too weak to tell a secret from a word.
 */
export const MIN_SECRET_LENGTH = 8;
export const MIN_SECRET_ENTROPY = 3.0;

// Shapes that are code, paths or prose rather than a credential, whatever their entropy.
const MEMBER_CHAIN =
  /^!*[A-Za-z_$][A-Za-z_$]*\d{0,2}(?:(?:\.|\?\.|->|::)[A-Za-z_$][A-Za-z_$]*\d{0,2})+[!?]*$/; // req.headers.authorization, !!node.token
const CONSTANT_NAME = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/; // SECRET_KEY_BASE, YOUR_API_KEY
const OPERATOR = /[=!]==|==[^=]|!=|=>|&&|\|\|/; // this.type===x.num (base64 has `==` only at its end)
const NUMERIC = /^[\d.,:_+-]+$/; // 1.2.3, 12:30, 1_000, 2024-01-01
const DATE_TIME = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?$/; // 2024-06-10T12:30:45Z
const FILE_PATH = /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)|^[\w.-]+(?:\/[\w.-]+)*\/[\w-]+\.[A-Za-z]{1,6}$/; // /etc/x, ./a, src/a.ts
/** Words that example and placeholder values spell out (`mypersonalaccesstoken123`). */
const PLACEHOLDER_WORD =
  /token|passw(?:or)?d|secret|api[-_]?key|example|placeholder|changeme|dummy|sample|redacted/i;

/** Digits only: a count, a port or a length, not a credential (`tokens: 1234`). */
export function isNumber(value: string): boolean {
  return /^[0-9]+$/.test(value);
}

/**
 * An identifier made of words rather than random characters: `userPassword`, `SemicolonToken$1`,
 * `__vite_ssr_import__`, `URLPatternResult`, `kEnumerableProperty`, `strict`. Its words (split at
 * `_`, `$`, `-` and case changes) have two letters or more (but a one-letter prefix) and three
 * and a half on average; a random string of letters splits into short pieces (`xKpQz` → x, Kp,
 * Qz). One word of 24 letters or more in a single case is left to the entropy gate.
 */
function isWordIdentifier(value: string): boolean {
  const core = value.replace(/^[?!@#:]+/, '');
  if (!/^[A-Za-z_$-]+\d{0,2}$/.test(core)) return false;
  const words = core
    .replace(/\d+$/, '')
    .split(/[_$-]+|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)
    .filter((w) => w !== '');
  if (words.length <= 1) return core.length < 24;
  const letters = words.reduce((n, w) => n + w.length, 0);
  // The first word may be a one-letter prefix (`kEnumerableProperty`, `mCount`).
  return (
    letters >= 3.5 * words.length &&
    words.every((w, i) => (w.length >= 2 || i === 0) && /^(?:[A-Z]?[a-z]+|[A-Z]+)$/.test(w))
  );
}

/**
 * Whether a value found after a secret-naming key is worth masking: not a placeholder, a
 * reference or a template (`${a}:${b}`), not code (`getPassword`, `req.headers.authorization`,
 * `SECRET_KEY`, `!!node.token`, `a===b`), not a path, URL or number, not an example that spells
 * out what it stands for (`my-personal-token-123`), and at least `minLength` characters of at
 * least MIN_SECRET_ENTROPY bits each.
 */
export function passesEntropyGate(value: string, minLength = MIN_SECRET_LENGTH): boolean {
  if (value.length < minLength || shannonEntropy(value) < MIN_SECRET_ENTROPY) return false;
  if (value.includes('${') || value.includes('{{')) return false; // templates: `${user}:${pass}`
  if (isPlaceholderOrReference(value) || PLACEHOLDER_WORD.test(value)) return false;
  if (NUMERIC.test(value) || DATE_TIME.test(value) || value.includes('://') || FILE_PATH.test(value))
    return false;
  if (MEMBER_CHAIN.test(value) || CONSTANT_NAME.test(value) || OPERATOR.test(value)) return false;
  return !isWordIdentifier(value);
}
