// MAC addresses (EUI-48): six hex pairs joined by one consistent `:` or `-`
// (`00:1A:2B:3C:4D:5E`, `00-1a-2b-3c-4d-5e`) and Cisco's three dotted hex quads
// (`001a.2b3c.4d5e`). A MAC is a stable device identifier, so it is masked like an IP address.
//
// Deliberately not matched:
// - a six-pair stretch of a longer colon/hex run: IPv6 addresses (`fe80::aa:bb:cc:dd:ee:ff`),
//   colon-separated fingerprints and hashes (`SHA256 ab:cd:…` has 16 or 32 pairs), longer
//   dash-joined ids. The pair group must not continue with another hex group (or `::`) on
//   either side; a word such as `hwaddr:` or `mac-` before it is fine;
// - the all-zero and broadcast addresses and any other one-character repeat
//   (`00:00:00:00:00:00`, `ff:ff:ff:ff:ff:ff`): placeholders that identify no device;
// - times (`12:30:45`) and `line:col` pairs never have six pairs.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

const H = '[0-9A-Fa-f]';
// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const MAC = new RegExp(`${H}{2}([:-])${H}{2}(?:\\1${H}{2}){4}|${H}{4}\\.${H}{4}\\.${H}{4}`, 'g');

/** How far a neighbouring token is read: a hex group is at most four characters. */
const TOKEN_LOOK = 5;

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

/**
 * Whether the separator at `sepIndex` joins the address to another group of the same run: the
 * token on its far side (read in `direction`, ±1) is a short all-hex group, or another
 * separator (`::`). A longer or non-hex token (`hwaddr`, `mac`, `eth0`) is a label, not a group.
 */
function continuesRun(text: string, sepIndex: number, direction: 1 | -1): boolean {
  const sep = text.charCodeAt(sepIndex);
  let i = sepIndex + direction;
  if (text.charCodeAt(i) === sep) return true;
  let length = 0;
  while (length <= TOKEN_LOOK && alnumAt(text, i)) {
    if (!isHex(text.charCodeAt(i))) return false;
    length++;
    i += direction;
  }
  return length > 0 && length <= 4;
}

function oneRepeatedDigit(candidate: string): boolean {
  const hex = candidate.replace(/[:.-]/g, '').toLowerCase();
  for (let i = 1; i < hex.length; i++) if (hex[i] !== hex[0]) return false;
  return true;
}

export function findMacAddresses(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(MAC, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    const sep = m[1] ?? '.';
    const glued =
      alnumAt(text, start - 1) ||
      alnumAt(text, end) ||
      (text[start - 1] === sep && continuesRun(text, start - 1, -1)) ||
      (text[end] === sep && continuesRun(text, end, 1));
    if (glued || oneRepeatedDigit(m[0])) {
      // Retry one character on: the match may have started inside a label (`mac-0a-1b-…` first
      // matches `ac-0a-…`). Each retry re-reads at most one address length: linear.
      MAC.lastIndex = start + 1;
      return;
    }
    out.push({ type: 'mac', start, end });
  });
  return out;
}

export function macDetector(): Detector {
  return { type: 'mac', find: findMacAddresses };
}
