import { describe, expect, it } from 'vitest';
import { getToken, setToken, TOKEN_STORAGE_KEY } from './token';

describe('bearer token', () => {
  it('starts from a token a test left in sessionStorage, and keeps a new one in memory only', () => {
    sessionStorage.setItem(TOKEN_STORAGE_KEY, 'from-dev-token');
    expect(getToken()).toBe('from-dev-token');
    setToken('from-link');
    expect(getToken()).toBe('from-link');
    expect(sessionStorage.getItem(TOKEN_STORAGE_KEY)).toBeNull();
    setToken(null);
    expect(getToken()).toBeNull();
  });
});
