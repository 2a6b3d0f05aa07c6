/**
 * Japanese mobile-carrier mail domains. Their mailboxes often refuse mail from unknown senders,
 * so the login screen warns (docs/product.md "Messages people see") and points to the FAQ. The one list of the client.
 */
import { emailDomain } from './email';

export const mobileCarrierDomains: readonly string[] = [
  'docomo.ne.jp',
  'ezweb.ne.jp',
  'au.com',
  'softbank.ne.jp',
  'i.softbank.jp',
  'ymobile.ne.jp',
  'y-mobile.ne.jp',
  'disney.ne.jp',
  'emobile.ne.jp',
  'willcom.com',
  'pdx.ne.jp',
  'uqmobile.jp',
  'rakuten.jp',
];

/** True for an address at a carrier domain or one of its subdomains (e.g. x.pdx.ne.jp). */
export function isMobileCarrierAddress(value: string): boolean {
  const domain = emailDomain(value);
  if (domain === '') return false;
  return mobileCarrierDomains.some((carrier) => domain === carrier || domain.endsWith(`.${carrier}`));
}
