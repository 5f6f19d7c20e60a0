// IP addresses. Every syntactically valid address is masked, loopback (127.0.0.1, ::1),
// private (10/8, 192.168/16, fc00::/7) and documentation ranges included: a policy that lists
// `ip_address` expects IPs gone, and a private address still maps a user's network. Use `allow`
// for addresses that must stay (e.g. `127.0.0.1`).
//
// IPv4: dotted quads, octets 0–255 without leading zeros, not inside a longer dotted number
// (`1.2.3.4.5`) or glued to letters (`v1.2.3.4`). Three-part versions never match. Four-part
// versions with small numbers (`4.0.0.0`) are indistinguishable from addresses and are masked.
//
// IPv6: full, compressed (`2001:db8::1`, `::1`) and IPv4-embedded (`::ffff:192.0.2.1`) forms,
// with a zone index (`fe80::1%eth0`) masked together with the address. Must contain a digit:
// all-letter forms such as `Face::Bad` are code (C++/Rust paths), not addresses. Times
// (`12:30:45`) and MAC addresses never have the group count of an address.

import type { Detector, PiiMatch } from '../types.js';
import { forEachMatch, isAsciiAlnum } from './scan.js';

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)';
const IPV4 = new RegExp(`(?<![\\w.])${OCTET}(?:\\.${OCTET}){3}(?!\\w|\\.\\d)`, 'g');
const IPV4_EXACT = new RegExp(`^${OCTET}(?:\\.${OCTET}){3}$`);
// Seed: two colons around at most one hex group (`::` or `:db8:`); every IPv6 address has one.
// The address around it is scanned by hand.
const IPV6_SEED = /:[0-9A-Fa-f]{0,4}:/g;

function isHex(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 65 && code <= 70) || (code >= 97 && code <= 102);
}

function isWordChar(code: number): boolean {
  return isAsciiAlnum(code) || code === 95;
}

function isZoneChar(code: number): boolean {
  return isWordChar(code) || code === 46 || code === 45 || code === 126;
}

function validGroups(part: string, allowTrailingV4: boolean): number {
  if (part === '') return 0;
  const groups = part.split(':');
  let count = 0;
  for (let i = 0; i < groups.length; i++) {
    const g = groups[i] ?? '';
    if (allowTrailingV4 && i === groups.length - 1 && g.includes('.')) {
      if (!IPV4_EXACT.test(g)) return -1;
      count += 2;
    } else if (/^[0-9A-Fa-f]{1,4}$/.test(g)) {
      count += 1;
    } else {
      return -1;
    }
  }
  return count;
}

export function isIpv6(candidate: string): boolean {
  if (!/[0-9]/.test(candidate)) return false;
  const halves = candidate.split('::');
  if (halves.length > 2) return false;
  if (halves.length === 1) return validGroups(candidate, true) === 8;
  const left = validGroups(halves[0] ?? '', false);
  const right = validGroups(halves[1] ?? '', true);
  return left >= 0 && right >= 0 && left + right <= 7;
}

function findIpv6(text: string, out: PiiMatch[]): void {
  forEachMatch(IPV6_SEED, text, 0, (m) => {
    let start = m.index;
    while (start > 0) {
      const code = text.charCodeAt(start - 1);
      if (!isHex(code) && code !== 58) break;
      start--;
    }
    let end = m.index + m[0].length;
    while (end < text.length) {
      const code = text.charCodeAt(end);
      if (!isHex(code) && code !== 58 && code !== 46) break;
      end++;
    }
    IPV6_SEED.lastIndex = end;
    if (start > 0 && (isWordChar(text.charCodeAt(start - 1)) || text.charCodeAt(start - 1) === 46)) return;
    let addrEnd = end;
    if (!isIpv6(text.slice(start, addrEnd))) {
      // Trailing sentence punctuation (`…::1.`) or a port separator is not part of the address.
      const last = text.charCodeAt(addrEnd - 1);
      if (last !== 46 && last !== 58) return;
      addrEnd--;
      if (!isIpv6(text.slice(start, addrEnd))) return;
    } else if (end < text.length && isWordChar(text.charCodeAt(end))) {
      return; // runs on into a word: `::vector`, `fe80::1g`
    }
    if (
      text.charCodeAt(addrEnd) === 37 &&
      addrEnd + 1 < text.length &&
      isZoneChar(text.charCodeAt(addrEnd + 1))
    ) {
      addrEnd++;
      while (addrEnd < text.length && isZoneChar(text.charCodeAt(addrEnd))) addrEnd++;
      IPV6_SEED.lastIndex = Math.max(IPV6_SEED.lastIndex, addrEnd);
    }
    out.push({ type: 'ip_address', start, end: addrEnd });
  });
}

export function findIpAddresses(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  forEachMatch(IPV4, text, 0, (m) =>
    out.push({ type: 'ip_address', start: m.index, end: m.index + m[0].length }),
  );
  if (text.includes(':')) findIpv6(text, out);
  return out;
}

export function ipAddressDetector(): Detector {
  return { type: 'ip_address', find: findIpAddresses };
}
