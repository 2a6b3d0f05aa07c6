import { describe, expect, it } from 'vitest';
import { parseQrSvg } from './qrDrawing';

const GOOD =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 33 33"><path fill="#fff" d="M0 0h33v33h-33z"/><path stroke="#000" d="M4 4.5h7m1 0h2"/></svg>';

describe('parseQrSvg: only a QR drawing is drawn', () => {
  it("reads the server's drawing: its viewBox and its paths", () => {
    expect(parseQrSvg(GOOD)).toEqual({
      viewBox: '0 0 33 33',
      paths: [
        { d: 'M0 0h33v33h-33z', fill: '#fff', stroke: null },
        { d: 'M4 4.5h7m1 0h2', fill: null, stroke: '#000' },
      ],
    });
  });

  it('refuses anything else: scripts, other elements, transforms, odd colours or path data, no viewBox', () => {
    const bad = [
      null,
      42,
      '',
      'not svg at all',
      GOOD.replace('</svg>', '<script>alert(1)</script></svg>'),
      GOOD.replace('</svg>', '<image href="https://evil.example/x.png"/></svg>'),
      GOOD.replace('<path stroke', '<path transform="scale(9)" stroke'),
      GOOD.replace('stroke="#000"', 'stroke="url(https://evil.example/#x)"'),
      GOOD.replace('M4 4.5h7m1 0h2', 'M4 4.5 C 1 2 3 4 5 6'),
      GOOD.replace(' viewBox="0 0 33 33"', ' width="33" height="33"'),
      GOOD.replace('</svg>', ''),
      '<div xmlns="http://www.w3.org/1999/xhtml">x</div>',
      GOOD.replace(/<path[^>]*\/>/g, ''),
    ];
    for (const value of bad) expect(parseQrSvg(value)).toBeNull();
  });
});
