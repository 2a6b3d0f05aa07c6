"""What a `production` server refuses to start with (docs/protocol.md, "Production settings").

Kept apart from realtime/settings.py so the rules read as one list. Messages name settings,
never their values: a refused start-up must not print a secret (realtime/__main__.py).
"""

import math
from collections import Counter
from urllib.parse import urlsplit

# The development defaults: fine on a laptop, known to everyone, so never in production.
DEFAULT_SECRET = "dev-only-secret-change-me"
DEFAULT_STRIPE_SECRET_KEY = "sk_test_local"
DEFAULT_STRIPE_WEBHOOK_SECRET = "whsec_local"

# SECRET_KEY: at least this long, and at least this many bits by the Shannon estimate below.
# A random 32-character hex key estimates 93+ bits, `secrets.token_urlsafe(32)` about 190;
# 32 x "a" estimates 0 and "abcd" x 8 64.
MIN_SECRET_LENGTH = 32
MIN_SECRET_BITS = 80.0


def estimated_bits(value: str) -> float:
    """Length times the Shannon entropy of the value's own character frequencies: a cheap
    floor against repeated or few-character keys (it cannot see a dictionary phrase)."""
    if not value:
        return 0.0
    counts = Counter(value).values()
    per_char = -sum(n / len(value) * math.log2(n / len(value)) for n in counts)
    return len(value) * per_char


def _weak_secret(name: str, value: str, where: str) -> str | None:
    if len(value) < MIN_SECRET_LENGTH:
        return f"{name} must be at least {MIN_SECRET_LENGTH} characters{where}"
    if estimated_bits(value) < MIN_SECRET_BITS:
        return (
            f"{name} is too predictable (repeated or few distinct characters); "
            "use e.g. `python -c 'import secrets; print(secrets.token_urlsafe(32))'`"
        )
    return None


def _secret_key_problem(secret_key: str) -> str | None:
    if secret_key == DEFAULT_SECRET:
        return "SECRET_KEY must be set to a long random value when APP_ENV=production"
    return _weak_secret("SECRET_KEY", secret_key, " in production")


def loadtest_problems(
    *, loadtest_key: str | None, production: bool, allow_production: bool
) -> list[str]:
    """LOADTEST_KEY opens the load-test session issuer (realtime/loadtest_sessions.py): a
    weak key is refused wherever it is set, and a production server refuses it unless
    LOADTEST_ALLOW_PRODUCTION says this production-configured server is a staging one."""
    if loadtest_key is None:
        return []
    problems = [p for p in [_weak_secret("LOADTEST_KEY", loadtest_key, "")] if p]
    if production and not allow_production:
        problems.append(
            "LOADTEST_KEY is refused in production unless LOADTEST_ALLOW_PRODUCTION=true "
            "(a staging deployment run with production settings)"
        )
    return problems


def _stripe_problems(stripe_secret_key: str, stripe_webhook_secret: str) -> list[str]:
    problems = []
    if stripe_secret_key.strip() in ("", DEFAULT_STRIPE_SECRET_KEY):
        problems.append("STRIPE_SECRET_KEY must be set to the account's key in production")
    if stripe_webhook_secret.strip() in ("", DEFAULT_STRIPE_WEBHOOK_SECRET):
        problems.append(
            "STRIPE_WEBHOOK_SECRET must be set to the webhook endpoint's signing secret "
            "in production"
        )
    return problems


def production_problems(
    *, secret_key: str, public_url: str, stripe_secret_key: str, stripe_webhook_secret: str
) -> list[str]:
    """Every reason to refuse a production start, in one message per setting."""
    problems = [p for p in [_secret_key_problem(secret_key)] if p]
    parts = urlsplit(public_url)
    if parts.scheme != "https" or not parts.hostname:
        problems.append("PUBLIC_URL must be an https:// address in production")
    return problems + _stripe_problems(stripe_secret_key, stripe_webhook_secret)


def issuer_allowed(issuer: str, *, production: bool) -> bool:
    """A provider's issuer is an https:// address in production (its keys and tokens travel
    over it); plain http:// is for the local provider in development and tests. The same
    rule holds for the OIDC_PROVIDERS setting and for an issuer set in the workspace
    (realtime/oidc/admin_rules.py)."""
    parts = urlsplit(issuer)
    allowed = ("https",) if production else ("https", "http")
    return parts.scheme in allowed and bool(parts.hostname)


def oidc_problems(*, issuers: dict[str, str], production: bool) -> list[str]:
    problems = []
    for clinic_id, issuer in sorted(issuers.items()):
        if not issuer_allowed(issuer, production=production):
            problems.append(
                f"OIDC_PROVIDERS: the issuer of clinic {clinic_id} must be an https:// address"
                + (" in production" if production else " (or http:// outside production)")
            )
    return problems
