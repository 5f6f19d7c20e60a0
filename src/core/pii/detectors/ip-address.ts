// IP addresses.
//
// IPv4: dotted quads, octets 0–255 without leading zeros, not inside a longer dotted number
// (`1.2.3.4.5`) or glued to letters (`v1.2.3.4`). Three-part versions never match; four-part
// versions (`4.0.0.0`, `1.2.3.4`, `Chrome/120.0.0.0`) do, so a candidate is an address when
//   (a) it has IP context: an IP word shortly before it (ip, address, host, server, client,
//       peer, remote, ping, inet, listen on, bind, dns, gateway, proxy, src/dst…), `://` or the
//       `@` of `user@` right before it, a `:port` or `/cidr` right after it, or the value's key
//       names an IP (the `ip_address` hint). The weak words `from` and `via` lose to a version
//       cue when the number is version-shaped (`upgraded from 4.0.0.0` is a version);
//   (b) or it is neither in a version position (a version word shortly before it: version, v,
//       release, build, upgrade(d), install(ed), bump(ed), sdk, firmware, package, runtime,
//       python, chrome…; `==`, `>=`, `~`, `^`, `name-` or `Name/` right before it; `-beta`,
//       `-rc`, `+build`… right after it) nor version-shaped (the first three octets below 32,
//       the first not 10: random addresses almost never look so, versions almost always do,
//       with a build number of any size last: `1.2.3.45`).
// Private ranges (10/8, 192.168/16) count like any other: a private address still maps a user's
// network. The non-identifying addresses on every developer's screen never count: 0.0.0.0,
// loopback (127/8) and netmasks (255.255.255.0, 255.255.255.255…).
//
// IPv6: full, compressed (`2001:db8::1`) and IPv4-embedded (`::ffff:192.0.2.1`) forms, with a
// zone index (`fe80::1%eth0`) masked together with the address. Must contain a digit: all-letter
// forms such as `Face::Bad` are code (C++/Rust paths), not addresses. Times (`12:30:45`) and MAC
// addresses never have the group count of an address. The unspecified and loopback addresses
// (`::`, `::1`) never count.

import type { Detector, PiiMatch, TypeHint } from '../types.js';
import { forEachMatch, isAsciiAlnum, isDigit, windowBefore } from './scan.js';

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
    if (isNonIdentifyingV6(text.slice(start, addrEnd))) return;
    out.push({ type: 'ip_address', start, end: addrEnd });
  });
}

/** How far before a candidate its IP context word may stand. */
const CONTEXT_WINDOW = 30;
/** How far before a candidate a version word puts it in a version position. */
const VERSION_WINDOW = 25;
const IP_WORDS =
  /(?<![a-z])(?:ip|ipv4|ips|ip_?addr(?:ess)?|addr(?:ess)?|addresses|host(?:name)?s?|server|client|peer|remote|remote_addr|connect(?:ed|ing|s)?\s+to|ping(?:ing)?|inet|listen(?:ing|s)?\s+on|bind(?:ing|s)?|bound\s+to|nameserver|dns|gateway|proxy|src|dst|source|destination|ssh|curl|wget|telnet|nslookup|dig|traceroute|tracert|resolv(?:e|ed|es|ing)|subnet|netmask|route|router|upstream|endpoint|x-forwarded-for)(?![a-z])/i;
const WEAK_IP_WORDS = /(?<![a-z])(?:from|via)(?![a-z])/i;
const VERSION_WORDS =
  /(?<![a-z])(?:ver|version|versions|release[sd]?|build|builds|upgrad(?:e|ed|es|ing)|updat(?:e|ed|es|ing)|install(?:ed|ing|s)?|bump(?:ed|s|ing)?|sdk|firmware|assembly|package|runtime|nodejs|node\.js|python|chrome|chromium|firefox|dotnet|jdk)(?![a-z])/i;
// Right before the candidate: `v` (`v 1.2.3.4`, `v. …`), a version specifier (`==`, `>=`, `~`,
// `^`…), a package name's dash (`libfoo-1.2.3.4`) or a product token's slash (`Chrome/120.0.0.0`).
const VERSION_BEFORE = /(?:(?<![A-Za-z])[vV]\.?|[=<>!~]=|[~^]|[A-Za-z_]-|[A-Za-z]\/)\s*$/;
const VERSION_AFTER = /^(?:-(?:alpha|beta|rc|dev|pre|preview|snapshot|nightly|canary)|\+[0-9A-Za-z])/i;

