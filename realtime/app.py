"""create_app(settings): Starlette routes and lifespan, wrapped by socketio.ASGIApp."""

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import redis.asyncio as aioredis
import socketio
from starlette.applications import Starlette

import realtime.functions  # noqa: F401  (registers every callable)
from realtime.bodies import LimitBodies
from realtime.booking.caches import BookingCaches
from realtime.collections import collections
from realtime.document_routes import UPLOAD_BODY, document_routes
from realtime.files import store_demo_documents
from realtime.http import EXCEPTION_HANDLERS, routes
from realtime.jobs import run_forever
from realtime.link_tokens import LinkSigner
from realtime.mail.links import MailLinks
from realtime.mail.outbox import Mailer
from realtime.mail.smtp import SmtpDelivery
from realtime.oidc.discovery import Directory
from realtime.payments.local import start_local_stripe, wants_local_stripe
from realtime.payments.provider import PaymentProvider, stripe_client
from realtime.presence import run_session_checks
from realtime.push import Publisher
from realtime.ratelimit import create_limiter
from realtime.resync import install_resync
from realtime.security_headers import SecurityHeaders
from realtime.session_sweep import run_session_sweeps
from realtime.settings import Settings
from realtime.sockets import bind_events, create_socket_server
from realtime.state import AppState
from storage.db import open_database
from storage.demo import load_demo_data
from storage.migrate import upgrade_async

log = logging.getLogger(__name__)


def create_app(settings: Settings | None = None) -> Any:
    settings = settings or Settings()
    sio = create_socket_server(settings)
    db = open_database(
        settings.database_url,
        pool_size=settings.database_pool_size,
        max_overflow=settings.database_max_overflow,
    )
    # Rate limits and /healthz: a command unanswered for as long as a silent subscription
    # (REDIS_SILENCE_SECONDS) fails rather than holding the request (docs/operations.md).
    redis = (
        aioredis.from_url(settings.redis_url, socket_timeout=settings.redis_silence_seconds)
        if settings.redis_url
        else None
    )
    smtp = SmtpDelivery(settings.smtp_url, settings.mail_from) if settings.smtp_url else None
    caches = BookingCaches.of(db)
    state = AppState(
        settings=settings,
        db=db,
        publisher=Publisher(sio),
        redis=redis,
        mailer=Mailer(db, smtp, MailLinks(settings.public_url, LinkSigner(settings.secret_key))),
        limiter=create_limiter(redis, settings.redis_namespace),
        payments=PaymentProvider(stripe_client(settings)),
        caches=caches,
        collections=collections(db, caches),
        oidc=Directory(
            timeout_seconds=settings.oidc_http_timeout_seconds,
            refetch_seconds=settings.oidc_keys_refetch_seconds,
        ),
    )
    bind_events(sio, state)
    install_resync(state)  # with Redis: pushes missed meanwhile sent again from the database

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await upgrade_async(settings.database_url)
        if settings.load_demo_data:
            async with state.db.write() as session:
                if await load_demo_data(
                    session,
                    today=datetime.now(UTC).date(),
                    # The demo staff's published TOTP secret: never in production.
                    enrol_demo_staff=settings.app_env in ("development", "test"),
                    # A week of bookings for the board: development only (tests count rows).
                    demo_week=settings.app_env == "development",
                ):
                    log.info("loaded demo data into an empty database")
                await store_demo_documents(session, settings.files_dir)
        local_stripe = None
        if wants_local_stripe(settings):
            local_stripe, url = await start_local_stripe(settings)
            local = settings.model_copy(update={"stripe_api_base": url})
            state.payments = PaymentProvider(stripe_client(local))
        loops = [
            asyncio.create_task(run_forever(state, settings.job_interval_seconds)),
            asyncio.create_task(run_session_checks(state)),
            asyncio.create_task(run_session_sweeps(state)),
        ]
        yield
        for loop in loops:
            loop.cancel()
        if local_stripe is not None:
            local_stripe.terminate()
        await state.mailer.drain()
        await state.db.close()
        if state.redis is not None:
            await state.redis.aclose()

    web = Starlette(
        routes=document_routes() + routes(state),
        lifespan=lifespan,
        exception_handlers=EXCEPTION_HANDLERS,
    )
    web.state.app = state
    https = settings.public_url.startswith("https://")
    guarded = SecurityHeaders(LimitBodies(web, larger=[UPLOAD_BODY]), https=https)
    return socketio.ASGIApp(sio, other_asgi_app=guarded)
