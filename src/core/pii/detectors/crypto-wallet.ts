// Cryptocurrency wallet addresses, each validated by its own checksum or exact shape:
// - Base58Check (Bitcoin `1…`/`3…`, Litecoin `L…`/`M…`, Dogecoin `D…`, Tron `T…`): the string
//   decodes to 25 bytes whose version byte belongs to the prefix family and whose last four
//   bytes are the first four of SHA-256(SHA-256(version + payload));
// - Bech32/Bech32m segwit addresses (`bc1…`, testnet `tb1…`, Litecoin `ltc1…`) per BIP-173 and
//   BIP-350: the BCH checksum (Bech32 for witness v0, Bech32m for v1+), a valid witness
//   version, program length and padding, and a single case;
// - Ethereum and EVM chains: `0x` + exactly 40 hex digits, not glued to letters or digits.
//
// Ethereum choice: EIP-55 mixed-case checksums need Keccak-256, which is not worth a second hash
// implementation here: all-lower and all-upper addresses (most of them) carry no checksum at
// all, so the check could only reject mixed-case strings with a wrong checksum, which are
// typos of real addresses anyway. The shape alone is specific: `0x` + 40 hex digits is what
// Ethereum prints for an address, 32-byte hashes (`0x` + 64 hex) and calldata are excluded by
// the boundary check, and the all-zero address (a well-known constant) is skipped.
//
// Deliberately not matched: git SHAs and other hex digests without `0x` (never an address),
// base58 strings whose checksum fails (most random base58 ids), testnet legacy addresses
// (`m…`/`n…`/`2…`: too many look-alikes for a checksum-only filter on short prefixes), and
// chains without a verifiable checksum (Solana base58 keys are indistinguishable from ids).
//
// SHA-256 is implemented below (FIPS 180-4): src/core may not import node:crypto.

import type { Detector, PiiMatch } from '../types.js';
import { alnumAt, forEachMatch } from './scan.js';

// ---- SHA-256 ------------------------------------------------------------------------------

const K = new Uint32Array(64);
const H0 = new Uint32Array(8);
{
  // FIPS 180-4 §4.2.2 / §5.3.3: the first 32 bits of the fractional parts of the cube roots of
  // the first 64 primes, and of the square roots of the first 8 (checked by the test vectors).
  const primes: number[] = [];
  for (let n = 2; primes.length < 64; n++) if (primes.every((p) => n % p !== 0)) primes.push(n);
  const frac32 = (x: number): number => ((x - Math.floor(x)) * 0x100000000) >>> 0;
  primes.forEach((p, i) => {
    K[i] = frac32(Math.cbrt(p));
    if (i < 8) H0[i] = frac32(Math.sqrt(p));
  });
}

function rotr(x: number, n: number): number {
  return (x >>> n) | (x << (32 - n));
}

/** SHA-256 digest of `data`. */
export function sha256(data: Uint8Array): Uint8Array {
  const blocks = new Uint8Array((((data.length + 8) >> 6) + 1) << 6);
  blocks.set(data);
  blocks[data.length] = 0x80;
  const view = new DataView(blocks.buffer);
  const bits = data.length * 8;
  view.setUint32(blocks.length - 8, Math.floor(bits / 0x100000000));
  view.setUint32(blocks.length - 4, bits >>> 0);
  const h = H0.slice();
  const w = new Uint32Array(64);
  for (let offset = 0; offset < blocks.length; offset += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(offset + t * 4);
    for (let t = 16; t < 64; t++) {
      const x = w[t - 15]!;
      const y = w[t - 2]!;
      const s0 = rotr(x, 7) ^ rotr(x, 18) ^ (x >>> 3);
      const s1 = rotr(y, 17) ^ rotr(y, 19) ^ (y >>> 10);
      w[t] = w[t - 16]! + s0 + w[t - 7]! + s1;
    }
    let a = h[0]!;
    let b = h[1]!;
    let c = h[2]!;
    let d = h[3]!;
    let e = h[4]!;
    let f = h[5]!;
    let g = h[6]!;
    let k = h[7]!;
    for (let t = 0; t < 64; t++) {
      const t1 = (k + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[t]! + w[t]!) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      k = g;
      g = f;
      f = e;
      e = (d + t1) >>> 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) >>> 0;
    }
    h[0] = h[0]! + a;
    h[1] = h[1]! + b;
    h[2] = h[2]! + c;
    h[3] = h[3]! + d;
    h[4] = h[4]! + e;
    h[5] = h[5]! + f;
    h[6] = h[6]! + g;
    h[7] = h[7]! + k;
  }
  const out = new Uint8Array(32);
  const outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(i * 4, h[i]!);
  return out;
}

// ---- Base58Check --------------------------------------------------------------------------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const BASE58_VALUE = new Int8Array(128).fill(-1);
for (let i = 0; i < BASE58.length; i++) BASE58_VALUE[BASE58.charCodeAt(i)] = i;

/** Version byte of each accepted Base58Check prefix character. */
const VERSION_BY_PREFIX: Readonly<Record<string, number>> = {
  '1': 0x00, // Bitcoin P2PKH
  '3': 0x05, // Bitcoin (and legacy Litecoin) P2SH
  L: 0x30, // Litecoin P2PKH
  M: 0x32, // Litecoin P2SH
  D: 0x1e, // Dogecoin P2PKH
  T: 0x41, // Tron
};

