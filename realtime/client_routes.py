"""Whether a path is one of the client's routes (contract.json "clientRoutes"), so the server
can answer an unknown path with a 404 while still sending the client, which shows its
not-found page."""

from realtime.contract import CLIENT_ROUTES


def _segments(path: str) -> list[str]:
    # "/b/" is "/b": react-router ignores one trailing slash.
    return [segment for segment in path.strip("/").split("/") if segment != ""] if path else []


def _matches(pattern: tuple[str, ...], segments: list[str]) -> bool:
    if len(pattern) != len(segments):
        return False
    return all(
        want.startswith(":") or want == got for want, got in zip(pattern, segments, strict=True)
    )


_PATTERNS: tuple[tuple[str, ...], ...] = tuple(tuple(_segments(route)) for route in CLIENT_ROUTES)


def is_client_route(path: str) -> bool:
    """True for "/", "/c/demo-clinic", "/b/review/", False for "/b/nope" or "/c/a/b"."""
    if "//" in path:
        return False
    segments = _segments(path)
    return any(_matches(pattern, segments) for pattern in _PATTERNS)
