import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base58CheckAddressValid,
  findCryptoWallets,
  segwitAddressValid,
  sha256,
} from '../../../../src/core/pii/detectors/crypto-wallet.js';
import { matchedTexts } from '../helpers.js';

// ---- fixture builders (independent of the detector: node:crypto for SHA-256) ----------------

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

function nodeSha256(data: Uint8Array): Uint8Array {
  return new Uint8Array(createHash('sha256').update(data).digest());
}

function base58Encode(bytes: Uint8Array): string {
  let n = 0n;
  for (const b of bytes) n = n * 256n + BigInt(b);
  let out = '';
  for (; n > 0n; n /= 58n) out = BASE58[Number(n % 58n)] + out;
  for (let i = 0; i < bytes.length && bytes[i] === 0; i++) out = '1' + out;
  return out;
}

/** A Base58Check address with `version` and a 20-byte payload derived from `seed`. */
function base58Check(version: number, seed: number): string {
  const body = new Uint8Array(21);
  body[0] = version;
  for (let i = 1; i < 21; i++) body[i] = (seed * 37 + i * 101) & 0xff;
  const check = nodeSha256(nodeSha256(body)).subarray(0, 4);
  return base58Encode(new Uint8Array([...body, ...check]));
}

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';

function bech32Polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3];
  let chk = 1;
  for (const v of values) {
    const b = chk >>> 25;
    chk = ((chk & 0x1ffffff) << 5) ^ v;
    for (let i = 0; i < 5; i++) if ((b >> i) & 1) chk ^= gen[i]!;
  }
  return chk;
}

/** A segwit address for `hrp`, witness `version` and `program` bytes. */
function segwit(hrp: string, version: number, program: number[]): string {
  const data = [version];
  let acc = 0;
  let bits = 0;
  for (const byte of program) {
    acc = (acc << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      bits -= 5;
      data.push((acc >> bits) & 31);
    }
  }
  if (bits > 0) data.push((acc << (5 - bits)) & 31);
  const hrpExpanded = [...hrp].map((c) => c.charCodeAt(0) >> 5);
  hrpExpanded.push(0, ...[...hrp].map((c) => c.charCodeAt(0) & 31));
  const constant = version === 0 ? 1 : 0x2bc830a3;
  const mod = bech32Polymod([...hrpExpanded, ...data, 0, 0, 0, 0, 0, 0]) ^ constant;
  for (let i = 0; i < 6; i++) data.push((mod >>> (5 * (5 - i))) & 31);
  return `${hrp}1${data.map((v) => CHARSET[v]).join('')}`;
}

function program(length: number, seed: number): number[] {
  return Array.from({ length }, (_, i) => (seed * 53 + i * 29) & 0xff);
}

function hex(length: number, seed: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += '0123456789abcdef'[(seed * 7 + i * 5) % 16];
  return out;
}

// ---- fixtures --------------------------------------------------------------------------------

const BTC_P2PKH = base58Check(0x00, 1);
const BTC_P2SH = base58Check(0x05, 2);
const LTC_P2PKH = base58Check(0x30, 3);
const LTC_P2SH = base58Check(0x32, 4);
const DOGE = base58Check(0x1e, 5);
const TRON = base58Check(0x41, 6);
const LTC_SEGWIT = segwit('ltc', 0, program(20, 7));
const ETH = `0x${hex(40, 3)}`;

function flipLast(s: string): string {
  const last = s[s.length - 1]!;
  return s.slice(0, -1) + (last === 'z' ? 'y' : 'z');
}

describe('sha256', () => {
  const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
  const hexOf = (b: Uint8Array): string => Buffer.from(b).toString('hex');

  it('matches the FIPS 180-4 examples', () => {
    expect(hexOf(sha256(enc('')))).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(hexOf(sha256(enc('abc')))).toBe(
      'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad',
    );
    expect(hexOf(sha256(enc('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq')))).toBe(
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    );
  });

  it('agrees with node:crypto across block boundaries', () => {
    for (let n = 0; n <= 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hexOf(sha256(data))).toBe(hexOf(nodeSha256(data)));
    }
  });
});

