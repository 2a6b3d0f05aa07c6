/**
 * The enrolment's QR code, drawn from `auth-totpEnroll`'s `qrSvg` (an SVG made by the server's
 * QR library, docs/protocol.md "Staff sign-in and roles"). The text is never put into the page
 * as markup: only its viewBox and its paths' data and colours are read, each checked against
 * what a QR drawing can hold, and the screen draws its own `<svg>` from them (the page's
 * Content-Security-Policy allows no `data:` images either).
 */

export interface QrPath {
  d: string;
  fill: string | null;
  stroke: string | null;
}

export interface QrDrawing {
  viewBox: string;
  paths: QrPath[];
}

/** Far above a version-40 code's drawing: anything larger is not one. */
const MAX_SVG_LENGTH = 200_000;
const VIEW_BOX = /^0 0 \d{1,4}(\.\d+)? \d{1,4}(\.\d+)?$/;
/** Moves, lines and close-path commands with plain numbers: what a grid of modules needs. */
const PATH_DATA = /^[MmHhVvLlZz0-9 .,-]{1,150000}$/;
const COLOUR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;
const IGNORED = new Set(['title', 'desc']);

function colour(value: string | null): string | null | undefined {
  if (value === null) return null;
  return COLOUR.test(value) ? value : undefined;
}

/** The drawing of a QR code's SVG text, or null for anything else. */
export function parseQrSvg(svg: unknown): QrDrawing | null {
  if (typeof svg !== 'string' || svg.length === 0 || svg.length > MAX_SVG_LENGTH) return null;
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const root = document.documentElement;
  if (root.localName !== 'svg' || document.getElementsByTagName('parsererror').length > 0) return null;
  const viewBox = root.getAttribute('viewBox');
  if (viewBox === null || !VIEW_BOX.test(viewBox)) return null;
  const paths: QrPath[] = [];
  for (const element of Array.from(root.children)) {
    if (IGNORED.has(element.localName)) continue;
    if (element.localName !== 'path') return null;
    const d = element.getAttribute('d');
    const fill = colour(element.getAttribute('fill'));
    const stroke = colour(element.getAttribute('stroke'));
    if (d === null || !PATH_DATA.test(d) || fill === undefined || stroke === undefined) return null;
    if (element.hasAttribute('transform')) return null;
    paths.push({ d, fill, stroke });
  }
  return paths.length === 0 ? null : { viewBox, paths };
}
