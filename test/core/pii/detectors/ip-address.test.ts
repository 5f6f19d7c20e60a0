import { describe, expect, it } from 'vitest';
import { findIpAddresses, isIpv6 } from '../../../../src/core/pii/detectors/ip-address.js';
import { matchedTexts } from '../helpers.js';

describe('ip address detector', () => {
  it.each([
    ['client 203.0.113.7 connected', ['203.0.113.7']],
    [
      'loopback 127.0.0.1 and private 10.0.0.1, 192.168.1.254 are masked too',
      ['127.0.0.1', '10.0.0.1', '192.168.1.254'],
    ],
    ['edges 0.0.0.0 and 255.255.255.255', ['0.0.0.0', '255.255.255.255']],
    ['with port 198.51.100.23:8080 and CIDR 10.1.0.0/16', ['198.51.100.23', '10.1.0.0']],
    ['sentence end 8.8.8.8.', ['8.8.8.8']],
    ['"ip":"172.16.5.4"', ['172.16.5.4']],
    ['v6 full 2001:0db8:85a3:0000:0000:8a2e:0370:7334', ['2001:0db8:85a3:0000:0000:8a2e:0370:7334']],
    ['v6 compressed 2001:db8::1 here', ['2001:db8::1']],
    ['v6 loopback ::1', ['::1']],
    ['v6 in URL http://[2001:db8::42]:443/', ['2001:db8::42']],
    ['link-local with zone fe80::1%eth0 up', ['fe80::1%eth0']],
    // The embedded IPv4 is reported too; findPii merges the overlap into one region.
    ['IPv4-mapped ::ffff:192.0.2.128', ['::ffff:192.0.2.128', '192.0.2.128']],
    ['trailing group 2001:db8:0:0:0:0:2:1.', ['2001:db8:0:0:0:0:2:1']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findIpAddresses, text)).toEqual(expected);
  });

  it.each([
    ['version 1.2.3', 'three-part version'],
    ['1.2.3.4.5', 'part of a longer dotted number'],
    ['v1.2.3.4', 'glued to a letter: version tag'],
    ['256.1.1.1 and 1.2.3.256', 'octet out of range'],
    ['01.02.03.04', 'leading zeros: not how addresses are written'],
    ['at 12:30:45 today', 'time of day'],
    ['2024-06-10T12:30:45.123Z', 'ISO timestamp'],
    ['mac 00:1A:2B:3C:4D:5E', 'MAC address: six groups'],
    ['std::vector<int> and Foo::bar()', 'C++/Rust paths'],
    ['Cafe::Bad', 'all-letter hex around :: is code, not an address'],
    ['x :: Int', 'Haskell type annotation'],
    ['1:2:3:4:5:6:7:8:9', 'nine groups'],
    ['2001:db8::1::2', 'two :: in one address'],
    ['fingerprint 16:27:ac:a5:76:28:2d:36:63:1b:56:4d:eb:df:a6:48', 'key fingerprint: sixteen groups'],
    ['uuid 123e4567-e89b-12d3-a456-426614174000', 'UUID'],
  ])('ignores %j (%s)', (text) => {
    expect(findIpAddresses(text)).toEqual([]);
  });

  it('validates IPv6 group counts', () => {
    expect(isIpv6('1:2:3:4:5:6:7:8')).toBe(true);
    expect(isIpv6('1:2:3:4:5:6:7')).toBe(false);
    expect(isIpv6('1::2:3:4:5:6:7')).toBe(true);
    expect(isIpv6('1::2:3:4:5:6:7:8')).toBe(false);
    expect(isIpv6('::ffff:1.2.3.4')).toBe(true);
    expect(isIpv6('1:2:3:4:5:6:1.2.3.4')).toBe(true);
    expect(isIpv6('1.2.3.4::1')).toBe(false);
  });
});
