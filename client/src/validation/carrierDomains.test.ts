import { describe, expect, it } from 'vitest';
import { isMobileCarrierAddress, mobileCarrierDomains } from './carrierDomains';

describe('mobile-carrier addresses', () => {
  it.each(mobileCarrierDomains)('recognises @%s', (domain) => {
    expect(isMobileCarrierAddress(`hanako@${domain}`)).toBe(true);
  });

  it('recognises subdomains and any letter case', () => {
    expect(isMobileCarrierAddress('hanako@DoCoMo.ne.jp')).toBe(true);
    expect(isMobileCarrierAddress('hanako@x.pdx.ne.jp')).toBe(true);
    expect(isMobileCarrierAddress(' hanako@ezweb.ne.jp ')).toBe(true);
  });

  it('does not flag other domains that merely end alike, or unfinished input', () => {
    expect(isMobileCarrierAddress('hanako@example.com')).toBe(false);
    expect(isMobileCarrierAddress('hanako@notdocomo.ne.jp')).toBe(false);
    expect(isMobileCarrierAddress('hanako@gmail.com')).toBe(false);
    expect(isMobileCarrierAddress('docomo.ne.jp')).toBe(false);
    expect(isMobileCarrierAddress('hanako@')).toBe(false);
  });
});
