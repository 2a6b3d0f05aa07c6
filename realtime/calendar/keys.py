"""Feed keys: the secret in a counselor's feed address (docs/security.md, "Calendar feeds").

A key is 256 random bits (URL-safe base64, 43 characters). Only its SHA-256 is stored, so a
copy of the database holds no working address; a request's key is hashed and looked up by
that hash (the requester cannot choose a hash, so the lookup's timing tells nothing about a
stored one), and the stored hash is compared again in constant time.
"""

import hashlib
import hmac
import re
import secrets

KEY_BYTES = 32
# token_urlsafe(32): 43 characters of A-Z a-z 0-9 - _ (no padding).
KEY_PATTERN = re.compile(r"[A-Za-z0-9_-]{43}")
PATH_PREFIX = "/calendar/"
SUFFIX = ".ics"
_IN_PATH = re.compile(re.escape(PATH_PREFIX) + r"[^/?]+")


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    return hashlib.sha256(key.encode("ascii")).hexdigest()


def same_hash(stored: str, key: str) -> bool:
    """Whether `key` hashes to `stored`, compared in constant time."""
    return hmac.compare_digest(stored.encode("ascii"), hash_key(key).encode("ascii"))


def well_formed(key: str) -> bool:
    return KEY_PATTERN.fullmatch(key) is not None


def feed_url(public_url: str, key: str) -> str:
    """The address a calendar program subscribes to (https wherever PUBLIC_URL is)."""
    return f"{public_url.rstrip('/')}{PATH_PREFIX}{key}{SUFFIX}"


def redact(path: str) -> str:
    """A request path with a feed key masked, for logs (realtime/access_log.py)."""
    return _IN_PATH.sub(f"{PATH_PREFIX}[key]", path) if PATH_PREFIX in path else path
