import { describe, expect, it } from 'vitest';
import { swipeDirection } from './swipe';

const at = (x: number, y: number, t: number) => ({ x, y, t });

describe('swipe between months', () => {
  it('needs at most 300 ms, at least 60 px sideways and at most 80 px up or down', () => {
    expect(swipeDirection(at(200, 100, 0), at(140, 100, 300))).toBe('next');
    expect(swipeDirection(at(100, 100, 0), at(160, 180, 200))).toBe('previous');
    expect(swipeDirection(at(200, 100, 0), at(140, 100, 301))).toBeNull(); // too slow
    expect(swipeDirection(at(200, 100, 0), at(141, 100, 100))).toBeNull(); // too short
    expect(swipeDirection(at(200, 100, 0), at(100, 181, 100))).toBeNull(); // too steep
  });
});
