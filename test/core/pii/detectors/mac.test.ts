import { describe, expect, it } from 'vitest';
import { findMacAddresses } from '../../../../src/core/pii/detectors/mac.js';
import { matchedTexts } from '../helpers.js';

describe('mac detector', () => {
  it.each([
    ['MAC 00:1A:2B:3C:4D:5E', ['00:1A:2B:3C:4D:5E']],
    ['ether 00-1a-2b-3c-4d-5e up', ['00-1a-2b-3c-4d-5e']],
    ['Cisco 001a.2b3c.4d5e.', ['001a.2b3c.4d5e']],
    ['hwaddr:00:1a:2b:3c:4d:5e', ['00:1a:2b:3c:4d:5e']],
    ['mac-0a-1b-2c-3d-4e-5f', ['0a-1b-2c-3d-4e-5f']],
    ['"mac":"a4:83:e7:12:34:56"', ['a4:83:e7:12:34:56']],
    ['link/ether 02:42:ac:11:00:02 brd ff:ff:ff:ff:ff:ff', ['02:42:ac:11:00:02']],
    ['seen 00:1A:2B:3C:4D:5E: then 10:20:30:40:50:60.', ['00:1A:2B:3C:4D:5E', '10:20:30:40:50:60']],
    ['(0050.5600.0001)', ['0050.5600.0001']],
  ])('finds %j', (text, expected) => {
    expect(matchedTexts(findMacAddresses, text)).toEqual(expected);
  });

  it.each([
    ['fe80::1a:2b:3c:4d:5e:6f', 'IPv6 after ::'],
    ['2001:db8:1a:2b:3c:4d:5e:6f', 'IPv6 with eight groups'],
    ['1a:2b:3c:4d:5e:6f::1', 'IPv6 before ::'],
    ['SHA256 ab:cd:ef:01:23:45:67:89:ab:cd:ef:01', 'colon-separated fingerprint'],
    ['00:1a:2b:3c:4d:5e:6f', 'seven pairs'],
    ['1234.5678.9abc.def0', 'four dotted quads'],
    ['1.001a.2b3c.4d5e', 'dotted run continues before'],
    ['00:00:00:00:00:00', 'all-zero placeholder'],
    ['ff:ff:ff:ff:ff:ff and FF-FF-FF-FF-FF-FF', 'broadcast'],
    ['x00:1a:2b:3c:4d:5e', 'glued to a letter before'],
    ['00:1a:2b:3c:4d:5eg', 'glued to a letter after'],
    ['00:1a:2b:3c:4d:5e6', 'glued to a digit after'],
    ['00:1a-2b:3c:4d:5e', 'mixed separators'],
    ['00:1a:2b:3c:4d', 'five pairs'],
    ['at 12:30:45 and 2024-06-10T12:30:45Z', 'times and timestamps'],
    ['src/index.ts:12:34 and localhost:8080', 'line:col and ports'],
    ['color: #1a2b3c; background: #aabbcc', 'hex colours'],
    ['123e4567-e89b-12d3-a456-426614174000', 'UUID'],
    ['commit 3f786850e387550fdab836ed7e6dc881de23001b', 'git SHA'],
    ['v1.2.3.4 and 10.0.0.1', 'versions and IPv4'],
  ])('ignores %j (%s)', (text) => {
    expect(findMacAddresses(text)).toEqual([]);
  });

  it('reports the type and offsets', () => {
    expect(findMacAddresses('m 00:1a:2b:3c:4d:5e')).toEqual([{ type: 'mac', start: 2, end: 19 }]);
  });

  it('stays linear on a 1 MB adversarial input', () => {
    expect(findMacAddresses('0a:'.repeat(350_000))).toEqual([]);
    expect(findMacAddresses('0a-1b.'.repeat(175_000))).toEqual([]);
    expect(findMacAddresses('ab'.repeat(500_000))).toEqual([]);
    const many = '0a:1b:2c:3d:4e:5f '.repeat(58_000);
    expect(findMacAddresses(many)).toHaveLength(58_000);
  });
});
