/**
 * Swipe navigation between months (docs/product.md "Constants and limits"): a touch that lasts at most 300 ms and
 * moves at least 60 px sideways and at most 80 px up or down. Pure.
 */

/** The limits of one gesture, kept as one value: ms at most, px sideways at least, px up or down at most. */
export const SWIPE = { maxMs: 300, minX: 60, maxY: 80 } as const;

export interface TouchPoint {
  x: number;
  y: number;
  /** ms (event timeStamp) */
  t: number;
}

/**
 * 'next' for a swipe to the left (the next month comes in from the right), 'previous' for a
 * swipe to the right, null for anything else.
 */
export function swipeDirection(start: TouchPoint, end: TouchPoint): 'next' | 'previous' | null {
  const dx = end.x - start.x;
  const dy = end.y - start.y;
  if (end.t - start.t > SWIPE.maxMs) return null;
  if (Math.abs(dx) < SWIPE.minX || Math.abs(dy) > SWIPE.maxY) return null;
  return dx < 0 ? 'next' : 'previous';
}
