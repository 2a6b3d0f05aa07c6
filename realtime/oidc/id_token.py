"""What an ID token must be before anyone is signed in with it (OpenID Connect Core 1.0,
3.1.3.7), checked with joserfc, the JOSE library Authlib itself moved to (authlib.jose is
deprecated in its favour and Authlib depends on it):

- signed by one of the provider's published keys with an asymmetric algorithm (never `none`,
  never HMAC: a client secret must not be able to forge a token);
- `iss` the configured issuer, `aud` naming our client id (and `azp` ours whenever it is
  present or `aud` names others too), `sub` present;
- `exp` in the future and `iat` not in it, within the allowed clock skew, and `iat` no
  older than the sign-in itself may be (a token kept from an earlier sign-in is refused);
- `nonce` exactly the one this sign-in sent (a token replayed into another sign-in fails).
"""

from dataclasses import dataclass
from typing import Any

from joserfc import jws, jwt
from joserfc.errors import JoseError
from joserfc.jwk import KeySet

ALGORITHMS = ["RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512"]
MFA_AMR = "mfa"  # RFC 8176: multiple-factor authentication


class TokenRefused(Exception):
    """An ID token that must not sign anyone in; the message names the check (for the log)."""


@dataclass(frozen=True)
class Verified:
    subject: str
    email: str | None
    email_verified: bool
    amr: tuple[str, ...]
    acr: str | None

    def asserts_mfa(self, mfa_acr: frozenset[str]) -> bool:
        """The provider says the person passed several factors: `amr` holds "mfa", or `acr`
        is one of the values the clinic's provider sends for that."""
        return MFA_AMR in self.amr or (self.acr is not None and self.acr in mfa_acr)


def key_id(token: str) -> str | None:
    """The `kid` of a token's header, read (unverified) to choose the key; None if absent."""
    try:
        kid = jws.extract_compact(token.encode("ascii")).headers().get("kid")
    except (JoseError, ValueError, TypeError, UnicodeError):
        return None
    return kid if isinstance(kid, str) else None


def verify(
    token: str,
    keys: KeySet,
    *,
    issuer: str,
    client_id: str,
    nonce: str,
    now: int,
    skew: int,
    max_age: int,
) -> Verified:
    try:
        claims = jwt.decode(token, keys, algorithms=ALGORITHMS).claims
    except (JoseError, ValueError, TypeError) as exc:
        raise TokenRefused(f"signature: {type(exc).__name__}") from exc
    registry = jwt.JWTClaimsRegistry(
        now=now,
        leeway=skew,
        iss={"essential": True, "value": issuer},
        sub={"essential": True},
        aud={"essential": True, "value": client_id},
        exp={"essential": True},
        iat={"essential": True},
        nonce={"essential": True, "value": nonce},
    )
    try:
        registry.validate(claims)
    except JoseError as exc:
        raise TokenRefused(f"claims: {exc}") from exc
    _check_party(claims, client_id)
    _check_age(claims["iat"], now=now, skew=skew, max_age=max_age)
    return _verified(claims)


def _check_party(claims: dict[str, Any], client_id: str) -> None:
    audience = claims["aud"]
    others = isinstance(audience, list) and any(a != client_id for a in audience)
    azp = claims.get("azp")
    if (others or azp is not None) and azp != client_id:
        raise TokenRefused("claims: azp is not this client")


def _check_age(iat: object, *, now: int, skew: int, max_age: int) -> None:
    if not isinstance(iat, int | float) or iat > now + skew:
        raise TokenRefused("claims: iat in the future")
    if iat < now - max_age - skew:
        raise TokenRefused("claims: iat older than the sign-in")


def _verified(claims: dict[str, Any]) -> Verified:
    email = claims.get("email")
    amr = claims.get("amr")
    acr = claims.get("acr")
    return Verified(
        subject=str(claims["sub"]),
        email=email if isinstance(email, str) else None,
        email_verified=claims.get("email_verified") is True,
        amr=tuple(a for a in amr if isinstance(a, str)) if isinstance(amr, list) else (),
        acr=acr if isinstance(acr, str) else None,
    )
