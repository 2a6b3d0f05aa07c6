/**
 * Phone numbers of people abroad, with the same library the server uses (libphonenumber: the
 * Python `phonenumbers` there, `libphonenumber-js` with its full metadata here), so that the
 * browser refuses exactly what the server would. Stored as E.164 ("+14155550134").
 */
import { isSupportedCountry, parsePhoneNumberWithError, type PhoneNumber } from 'libphonenumber-js/max';

function parse(text: string, region: unknown): PhoneNumber | null {
  const country = typeof region === 'string' && isSupportedCountry(region) ? region : undefined;
  try {
    return parsePhoneNumberWithError(text, country);
  } catch {
    return null;
  }
}

/**
 * The number as E.164, or null when it is not a valid number. `region` is the country (ISO
 * 3166-1 alpha-2) a number without "+" and a country code is read in. An extension is refused
 * (E.164 has no place for it), as on the server.
 */
export function phoneE164(text: string, region: unknown): string | null {
  const number = parse(text, region);
  if (number === null || number.ext !== undefined || !number.isValid()) return null;
  return number.number;
}

/** A stored E.164 number for reading ("+1 415 555 0134"); anything else as it is. */
export function readablePhone(stored: string): string {
  if (!stored.startsWith('+')) return stored;
  return parse(stored, undefined)?.formatInternational() ?? stored;
}
