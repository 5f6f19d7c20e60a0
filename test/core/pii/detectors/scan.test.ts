import { describe, expect, it } from 'vitest';
import { windowBefore } from '../../../../src/core/pii/detectors/scan.js';

describe('windowBefore', () => {
  it('returns the characters before a position, one more than the window for a lookbehind', () => {
    expect(windowBefore('call me at 415', 11, 5)).toBe('me at ');
    expect(windowBefore('ab 415', 3, 30)).toBe('ab ');
  });

  it('drops a word the window cuts, so its tail never reads as a word of its own', () => {
    // `hotel` cut to `tel`, `Arvid_` cut to `id_`.
    expect(windowBefore('the hotel 4155552671', 10, 4)).toBe(' ');
    expect(windowBefore('Arvid_x 494 71 6028', 8, 5)).toBe('_x ');
  });
});
