"""The provider's state: its signing key, users, codes and refresh tokens, in memory.

Built on joserfc (the JOSE library Authlib depends on) for the key and the ID tokens. What
it checks is what a real provider checks of the product: the client's id and secret, the
redirect URI, the PKCE verifier (S256 only), a code used once and soon; refresh tokens are
rotated and stop working once their user is removed (`invalid_grant`).
"""

import base64
import hashlib
import hmac
import secrets
import time
from dataclasses import dataclass, field
from typing import Any

from joserfc import jwt
from joserfc.jwk import KeySet, RSAKey

CODE_SECONDS = 60
ID_TOKEN_SECONDS = 300
ACCESS_TOKEN_SECONDS = 300


class GrantError(Exception):
    """A refusal of the token endpoint (RFC 6749, 5.2): `error` is its code."""

    def __init__(self, error: str, status: int = 400) -> None:
        super().__init__(error)
        self.error = error
        self.status = status


@dataclass
class User:
    sub: str
    email: str
    email_verified: bool = True
    amr: list[str] = field(default_factory=lambda: ["pwd"])
    acr: str | None = None


@dataclass
class Code:
    sub: str
    redirect_uri: str
    challenge: str
    nonce: str | None
    expires: float


def _new_key() -> RSAKey:
    return RSAKey.generate_key(
        2048, parameters={"kid": secrets.token_hex(8), "use": "sig", "alg": "RS256"}
    )


def s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


@dataclass
class Provider:
    issuer: str
    client_id: str
    client_secret: str
    key: RSAKey = field(default_factory=_new_key)
    users: dict[str, User] = field(default_factory=dict)
    codes: dict[str, Code] = field(default_factory=dict)
    refresh_tokens: dict[str, str] = field(default_factory=dict)  # token -> sub
    # Test controls: claims laid over the next ID token, or the last one sent again.
    next_claims: dict[str, Any] = field(default_factory=dict)
    replay_next: bool = False
    # The next ID token signed by a key this provider never publishes (a forgery).
    unpublished_next: bool = False
    last_id_token: str | None = None
    jwks_fetches: int = 0  # how often the keys were fetched (a relying party's refetches)

    def metadata(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": f"{self.issuer}/jwks",
            "response_types_supported": ["code"],
            "grant_types_supported": ["authorization_code", "refresh_token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "scopes_supported": ["openid", "email", "profile", "offline_access"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "claims_supported": ["sub", "iss", "aud", "exp", "iat", "nonce", "email", "amr", "acr"],
        }

    def jwks(self) -> dict[str, Any]:
        self.jwks_fetches += 1
        return dict(KeySet([self.key]).as_dict(private=False))

    def rotate_key(self) -> None:
        """A new signing key; only it is published from now on."""
        self.key = _new_key()

    def issue_code(self, sub: str, redirect_uri: str, challenge: str, nonce: str | None) -> str:
        code = secrets.token_urlsafe(24)
        self.codes[code] = Code(sub, redirect_uri, challenge, nonce, time.time() + CODE_SECONDS)
        return code

    def authenticate(self, client_id: str | None, client_secret: str | None) -> None:
        if client_id != self.client_id or not hmac.compare_digest(
            (client_secret or "").encode(), self.client_secret.encode()
        ):
            raise GrantError("invalid_client", 401)

    def exchange(self, code: str, redirect_uri: str | None, verifier: str | None) -> dict[str, Any]:
        found = self.codes.pop(code, None)  # used once, whatever follows
        if found is None or found.expires < time.time() or found.sub not in self.users:
            raise GrantError("invalid_grant")
        if redirect_uri != found.redirect_uri:
            raise GrantError("invalid_grant")
        if not verifier or not hmac.compare_digest(s256(verifier), found.challenge):
            raise GrantError("invalid_grant")
        return self._tokens(self.users[found.sub], found.nonce, with_id_token=True)

    def refresh(self, token: str) -> dict[str, Any]:
        sub = self.refresh_tokens.pop(token, None)
        if sub is None or sub not in self.users:
            raise GrantError("invalid_grant")
        return self._tokens(self.users[sub], None, with_id_token=False)

    def _tokens(self, user: User, nonce: str | None, *, with_id_token: bool) -> dict[str, Any]:
        refresh = secrets.token_urlsafe(32)
        self.refresh_tokens[refresh] = user.sub
        tokens: dict[str, Any] = {
            "access_token": secrets.token_urlsafe(32),
            "token_type": "Bearer",
            "expires_in": ACCESS_TOKEN_SECONDS,
            "refresh_token": refresh,
        }
        if with_id_token:
            tokens["id_token"] = self._id_token(user, nonce)
        return tokens

    def _id_token(self, user: User, nonce: str | None) -> str:
        if self.replay_next and self.last_id_token is not None:
            self.replay_next = False
            return self.last_id_token
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": user.sub,
            "aud": self.client_id,
            "exp": now + ID_TOKEN_SECONDS,
            "iat": now,
            "auth_time": now,
            "email": user.email,
            "email_verified": user.email_verified,
            "amr": user.amr,
        }
        if nonce is not None:
            claims["nonce"] = nonce
        if user.acr is not None:
            claims["acr"] = user.acr
        claims.update(self.next_claims)
        self.next_claims = {}
        key = _new_key() if self.unpublished_next else self.key
        self.unpublished_next = False
        header = {"alg": "RS256", "kid": key.kid}
        token = jwt.encode(header, {k: v for k, v in claims.items() if v is not None}, key)
        self.last_id_token = token
        return token