/** Base58 string to bytes (leading `1`s are leading zero bytes); undefined on a bad character. */
export function base58Decode(s: string): Uint8Array | undefined {
  const little: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const code = s.charCodeAt(i);
    let carry = code < 128 ? BASE58_VALUE[code]! : -1;
    if (carry < 0) return undefined;
    for (let j = 0; j < little.length; j++) {
      carry += little[j]! * 58;
      little[j] = carry & 0xff;
      carry >>= 8;
    }
    for (; carry > 0; carry >>= 8) little.push(carry & 0xff);
  }
  let zeros = 0;
  while (zeros < s.length && s.charCodeAt(zeros) === 49) zeros++;
  const out = new Uint8Array(zeros + little.length);
  for (let j = 0; j < little.length; j++) out[out.length - 1 - j] = little[j]!;
  return out;
}

/** A 25-byte Base58Check address whose version byte matches its first character. */
export function base58CheckAddressValid(candidate: string): boolean {
  const version = VERSION_BY_PREFIX[candidate.charAt(0)];
  const bytes = base58Decode(candidate);
  if (version === undefined || bytes === undefined || bytes.length !== 25 || bytes[0] !== version)
    return false;
  const check = sha256(sha256(bytes.subarray(0, 21)));
  for (let i = 0; i < 4; i++) if (check[i] !== bytes[21 + i]) return false;
  return true;
}

// ---- Bech32 / Bech32m ---------------------------------------------------------------------

const BECH32_CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
const BECH32_GENERATOR = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
const BECH32_CONST = 1;
const BECH32M_CONST = 0x2bc830a3;
const BECH32_MAX_LENGTH = 90;
const SEGWIT_HRPS = new Set(['bc', 'tb', 'ltc']);

function polymod(values: readonly number[]): number {
  let chk = 1;
  for (const v of values) {
    const top = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= BECH32_GENERATOR[i]!;
  }
  return chk;
}

/** 5-bit groups to bytes; undefined when the padding is longer than 4 bits or not zero. */
function fiveToEight(groups: readonly number[]): number[] | undefined {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  for (const v of groups) {
    acc = ((acc << 5) | v) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
  }
  if (bits >= 5 || (acc & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/** A segwit address (BIP-173/350) of an accepted chain, in one case. */
export function segwitAddressValid(candidate: string): boolean {
  if (candidate.length > BECH32_MAX_LENGTH) return false;
  const lower = candidate.toLowerCase();
  if (lower !== candidate && candidate.toUpperCase() !== candidate) return false; // mixed case
  const sep = lower.lastIndexOf('1');
  const hrp = lower.slice(0, sep);
  if (!SEGWIT_HRPS.has(hrp)) return false;
  const data: number[] = [];
  for (let i = sep + 1; i < lower.length; i++) {
    const v = BECH32_CHARSET.indexOf(lower.charAt(i));
    if (v < 0) return false;
    data.push(v);
  }
  if (data.length < 7) return false;
  const expanded: number[] = [];
  for (let i = 0; i < hrp.length; i++) expanded.push(hrp.charCodeAt(i) >> 5);
  expanded.push(0);
  for (let i = 0; i < hrp.length; i++) expanded.push(hrp.charCodeAt(i) & 31);
  const version = data[0]!;
  if (version > 16) return false;
  const expected = version === 0 ? BECH32_CONST : BECH32M_CONST;
  if (polymod([...expanded, ...data]) !== expected) return false;
  const program = fiveToEight(data.slice(1, -6));
  if (program === undefined || program.length < 2 || program.length > 40) return false;
  return version !== 0 || program.length === 20 || program.length === 32;
}

// ---- Scanning -----------------------------------------------------------------------------

// Boundaries are checked in code: a regex opening with a lookbehind cannot use V8's fast scan.
const BASE58_ADDRESS = /[13LMDT][1-9A-HJ-NP-Za-km-z]{24,34}/g;
const SEGWIT_ADDRESS = /(?:bc|tb|ltc)1[02-9ac-hj-np-z]{11,87}/gi;
const EVM_ADDRESS = /0x[0-9a-fA-F]{40}/g;
const ZERO_EVM_ADDRESS = '0x' + '0'.repeat(40);

/** Runs `re` over `text`, reporting the standalone matches that `valid` accepts. */
function scan(text: string, re: RegExp, valid: (candidate: string) => boolean, out: PiiMatch[]): void {
  forEachMatch(re, text, 0, (m) => {
    const start = m.index;
    const end = start + m[0].length;
    // A glued match is part of a longer token; every later start inside it is glued too.
    if (alnumAt(text, start - 1) || alnumAt(text, end) || !valid(m[0])) return;
    out.push({ type: 'crypto_wallet', start, end });
  });
}

export function findCryptoWallets(text: string): PiiMatch[] {
  const out: PiiMatch[] = [];
  scan(text, BASE58_ADDRESS, base58CheckAddressValid, out);
  scan(text, SEGWIT_ADDRESS, segwitAddressValid, out);
  scan(text, EVM_ADDRESS, (c) => c !== ZERO_EVM_ADDRESS, out);
  return out;
}

export function cryptoWalletDetector(): Detector {
  return { type: 'crypto_wallet', find: findCryptoWallets };
}