function octets(candidate: string): number[] {
  return candidate.split('.').map(Number);
}

/**
 * 0.0.0.0, 127/8 and netmasks (255.255.255.0, 255.255.255.255…): on every developer's screen,
 * identifying nobody.
 */
function isNonIdentifyingV4(parts: readonly number[]): boolean {
  if (parts[0] === 127 || parts.every((p) => p === 0)) return true;
  // A netmask: ones then zeros, 255 first.
  const bits = parts.reduce((acc, p) => acc * 256 + p, 0);
  const inverted = 0xffffffff - bits;
  return parts[0] === 255 && (inverted & (inverted + 1)) === 0;
}

/** Small leading numbers: versions put a build number last (`1.2.3.45`), addresses rarely look so. */
function isVersionShaped(parts: readonly number[]): boolean {
  return parts[0] !== 10 && (parts[0] ?? 0) < 32 && (parts[1] ?? 0) < 32 && (parts[2] ?? 0) < 32;
}

/** `:8080` or `/24` right after the candidate. */
function hasPortOrCidr(text: string, end: number): boolean {
  const next = text.charCodeAt(end);
  return (next === 58 || next === 47) && isDigit(text.charCodeAt(end + 1));
}

function isIpv4Address(text: string, start: number, end: number, hinted: boolean): boolean {
  const parts = octets(text.slice(start, end));
  if (isNonIdentifyingV4(parts)) return false;
  if (hinted || hasPortOrCidr(text, end)) return true;
  if (text.charCodeAt(start - 1) === 64 || text.startsWith('://', start - 3)) return true;
  const before = windowBefore(text, start, CONTEXT_WINDOW);
  if (IP_WORDS.test(before)) return true;
  // A marker glued to the number (`v`, `==`, `pkg-`, `Chrome/`, `-rc`) makes it a version whatever
  // its shape; a version word shortly before it only together with a version's shape (below).
  const marked = VERSION_BEFORE.test(before) || VERSION_AFTER.test(text.slice(end, end + 12));
  const versionWord = VERSION_WORDS.test(before.slice(-VERSION_WINDOW - 1));
  const versionPosition = marked || versionWord;
  const versionShaped = isVersionShaped(parts);
  // `from`/`via` outweigh a version cue only for a number no version looks like: `upgraded from
  // 4.0.0.0` is a version, `package received from 10.0.0.5` an address.
  if (WEAK_IP_WORDS.test(before)) return !versionPosition || !versionShaped;
  if (versionShaped || marked) return false;
  // In a version position, a number is a version when it looks like one there: small middle parts
  // and either a small first part or a zero last one (`build 22.04.3.1`, `Chrome/120.0.0.0`).
  // `build 203.0.113.9` and `build 162.19.25.190` are addresses.
  const [first = 0, second = 0, third = 0, last = 0] = parts;
  return !versionWord || second >= 32 || third >= 32 || (first >= 32 && last !== 0);
}

/** `::`, `::1` and their spelled-out forms: the unspecified and loopback addresses. */
function isNonIdentifyingV6(address: string): boolean {
  const zone = address.indexOf('%');
  const bare = zone === -1 ? address : address.slice(0, zone);
  return /^(?:0{1,4}:){7}0{0,3}[01]$|^(?:(?:0{1,4}:)*0{1,4})?::(?:(?:0{1,4}:)*0{0,3}[01])?$/.test(bare);
}

export function findIpAddresses(text: string, hint?: TypeHint): PiiMatch[] {
  const hinted = hint?.has('ip_address') ?? false;
  const out: PiiMatch[] = [];
  forEachMatch(IPV4, text, 0, (m) => {
    const end = m.index + m[0].length;
    if (isIpv4Address(text, m.index, end, hinted)) out.push({ type: 'ip_address', start: m.index, end });
  });
  if (text.includes(':')) findIpv6(text, out);
  return out;
}

export function ipAddressDetector(): Detector {
  return { type: 'ip_address', find: findIpAddresses };
}
