import { describe, expect, it } from 'vitest';
import { contract } from '../contract';
import { refusalKeys, staffSignInError } from './IdentityProviderSignIn';

describe('staff sign-in refusals', () => {
  it('words every refusal the server may send, and only those', () => {
    expect(Object.keys(refusalKeys).sort()).toEqual([...contract.staffSignInErrors].sort());
  });

  it('reads a known reason from the query and ignores anything else', () => {
    expect(staffSignInError(new URLSearchParams('staffSignIn=token'))).toBe('token');
    expect(staffSignInError(new URLSearchParams('staffSignIn=constructor'))).toBeNull();
    expect(staffSignInError(new URLSearchParams(''))).toBeNull();
  });
});
