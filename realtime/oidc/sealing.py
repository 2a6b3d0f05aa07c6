"""Secrets kept in the database, sealed: a clinic's client secret and a session's refresh
token are useful to whoever reads them, so a copy of the database (a backup, a replica)
must not be enough. Fernet (AES-128-CBC + HMAC-SHA256) with a key derived from SECRET_KEY
by HKDF, under a purpose label of its own, so no other use of SECRET_KEY shares the key.
Changing SECRET_KEY makes what was sealed unreadable: the clinic_admin enters the client
secret again and OIDC sessions end at their next check (docs/operations.md)."""

import base64

from cryptography.fernet import Fernet, InvalidToken
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

PURPOSE = b"genecounsel oidc secrets v1"


class Unreadable(Exception):
    """A sealed value that this SECRET_KEY did not seal (or that was altered)."""


def _fernet(secret_key: str) -> Fernet:
    key = HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=PURPOSE).derive(
        secret_key.encode("utf-8")
    )
    return Fernet(base64.urlsafe_b64encode(key))


def seal(secret_key: str, value: str) -> str:
    return _fernet(secret_key).encrypt(value.encode("utf-8")).decode("ascii")


def unseal(secret_key: str, sealed: str) -> str:
    try:
        return _fernet(secret_key).decrypt(sealed.encode("ascii")).decode("utf-8")
    except (InvalidToken, ValueError) as exc:
        raise Unreadable from exc
