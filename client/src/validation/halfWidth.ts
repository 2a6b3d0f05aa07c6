/**
 * Full-width forms of the ASCII characters (U+FF01-U+FF5E) and the ideographic space (U+3000),
 * as a Japanese keyboard types them, as their ASCII selves: "１０２９３８" is the patient ID
 * 102938. Katakana and every other Japanese character are left alone (unlike NFKC, which would
 * also widen half-width katakana). The server applies the same rule (realtime/text.py
 * `half_width`) before validating and saving a typed value.
 */
const FULL_WIDTH = /[\uFF01-\uFF5E\u3000]/g;

export function toHalfWidth(text: string): string {
  return text.replace(FULL_WIDTH, (ch) => (ch === '\u3000' ? ' ' : String.fromCharCode(ch.charCodeAt(0) - 0xfee0)));
}
