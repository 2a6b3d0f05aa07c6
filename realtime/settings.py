"""The one settings object: environment variables -> typed fields.

Nothing else in the code base reads os.environ.
"""

from functools import cached_property
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from realtime.budget import BURST, RATE
from realtime.contract import INACTIVITY_LOGOUT_SECONDS, INACTIVITY_WARNING_SECONDS
from realtime.oidc.setting import ProviderSetting
from realtime.production import (
    DEFAULT_SECRET,
    DEFAULT_STRIPE_SECRET_KEY,
    DEFAULT_STRIPE_WEBHOOK_SECRET,
    loadtest_problems,
    oidc_problems,
    production_problems,
)
from realtime.push import REDIS_SILENCE_SECONDS
from storage.db import MAX_OVERFLOW, POOL_SIZE

ROOT = Path(__file__).resolve().parent.parent


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="", case_sensitive=False, extra="ignore")

    port: int = 8000
    host: str = "127.0.0.1"
    # Proxies whose X-Forwarded-For/-Proto are believed (comma-separated IPs or networks, as
    # uvicorn's --forwarded-allow-ips); unset, none is, and the client IP is the peer's.
    forwarded_allow_ips: str | None = None
    # Slow clients (realtime/connections.py): a request's head and body must arrive within
    # this time, and one address may hold at most this many HTTP connections (0: no cap;
    # trusted proxies are not capped).
    request_read_timeout_seconds: float = 15.0
    max_connections_per_address: int = 500
    database_url: str = f"sqlite+aiosqlite:///{ROOT / 'var' / 'app.db'}"
    # PostgreSQL connections of this node: kept open, and more at busy moments. A cluster's
    # nodes together must stay under the server's max_connections (docs/operations.md).
    database_pool_size: int = Field(default=POOL_SIZE, ge=1, le=1000)
    database_max_overflow: int = Field(default=MAX_OVERFLOW, ge=0, le=1000)
    redis_url: str | None = None
    # Processes sharing REDIS_URL and this namespace form one system (Socket.IO channel,
    # rate-limit keys); another namespace on the same Redis is another system.
    redis_namespace: str = "gc"
    # A node whose Redis subscription brought nothing (not even the answer to its PING) for
    # this long subscribes again on a new connection and resyncs its followers; a publish
    # unanswered for as long goes out again on a new connection (realtime/push.py
    # REDIS_SILENCE_SECONDS says why 3 s; docs/operations.md, "Redis connection silent").
    redis_silence_seconds: float = Field(default=REDIS_SILENCE_SECONDS, ge=0.3, le=300)
    app_env: Literal["development", "test", "production"] = "development"
    public_url: str = "http://127.0.0.1:8000"
    secret_key: str = DEFAULT_SECRET
    # Extra browser origins allowed on the socket besides PUBLIC_URL (the Vite dev server).
    extra_origins: list[str] = []
    client_dist: Path = ROOT / "client" / "dist"
    # File storage of clinic documents (a local directory; see realtime/files.py).
    files_dir: Path = ROOT / "var" / "files"
    contact_messages_per_ip: int = 10
    load_demo_data: bool = True
    # Booking: how long a hold lasts, and the video meeting provider's base URL.
    hold_minutes: int = 10
    # A booking attempt keeps times on hold for at most HOLD_TOTAL_MINUTES in all (renewals and
    # moves included; an open checkout apart); it ends when nothing was held for
    # HOLD_COOLOFF_MINUTES. Holds per user and per client IP in RATE_LIMIT_WINDOW_SECONDS.
    # Rules: realtime/booking/holds.py, docs/protocol.md "Booking".
    hold_total_minutes: int = 30
    hold_cooloff_minutes: int = 30
    holds_per_user: int = 60
    # Waitlist: a freed time offered to the first in line is held for them this long
    # (docs/protocol.md "Waitlist"); not taken by then, it passes to the next.
    waitlist_offer_minutes: int = 120
    holds_per_ip: int = 600
    # providerCode-check per person and per client IP in RATE_LIMIT_WINDOW_SECONDS: enough to
    # correct a few typos, too few to try codes one after another.
    code_checks_per_user: int = 20
    code_checks_per_ip: int = 200
    meeting_base_url: str = "https://meet.jit.si/"
    # Inactivity (docs/product.md, "Behaviours across screens"): a session with no activity
    # for this long is revoked; every tab is warned when less than the warning time is left.
    inactivity_seconds: int = INACTIVITY_LOGOUT_SECONDS
    inactivity_warning_seconds: int = INACTIVITY_WARNING_SECONDS
    session_check_seconds: float = 5.0
    # Each node checks its own sockets' sessions this often, so sign-out and expiry close
    # them on every node even while Redis is down (realtime/session_sweep.py).
    session_sweep_seconds: float = 2.0
    # Card payment (Stripe Checkout). STRIPE_API_BASE points the official SDK at another
    # server speaking Stripe's API (infra/stripe_local in development and tests); unset, the
    # SDK talks to Stripe itself with the real keys.
    stripe_secret_key: str = DEFAULT_STRIPE_SECRET_KEY
    stripe_webhook_secret: str = DEFAULT_STRIPE_WEBHOOK_SECRET
    stripe_api_base: str | None = None
    # The checkout session lives this long (Stripe's minimum is 30 minutes); the hold is
    # extended to the session's end plus a grace for the webhook to arrive.
    checkout_session_minutes: int = 31
    payment_grace_minutes: int = 5
    # New checkout sessions of one pending payment hold its slot for at most this long in
    # all, counted from the first (realtime/functions/payments.py, checkout_hold_cap).
    checkout_hold_max_minutes: int = 90
    # How often each node runs the scheduled jobs (realtime/jobs.py).
    job_interval_seconds: float = 60.0
    # The clinic of entries that name none (`/`, `/prenatal`, ...); None: they must name one.
    default_clinic_id: str | None = "demo-clinic"
    # Mail: with SMTP_URL (smtp://user:password@host:port, smtps:// for implicit TLS) mails
    # are sent; without it they are only logged and kept in the outbox (dev outbox).
    smtp_url: str | None = None
    mail_from: str = "Genetic Counseling Booking <no-reply@localhost>"
    admin_email: str = "admin@localhost"
    # Sign-in links: lifetime and request limits (per address and per client IP).
    sign_in_link_ttl_seconds: int = 600
    sign_in_links_per_address: int = 5
    sign_in_links_per_ip: int = 30
    # Wrong addresses typed for one link (another device) before the link is spent.
    sign_in_link_address_attempts: int = 5
    # Staff second factor (POST /auth/totp): attempts per account and per client IP.
    totp_attempts_per_account: int = 10
    totp_attempts_per_ip: int = 60
    rate_limit_window_seconds: int = 900
    admin_reports_per_ip: int = 10
    # Counselors' calendar feeds (GET /calendar/{key}.ics) fetched per client IP in the window:
    # calendar services fetch many feeds from few addresses (realtime/calendar/serve.py).
    calendar_feeds_per_ip: int = 600
    # Open sockets per node: per signed-in session (tabs) and per client address.
    sockets_per_session: int = 20
    sockets_per_address: int = 200
    # Events per socket: a burst at once, then so many a second (realtime/budget.py).
    socket_event_burst: int = BURST
    socket_events_per_second: float = RATE
    # Staff sign-in through a clinic's OpenID Connect provider (realtime/oidc): clinic id ->
    # {"name", "issuer", "clientId", "clientSecret", "mfaAcr"} as JSON. A clinic named here
    # uses this one; others may set theirs in the staff workspace (/staff/identity).
    oidc_providers: dict[str, ProviderSetting] = {}
    # A sign-in started at a provider must come back within this time, once.
    oidc_login_ttl_seconds: int = Field(default=600, ge=60, le=3600)
    # A session signed in there is asked about again at the provider this often (its refresh
    # token), and lasts at most OIDC_SESSION_MAX_SECONDS whatever the provider says.
    oidc_check_seconds: int = Field(default=300, ge=30)
    oidc_session_max_seconds: int = Field(default=12 * 3600, ge=300)
    # Clock difference allowed with a provider (ID token `exp`, `iat`).
    oidc_clock_skew_seconds: int = Field(default=60, ge=0, le=600)
    oidc_http_timeout_seconds: float = 10.0
    # An ID token whose key id the cached keys lack fetches the provider's keys again (it
    # rotated them), at most once per this many seconds per provider.
    oidc_keys_refetch_seconds: float = Field(default=30.0, ge=0, le=3600)
    # Sign-ins started at providers (GET /auth/oidc/{clinicId}/start) per client IP in the
    # rate-limit window: each one writes a row and calls the provider.
    oidc_starts_per_ip: int = 30
    # In production an issuer typed in the workspace must resolve to public addresses only
    # (realtime/oidc/admin_rules.py `refuse_private_issuer`); true allows private ones, for a
    # provider on the clinic's own network.
    oidc_private_issuers: bool = False
    log_level: str = "info"
    # Load tests of a staging deployment (docs/security.md, "Load-test sessions"): with a
    # key set, POST /auth/loadtest-session issues sessions for @loadtest.invalid addresses
    # to requests carrying it; unset, that route does not exist. Refused in production
    # unless LOADTEST_ALLOW_PRODUCTION (realtime/production.py).
    loadtest_key: str | None = None
    loadtest_allow_production: bool = False

    @model_validator(mode="after")
    def _refuse_unsafe_production(self) -> "Settings":
        """Rules in realtime/production.py; the message names settings, never values."""
        problems = []
        if self.app_env == "production":
            problems = production_problems(
                secret_key=self.secret_key,
                public_url=self.public_url,
                stripe_secret_key=self.stripe_secret_key,
                stripe_webhook_secret=self.stripe_webhook_secret,
            )
        problems += oidc_problems(
            issuers={clinic: p.issuer for clinic, p in self.oidc_providers.items()},
            production=self.app_env == "production",
        )
        problems += loadtest_problems(
            loadtest_key=self.loadtest_key,
            production=self.app_env == "production",
            allow_production=self.loadtest_allow_production,
        )
        if problems:
            raise ValueError("; ".join(problems))
        return self

    @property
    def dev_endpoints(self) -> bool:
        """The dev outbox and the dev token helper exist only outside production."""
        return self.app_env in ("development", "test")

    @cached_property
    def public_origin(self) -> str:
        parts = urlsplit(self.public_url)
        return f"{parts.scheme}://{parts.netloc}"

    @property
    def allowed_origins(self) -> list[str]:
        return [self.public_origin, *self.extra_origins]
