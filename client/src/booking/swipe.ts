/**
 * Swipe navigation between months (docs/product.md "Constants and limits"): a touch that lasts at most 300 ms and
 * moves at least 60 px sideways and at most 80 px up or down. Pure.
 */
export const SWIPE_MAX_MS = 300;
export const SWIPE_MIN_X = 60;
export const SWIPE_MAX_Y = 80;

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
  if (end.t - start.t > SWIPE_MAX_MS) return null;
  if (Math.abs(dx) < SWIPE_MIN_X || Math.abs(dy) > SWIPE_MAX_Y) return null;
  return dx < 0 ? 'next' : 'previous';
}
