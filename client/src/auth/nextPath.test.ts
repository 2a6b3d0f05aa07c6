import { describe, expect, it } from 'vitest';
import { isClientPath, safeNextPath } from './nextPath';
import { nextPathAfterSignIn } from './RequireAuth';

describe('safeNextPath', () => {
  it('keeps a path of this app with its query', () => {
    expect(safeNextPath('/b/booking?id=a1&action=cancel')).toBe('/b/booking?id=a1&action=cancel');
    expect(safeNextPath('/b/review')).toBe('/b/review');
    expect(safeNextPath('/staff/appointments/a1')).toBe('/staff/appointments/a1');
  });

  it('refuses other sites and paths the app does not route', () => {
    for (const value of [
      'https://evil.example/b/booking',
      '//evil.example/b/booking',
      '/\\evil.example',
      'javascript:alert(1)',
      'b/booking',
      '/no-such-screen',
      '/b/booking/extra',
      '',
      null,
      undefined,
    ]) {
      expect(safeNextPath(value)).toBeNull();
    }
  });

  it('matches route parameters one segment each', () => {
    expect(isClientPath('/c/demo-clinic')).toBe(true);
    expect(isClientPath('/c')).toBe(false);
  });
});

describe('nextPathAfterSignIn', () => {
  it('prefers ?next=, then the path remembered on this device, then the fallback', () => {
    const remembered = '/b/booking?id=a1&action=cancel';
    expect(nextPathAfterSignIn(new URLSearchParams({ next: '/b/review' }), undefined, remembered)).toBe('/b/review');
    expect(nextPathAfterSignIn(new URLSearchParams(), undefined, remembered)).toBe(remembered);
    expect(nextPathAfterSignIn(new URLSearchParams({ next: '//evil.example' }), undefined, 'https://evil.example')).toBe('/b/clinic');
  });
});
