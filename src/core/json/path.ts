// JSON paths for diagnostics. Keys may be user data (PII), so only short plain identifiers are
// spelled out; any other key prints as `[…]`.

const PLAIN_IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const MAX_SHOWN_KEY = 40;

/** Whether a key is safe to print in a message: a plain identifier shorter than 40 characters. */
export function isShowableKey(key: string): boolean {
  return key.length < MAX_SHOWN_KEY && PLAIN_IDENTIFIER.test(key);
}

/** `$.messages[3].content`; array indices as `[n]`, keys that may be data as `[…]`. */
export function formatJsonPath(segments: readonly (string | number)[]): string {
  let out = '$';
  for (const s of segments) {
    if (typeof s === 'number') out += `[${s}]`;
    else out += isShowableKey(s) ? `.${s}` : '[…]';
  }
  return out;
}
