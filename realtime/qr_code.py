"""A QR code as SVG text (the `segno` library), for the second factor's set-up address
(`auth-totpEnroll`'s `qrSvg`, docs/protocol.md "Staff sign-in and roles").

The drawing is plain and predictable on purpose: a viewBox and no fixed size (the page sizes
it), one light path for the background and quiet zone and one dark path of the modules, no
transform, no classes. The client draws its own `<svg>` from these paths after checking them
(client/src/staff/qrDrawing.ts), so that nothing of the text is ever inserted as markup.
"""

import io

import segno

# Medium error correction: the usual choice for codes shown on a screen.
ERROR_CORRECTION = "m"
QUIET_ZONE = 4  # modules of light border, as the QR specification asks
DARK = "#000"
LIGHT = "#fff"


def qr_svg(text: str) -> str:
    code = segno.make(text, error=ERROR_CORRECTION, micro=False)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        border=QUIET_ZONE,
        dark=DARK,
        light=LIGHT,
        omitsize=True,
        xmldecl=False,
        svgns=True,
        svgclass=None,
        lineclass=None,
        nl=False,
    )
    return out.getvalue().decode("utf-8")
