"""A production server refuses unsafe settings, and says so without printing any value
(issue #12 items 1 and 16; rules in realtime/production.py)."""

from pathlib import Path

import pytest

from tests.support.production import production_env
from tests.support.server import ServerProcess

SMTP_PASSWORD = "pw-Zq8vN3xTk1"


def refused(tmp_path: Path, **changes: str | None) -> str:
    """Start a production server with these changes to good settings (None: unset); it must
    exit non-zero by itself. Its log."""
    env = production_env(tmp_path)
    for name, value in changes.items():
        if value is None:
            del env[name]
        else:
            env[name] = value
    log_path = tmp_path / f"refused-{len(list(tmp_path.glob('refused-*')))}.log"
    server = ServerProcess(env=env, log_path=log_path).launch()
    try:
        assert server.exit_code(timeout=30) != 0, log_path.read_text()
    finally:
        server.stop()
    return log_path.read_text(errors="replace")


@pytest.mark.parametrize(
    "stripe",
    [
        {"STRIPE_SECRET_KEY": None, "STRIPE_WEBHOOK_SECRET": None},  # the local defaults
        {"STRIPE_WEBHOOK_SECRET": None},  # the case: a real key, no webhook secret
        {"STRIPE_SECRET_KEY": "sk_test_local", "STRIPE_WEBHOOK_SECRET": "whsec_local"},
        {"STRIPE_SECRET_KEY": " ", "STRIPE_WEBHOOK_SECRET": ""},
    ],
)
def test_production_refuses_to_start_with_default_stripe_settings(
    tmp_path: Path, stripe: dict[str, str | None]
) -> None:
    log = refused(tmp_path, **stripe)
    for name in stripe:
        assert f"{name} must be set" in log


@pytest.mark.parametrize("key", ["a" * 32, "ab" * 20, "abcd" * 8])
def test_production_refuses_a_low_entropy_secret_key(tmp_path: Path, key: str) -> None:
    assert "SECRET_KEY is too predictable" in refused(tmp_path, SECRET_KEY=key)


def test_production_refuses_a_public_url_that_is_not_https(tmp_path: Path) -> None:
    log = refused(tmp_path, PUBLIC_URL="http://127.0.0.1:8000")
    assert "PUBLIC_URL must be an https:// address" in log


def test_a_refused_start_never_prints_setting_values(tmp_path: Path) -> None:
    log = refused(
        tmp_path,
        SMTP_URL=f"smtp://mailer:{SMTP_PASSWORD}@127.0.0.1:2525",
        SECRET_KEY="a" * 32,
        STRIPE_WEBHOOK_SECRET=None,
    )
    assert "SECRET_KEY is too predictable" in log and "STRIPE_WEBHOOK_SECRET" in log
    assert SMTP_PASSWORD not in log
    assert "input_value" not in log and "Traceback" not in log
    # A value that fails a field's own type is named, not quoted, too.
    log = refused(
        tmp_path, SMTP_URL=f"smtp://mailer:{SMTP_PASSWORD}@h:25", HOLD_MINUTES="ten-minutes-hold"
    )
    assert "HOLD_MINUTES:" in log and "ten-minutes-hold" not in log and SMTP_PASSWORD not in log
