import { describe, expect, it } from 'vitest';
import { findIpAddresses, isIpv6 } from '../../../../src/core/pii/detectors/ip-address.js';
import { matchedTexts } from '../helpers.js';

const IP_HINT = new Set(['ip_address']);

describe('ip address detector', () => {
  it.each([
    ['client 203.0.113.7 connected', ['203.0.113.7']],
    ['private 10.0.0.1, 192.168.1.254 are masked too', ['10.0.0.1', '192.168.1.254']],
    ['with port 198.51.100.23:8080 and CIDR 10.1.0.0/16', ['198.51.100.23', '10.1.0.0']],
    ['sentence end: nameserver 8.8.8.8.', ['8.8.8.8']],
    ['"ip":"172.16.5.4"', ['172.16.5.4']],
    ['v6 full 2001:0db8:85a3:0000:0000:8a2e:0370:7334', ['2001:0db8:85a3:0000:0000:8a2e:0370:7334']],
    ['v6 compressed 2001:db8::1 here', ['2001:db8::1']],
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
    ['loopback 127.0.0.1 and 127.0.1.1', 'loopback identifies nobody'],
    ['edges 0.0.0.0 and 255.255.255.255', 'unspecified and broadcast identify nobody'],
    ['v6 loopback ::1 and ::1%lo0', 'IPv6 loopback identifies nobody'],
    ['spelled out 0:0:0:0:0:0:0:1 and 0:0:0:0:0:0:0:0', 'IPv6 loopback and unspecified'],
    ['listening on 0.0.0.0:8080 and 127.0.0.1:5432', 'non-identifying even with context'],
    ['inet addr netmask 255.255.255.0 and mask 255.255.0.0, 255.255.255.252', 'netmasks identify nobody'],
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

describe('ip address detector: four-part versions', () => {
  it('in a version position, an address-like middle still makes an address', () => {
    expect(matchedTexts(findIpAddresses, 'build 203.0.113.9 failed')).toEqual(['203.0.113.9']);
    expect(matchedTexts(findIpAddresses, 'firmware 192.168.3.4 installed')).toEqual(['192.168.3.4']);
    expect(findIpAddresses('build 22.04.3.1 failed')).toEqual([]);
    // A product token's number is a version whatever its shape (bench:pii, a user agent).
    expect(findIpAddresses('User-Agent: Mozilla/5.0 Chrome/96.0.41.43 Safari/537.36')).toEqual([]);
    // fast-check (pii.property): an address after the word `build`.
    expect(matchedTexts(findIpAddresses, 'build 162.19.25.190')).toEqual(['162.19.25.190']);
  });

  it.each([
    ['version 1.2.3.4', 'version word'],
    ['upgraded to 10.2.3.4 today', 'upgrade: first octet 10, but a version position'],
    ['firmware 1.3.4.200 installed', 'firmware: a version position, small middle parts'],
    ['release 2.10.4.200', 'release word'],
    ['Chrome/120.0.0.0 Safari/537.36', 'user-agent product token'],
    ['numpy==1.2.3.4 and pkg>=4.0.0.0', 'version specifiers'],
    ['~1.2.3.4 and ^1.2.3.4', 'version ranges'],
    ['libfoo-1.2.3.4.tar.gz', "a package name's dash"],
    ['1.2.3.4-beta and 2.0.0.1-rc and 3.1.0.0+build7', 'pre-release and build suffixes'],
    ['upgraded from 4.0.0.0 to 4.1.0.0', '"from" loses to a version word for a version-shaped number'],
    ['v 1.2.3.4', '"v" right before'],
    ['4.0.0.0', 'version-shaped: every octet below 32'],
    ['shipped 1.0.0.12 and 3.1.4.1', 'version-shaped'],
    ['| lodash | 4.17.21 | 4.17.20 | 1.2.3.45 |', 'version-shaped: a build number of any size last'],
  ])('ignores %j (%s)', (text) => {
    expect(findIpAddresses(text)).toEqual([]);
  });

  it.each([
    ['x 203.0.113.7 y', ['203.0.113.7']], // not version-shaped, not a version position
    ['10.0.0.1 -> 10.0.0.5', ['10.0.0.1', '10.0.0.5']], // 10/8 is never version-shaped
    ['host 1.2.3.4', ['1.2.3.4']], // IP word: version-shaped does not matter
    ['ip address: 4.0.0.0', ['4.0.0.0']],
    ['connected to 1.2.3.4', ['1.2.3.4']],
    ['request from 1.2.3.4', ['1.2.3.4']],
    ['ssh root@1.2.3.4', ['1.2.3.4']],
    ['http://1.2.3.4/x', ['1.2.3.4']],
    ['peer 1.2.3.4:9000', ['1.2.3.4']],
    ['1.2.3.4:8080', ['1.2.3.4']], // a port
    ['route 1.2.0.0/16', ['1.2.0.0']], // a CIDR
    ['server version 4.0.0.0', ['4.0.0.0']], // an IP word outweighs a version word
    ['package received from 10.0.0.5', ['10.0.0.5']], // "from" wins for a number no version looks like
    ['node 10.0.0.5 is NotReady', ['10.0.0.5']],
    ['curl -v 93.184.216.34', ['93.184.216.34']],
    ['x 1.2.40.45 y', ['1.2.40.45']], // a third octet of 32 or more: not version-shaped
    ['host 255.255.0.255', ['255.255.0.255']], // not a netmask: ones and zeros interleave
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findIpAddresses, text)).toEqual(expected);
  });

  it('treats the ip_address key hint as context', () => {
    expect(matchedTexts((t) => findIpAddresses(t, IP_HINT), '1.2.3.4')).toEqual(['1.2.3.4']);
    expect(matchedTexts((t) => findIpAddresses(t, IP_HINT), 'version 4.0.0.0')).toEqual(['4.0.0.0']);
    expect(findIpAddresses('1.2.3.4', new Set(['phone']))).toEqual([]);
    expect(findIpAddresses('127.0.0.1', IP_HINT)).toEqual([]);
  });
});