describe('crypto_wallet detector', () => {
  it('builds fixtures with the expected prefixes', () => {
    expect([BTC_P2PKH, BTC_P2SH, LTC_P2PKH, LTC_P2SH, DOGE, TRON].map((a) => a[0])).toEqual([
      '1',
      '3',
      'L',
      'M',
      'D',
      'T',
    ]);
    expect([base58Check(0x1f, 1), base58Check(0x42, 1), base58Check(0x06, 1)].map((a) => a[0])).toEqual([
      'D',
      'T',
      '3',
    ]);
  });

  it.each([
    [`send to ${BTC_P2PKH} please`, [BTC_P2PKH]],
    [`P2SH: ${BTC_P2SH}.`, [BTC_P2SH]],
    [`ltc ${LTC_P2PKH} and ${LTC_P2SH}`, [LTC_P2PKH, LTC_P2SH]],
    [`doge "${DOGE}" tron (${TRON})`, [DOGE, TRON]],
    [`https://explorer.example/address/${BTC_P2PKH}`, [BTC_P2PKH]],
    // BIP-173 / BIP-350 valid segwit addresses.
    ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4', ['BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4']],
    [
      'tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7',
      ['tb1qrp33g0q5c5txsp9arysrx4k6zdkfs4nce4xj0gdcccefvpysxf3q0sl5k7'],
    ],
    [
      'taproot bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0',
      ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqzk5jj0'],
    ],
    ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs', ['bc1zw508d6qejxtdg4y5r3zarvaryvaxxpcs']],
    ['BC1SW50QGDZ25J', ['BC1SW50QGDZ25J']],
    [`litecoin ${LTC_SEGWIT}`, [LTC_SEGWIT]],
    [`eth ${ETH}`, [ETH]],
    [`"to":"${ETH.toUpperCase().replace('0X', '0x')}"`, [ETH.toUpperCase().replace('0X', '0x')]],
    [
      'mixed case, EIP-55 not checked: 0x52908400098527886E0F7030069857D2E4169EE7',
      ['0x52908400098527886E0F7030069857D2E4169EE7'],
    ],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findCryptoWallets, text)).toEqual(expected);
  });

  it.each([
    [flipLast(BTC_P2PKH), 'base58check checksum fails'],
    [base58Check(0x6f, 1), 'testnet version byte (m/n prefix)'],
    [base58Check(0x1f, 1), 'starts with D but is not version 0x1e (checksum valid)'],
    [base58Check(0x42, 1), 'starts with T but is not version 0x41 (checksum valid)'],
    [base58Check(0x06, 1), 'starts with 3 but is not version 0x05 (checksum valid)'],
    [`x${BTC_P2PKH}`, 'glued to a letter before'],
    [`${BTC_P2PKH}0`, 'glued to a non-base58 digit after'],
    ['1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', 'base58 look-alike'],
    ['tc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq5zuyut', 'unknown human-readable part'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vqh2y7hd', 'Bech32 checksum on v1'],
    ['bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kemeawh', 'Bech32m checksum on v0'],
    ['BC130XLXVLHEMJA6C4DQV22UAPCTQUPFHLXM9H8Z3K2E72Q4K9HCZ7VQ7ZWS8R', 'witness version 17'],
    ['bc1pw5dgrnzv', 'program of one byte'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v8n0nx0muaewav253zgeav', 'program of 41 bytes'],
    ['BC1QR508D6QEJXTDG4Y5R3ZARVARYV98GJ9P', 'v0 program of 16 bytes'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vq47Zagq', 'mixed case'],
    ['bc1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7v07qwwzcrf', 'padding over 4 bits'],
    ['tb1p0xlxvlhemja6c4dqv22uapctqupfhlxm9h8z3k2e72q4k9hcz7vpggkg4j', 'non-zero padding'],
    [`commit ${hex(40, 5)}`, 'git SHA: 40 hex digits without 0x'],
    [`tx 0x${hex(64, 1)}`, 'transaction hash: 64 hex digits'],
    [`0x${hex(39, 2)} and 0x${hex(41, 2)}`, 'one digit short or long'],
    [`0x${'0'.repeat(40)}`, 'the zero address'],
    [`a${ETH}`, 'glued before'],
    [`${ETH}g`, 'glued after'],
    ['123e4567-e89b-12d3-a456-426614174000', 'UUID'],
    ['version 1.2.3, build 20240610, part 3ABC-1234', 'version, build and part numbers'],
    ['TRON is great; Dogecoin and Litecoin too', 'chain names'],
  ])('ignores %j (%s)', (text) => {
    expect(findCryptoWallets(text)).toEqual([]);
  });

  it('validators agree with the scan', () => {
    expect(base58CheckAddressValid(BTC_P2PKH)).toBe(true);
    expect(base58CheckAddressValid(flipLast(BTC_P2PKH))).toBe(false);
    expect(segwitAddressValid('BC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4')).toBe(true);
    expect(segwitAddressValid(segwit('ltc', 1, program(32, 9)))).toBe(true);
    expect(segwitAddressValid(segwit('xyz', 0, program(20, 9)))).toBe(false);
  });

  it('reports the type and offsets', () => {
    expect(findCryptoWallets(`a ${ETH}`)).toEqual([{ type: 'crypto_wallet', start: 2, end: 44 }]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findCryptoWallets('1'.repeat(1 << 20))).toEqual([]);
    expect(findCryptoWallets(`bc1${'q'.repeat(1 << 20)}`)).toEqual([]);
    expect(findCryptoWallets('0x'.repeat(1 << 19))).toEqual([]);
    expect(findCryptoWallets(`${'1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA '.repeat(30_000)}`)).toEqual([]);
    expect(findCryptoWallets(`${BTC_P2PKH} `.repeat(25_000))).toHaveLength(25_000);
  });
});
