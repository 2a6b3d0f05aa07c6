"""What a clinic_admin may set as the clinic's identity provider (`identityProvider-update`,
docs/protocol.md "Identity provider"), and the refusal of anything else.

Every field is bounded and one line, so nothing typed here can grow a row, forge a log line
or a header. The client id, the secret and the `acr` values are visible ASCII (what every
provider issues: GUIDs, `....apps.googleusercontent.com`, random strings, URIs), which also
bounds the sealed secret's size. The issuer follows the rule of the OIDC_PROVIDERS setting
(realtime/production.py: https:// in production) and is then asked for its discovery
document (`check_issuer`) before anything is saved.

A refusal names each field at fault in `details.fields` (English, for logs and scripts) and
`details.codes` (one of contract.json `identityProviderProblems`, which the client words in
the user's language).
"""

import asyncio
import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from realtime.contract import IDENTITY_PROVIDER_PROBLEMS
from realtime.errors import FunctionError
from realtime.oidc.discovery import Directory, IssuerMismatch, ProviderUnavailable
from realtime.production import issuer_allowed
from realtime.text import is_control

NAME_LENGTH = 80
ISSUER_LENGTH = 500
CLIENT_ID_LENGTH = 255
SECRET_LENGTH = 500
ACR_LENGTH = 200
ACR_COUNT = 10

MESSAGES: dict[str, str] = {
    "required": "This field is required.",
    "tooLong": "This is too long.",
    "characters": "This holds characters that are not allowed here.",
    "url": "Enter the issuer as a web address (https://...), without a query or fragment.",
    "https": "The issuer must be an https:// address.",
    "private": "The issuer must be a public address.",
    "unreachable": "The provider's discovery document could not be fetched from this issuer.",
    "issuerMismatch": "The provider's discovery document names another issuer.",
    "tooMany": f"At most {ACR_COUNT} values.",
}
assert set(MESSAGES) == set(IDENTITY_PROVIDER_PROBLEMS)  # one list: realtime/contract.json


@dataclass(frozen=True)
class Keep:
    """The secret as stored (the field was absent)."""


@dataclass(frozen=True)
class Settled:
    """What the edit sets: every field checked and trimmed. `secret`: Keep, None (a public
    client, PKCE alone), or the new secret."""

    name: str
    issuer: str
    client_id: str
    secret: Keep | str | None
    mfa_acr: list[str]
    enabled: bool


def refused(problems: dict[str, str]) -> FunctionError:
    """INVALID_ARGUMENT naming each field at fault with its problem's code."""
    fields = {field: MESSAGES[code] for field, code in problems.items()}
    return FunctionError(
        "INVALID_ARGUMENT",
        next(iter(fields.values())),
        {"fields": fields, "codes": dict(problems)},
    )


def _one_line(value: str, limit: int) -> str | None:
    """The problem of a trimmed one-line text field, if any."""
    if not value:
        return "required"
    if len(value) > limit:
        return "tooLong"
    if any(is_control(c) for c in value):
        return "characters"
    return None


def _visible_ascii(value: str, limit: int) -> str | None:
    if not value:
        return "required"
    if len(value) > limit:
        return "tooLong"
    if not all("!" <= c <= "~" for c in value):
        return "characters"
    return None


def _issuer(value: str, *, production: bool) -> str | None:
    problem = _visible_ascii(value, ISSUER_LENGTH)
    if problem is not None:
        return problem
    try:
        parts = urlsplit(value)
        host, _ = parts.hostname, parts.port  # a bad port or IPv6 literal raises here
    except ValueError:
        return "url"
    if parts.scheme not in ("http", "https") or not host or parts.query or parts.fragment:
        return "url"
    if parts.username is not None or parts.password is not None:
        return "url"
    if not issuer_allowed(value, production=production):
        return "https"
    return None


def _acr_values(values: list[str]) -> str | None:
    if len(values) > ACR_COUNT:
        return "tooMany"
    for value in values:
        problem = _visible_ascii(value.strip(), ACR_LENGTH)
        if problem is not None:
            return problem
    return None


def settled(
    *,
    name: str,
    issuer: str,
    client_id: str,
    secret: Keep | str | None,
    mfa_acr: list[str],
    enabled: bool,
    production: bool,
) -> Settled:
    """The edit as it will be saved, or the refusal naming every field at fault."""
    name, issuer, client_id = name.strip(), issuer.strip(), client_id.strip()
    checks = {
        "name": _one_line(name, NAME_LENGTH),
        "issuer": _issuer(issuer, production=production),
        "clientId": _visible_ascii(client_id, CLIENT_ID_LENGTH),
        "clientSecret": _visible_ascii(secret, SECRET_LENGTH) if isinstance(secret, str) else None,
        "mfaAcr": _acr_values(mfa_acr),
    }
    problems = {field: code for field, code in checks.items() if code is not None}
    if problems:
        raise refused(problems)
    acr = list(dict.fromkeys(value.strip() for value in mfa_acr))
    return Settled(name, issuer, client_id, secret, acr, enabled)


async def addresses_of(host: str) -> list[str]:
    """Every address `host` resolves to (an IP literal: itself); none when it does not."""
    try:
        found = await asyncio.get_running_loop().getaddrinfo(host, None, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        return []
    return [str(info[4][0]) for info in found]


async def refuse_private_issuer(issuer: str) -> None:
    """In production an issuer typed in the workspace must resolve to public addresses only:
    the server fetches it, so an administrator could otherwise make it reach what only the
    server can (its loopback, the cloud's metadata address, the clinic's private network).
    An operator who runs the provider on a private network sets it in OIDC_PROVIDERS, or
    OIDC_PRIVATE_ISSUERS. (A name that resolves elsewhere later is not caught here.)"""
    host = urlsplit(issuer).hostname or ""
    addresses = await addresses_of(host)
    if not addresses:
        raise refused({"issuer": "unreachable"})
    if not all(ipaddress.ip_address(a.split("%", 1)[0]).is_global for a in addresses):
        raise refused({"issuer": "private"})


async def check_issuer(directory: Directory, issuer: str) -> None:
    """The issuer answers its discovery document, naming itself: else the refusal of
    `issuer` (`unreachable`, or `issuerMismatch` when the document names another one, a
    trailing slash's difference included, as sign-in would refuse it)."""
    try:
        await directory.discover(issuer)
    except IssuerMismatch as exc:
        raise refused({"issuer": "issuerMismatch"}) from exc
    except ProviderUnavailable as exc:
        raise refused({"issuer": "unreachable"}) from exc
