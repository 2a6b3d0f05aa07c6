"""A provider's metadata (`{issuer}/.well-known/openid-configuration`) and signing keys (its
`jwks_uri`), fetched over HTTP and cached by this node.

- Metadata is kept METADATA_SECONDS; its `issuer` must be exactly the configured one
  (OpenID Connect Discovery 1.0, section 4.3), or nothing from it is used.
- Keys are kept KEYS_SECONDS. An ID token signed with a key id the cached set lacks (the
  provider rotated its keys) makes one fetch of the set again, at most once per
  `refetch_seconds` (OIDC_KEYS_REFETCH_SECONDS, 30) per provider: a stream of forged key ids
  cannot make us hammer it.
- `discover` fetches the metadata afresh, whatever is cached: what a clinic_admin's new
  issuer is checked with before it is saved (realtime/functions/identity_admin.py).
"""

import asyncio
import time
from dataclasses import dataclass
from typing import Any

import httpx2
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

METADATA_SECONDS = 3600.0
KEYS_SECONDS = 3600.0
WELL_KNOWN = "/.well-known/openid-configuration"


class ProviderUnavailable(Exception):
    """The provider could not be reached, or answered with something unusable (the message
    says which, for the log; it holds no secret)."""


class IssuerMismatch(ProviderUnavailable):
    """The discovery document answered, but names another issuer than the one asked for."""


@dataclass(frozen=True)
class Metadata:
    issuer: str
    authorization_endpoint: str
    token_endpoint: str
    jwks_uri: str
    offers_offline: bool  # `offline_access` among its scopes: refresh tokens on asking


@dataclass
class _Keys:
    keys: KeySet
    fetched: float


class Directory:
    """This node's cache of providers' metadata and keys (AppState.oidc)."""

    def __init__(self, timeout_seconds: float, refetch_seconds: float = 30.0) -> None:
        self.timeout_seconds = timeout_seconds
        self.refetch_seconds = refetch_seconds
        self._metadata: dict[str, tuple[float, Metadata]] = {}
        self._keys: dict[str, _Keys] = {}
        self._lock = asyncio.Lock()

    async def _get_json(self, url: str) -> dict[str, Any]:
        try:
            async with httpx2.AsyncClient(timeout=self.timeout_seconds) as http:
                reply = await http.get(url, headers={"Accept": "application/json"})
            reply.raise_for_status()
            body = reply.json()
        except (httpx2.HTTPError, httpx2.InvalidURL, ValueError) as exc:
            raise ProviderUnavailable(f"GET {url}: {type(exc).__name__}") from exc
        if not isinstance(body, dict):
            raise ProviderUnavailable(f"GET {url}: not a JSON object")
        return body

    async def metadata(self, issuer: str) -> Metadata:
        cached = self._metadata.get(issuer)
        if cached is not None and time.monotonic() - cached[0] < METADATA_SECONDS:
            return cached[1]
        return await self.discover(issuer)

    async def discover(self, issuer: str) -> Metadata:
        """The issuer's metadata fetched now (and kept), or why it cannot be used."""
        body = await self._get_json(issuer.rstrip("/") + WELL_KNOWN)
        if body.get("issuer") != issuer:
            raise IssuerMismatch(f"discovery of {issuer} names another issuer")
        fields = ("authorization_endpoint", "token_endpoint", "jwks_uri")
        if not all(isinstance(body.get(name), str) for name in fields):
            raise ProviderUnavailable(f"discovery of {issuer} lacks an endpoint")
        scopes = body.get("scopes_supported")
        offline = isinstance(scopes, list) and "offline_access" in scopes
        found = Metadata(
            issuer=issuer,
            authorization_endpoint=str(body["authorization_endpoint"]),
            token_endpoint=str(body["token_endpoint"]),
            jwks_uri=str(body["jwks_uri"]),
            offers_offline=offline,
        )
        self._metadata[issuer] = (time.monotonic(), found)
        return found

    async def keys(self, metadata: Metadata, kid: str | None) -> KeySet:
        """The provider's keys, fetched again when `kid` is not among them (rotation)."""
        async with self._lock:
            cached = self._keys.get(metadata.issuer)
            now = time.monotonic()
            fresh = cached is not None and now - cached.fetched < KEYS_SECONDS
            known = cached is not None and (kid is None or _has_kid(cached.keys, kid))
            if cached is not None and fresh and known:
                return cached.keys
            if cached is not None and now - cached.fetched < self.refetch_seconds:
                return cached.keys  # fetched a moment ago: an unknown kid is simply unknown
            body = await self._get_json(metadata.jwks_uri)
            try:
                keys = KeySet.import_key_set(body)  # type: ignore[arg-type]
            except (JoseError, ValueError, TypeError, KeyError) as exc:
                raise ProviderUnavailable(f"keys of {metadata.issuer} unreadable") from exc
            self._keys[metadata.issuer] = _Keys(keys, now)
            return keys


def _has_kid(keys: KeySet, kid: str) -> bool:
    return any(key.kid == kid for key in keys.keys)
