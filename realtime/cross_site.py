"""Requests that a foreign page could make a browser send with our session cookie.

SameSite=Lax still lets a cross-site page POST a form or a `text/plain` fetch with the
cookie in some browsers and setups, so a cookie-authenticated (not bearer) request that
changes something must be one a foreign page cannot forge without CORS, which we never
grant: a body only as `application/json`, and an `Origin`, when sent, that is ours
(docs/protocol.md, "Sign-in by e-mail link").

A clinic document's upload is `multipart/form-data`, which a foreign page's form can send too;
a cookie request may carry it only with an `Origin` that is ours (browsers send one with every
POST, so its absence is not our client).
"""

from collections.abc import Mapping, Sequence

from realtime.errors import FunctionError

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
JSON_MEDIA_TYPE = "application/json"
FORM_MEDIA_TYPE = "multipart/form-data"
CROSS_SITE_MESSAGE = "This request was not sent by this site."


def _has_body(headers: Mapping[str, str]) -> bool:
    length = headers.get("content-length")
    return "transfer-encoding" in headers or (length is not None and length.strip() != "0")


def refuse_cross_site(
    method: str,
    headers: Mapping[str, str],
    allowed_origins: Sequence[str],
    *,
    untyped_body: bool = False,
    form_upload: bool = False,
) -> None:
    """PERMISSION_DENIED unless a cookie-authenticated request is plainly our client's.

    `untyped_body` lets a body without a Content-Type pass (scripts posting raw JSON to
    /auth/confirm): a browser sends such a body cross-site only with its `Origin`.
    `form_upload` lets a `multipart/form-data` body pass when its `Origin` is ours.
    """
    if method.upper() in SAFE_METHODS:
        return
    content_type = headers.get("content-type")
    media_type = content_type.split(";", 1)[0].strip().lower() if content_type else None
    origin = headers.get("origin")
    if form_upload and media_type == FORM_MEDIA_TYPE:
        if origin is None or origin not in allowed_origins:
            raise FunctionError("PERMISSION_DENIED", CROSS_SITE_MESSAGE)
        return
    typed = media_type is not None or (_has_body(headers) and not untyped_body)
    if typed and media_type != JSON_MEDIA_TYPE:
        raise FunctionError("PERMISSION_DENIED", CROSS_SITE_MESSAGE)
    if origin is not None and origin not in allowed_origins:
        raise FunctionError("PERMISSION_DENIED", CROSS_SITE_MESSAGE)
