"""Security headers on every HTTP response of the app (API, files, assets, the SPA shell).

The Content-Security-Policy allows only what the built client uses (client/index.html and
the Vite build in client/dist): its own scripts and stylesheets (no inline script or style
element), same-origin fetches and the Socket.IO websocket (CSP 3: 'self' covers ws/wss of
the same host). The Stripe Checkout step is a top-level navigation, which CSP does not
restrict. No page of ours may be framed. See docs/protocol.md, "Transport limits".

One exception to "no inline style element": react-aria-components (the questionnaire's combo
box) prepend two fixed <style> elements of their own (a touch-action rule for pressable
elements; an overscroll rule while an overlay is open on iOS). The policy allows exactly
those two texts by their SHA-256, nothing else inline; tests/test_security_headers.py
recomputes them from the installed react-aria, so an upgrade that changes them fails there.
"""

from starlette.types import ASGIApp, Message, Receive, Scope, Send

# The <style> texts react-aria injects (react-aria/dist/private/interactions/usePress.mjs,
# overlays/usePreventScroll.mjs), by the base64 SHA-256 that CSP compares.
REACT_ARIA_STYLE_HASHES = (
    "sha256-38RhXrc7EdReTKsOm23ZPOCUgniTUUcjky8QOOrQx6o=",
    "sha256-gYiS/BvZvRcK27JIXTuwhZ3hs2+VJ1X+2gUlE+farlg=",
)
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self' " + " ".join(f"'{h}'" for h in REACT_ARIA_STYLE_HASHES),
        "img-src 'self'",
        "font-src 'self'",
        "connect-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
HSTS = "max-age=31536000"


def security_headers(https: bool) -> list[tuple[bytes, bytes]]:
    headers = [
        (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
        (b"x-frame-options", b"DENY"),
        (b"x-content-type-options", b"nosniff"),
        (b"referrer-policy", b"same-origin"),
    ]
    if https:  # HSTS only means something (and is only honoured) over https
        headers.append((b"strict-transport-security", HSTS.encode()))
    return headers


class SecurityHeaders:
    """ASGI middleware adding `security_headers` to each response that lacks them."""

    def __init__(self, app: ASGIApp, *, https: bool) -> None:
        self.app = app
        self.headers = security_headers(https)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                present = {name.lower() for name, _ in message.get("headers", [])}
                extra = [(name, value) for name, value in self.headers if name not in present]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)
