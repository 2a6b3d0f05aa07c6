"""Settings a `production` server accepts (realtime/production.py), for tests that start one."""

import secrets
from pathlib import Path


def production_env(tmp_path: Path) -> dict[str, str]:
    """Random secrets, an https PUBLIC_URL, and a Stripe API base nobody answers on, so a
    test's production server never talks to Stripe itself."""
    return {
        "APP_ENV": "production",
        "SECRET_KEY": secrets.token_urlsafe(32),
        "PUBLIC_URL": "https://booking.example",
        "STRIPE_SECRET_KEY": f"sk_test_{secrets.token_urlsafe(24)}",
        "STRIPE_WEBHOOK_SECRET": f"whsec_{secrets.token_urlsafe(24)}",
        "STRIPE_API_BASE": "http://127.0.0.1:9",
        "DATABASE_URL": f"sqlite+aiosqlite:///{tmp_path}/p.db",
    }
