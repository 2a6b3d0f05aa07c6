"""HTTP routes: callables, the session probe, health, dev helpers and the client build."""

import asyncio
import json
import logging
from datetime import datetime
from typing import Any

from sqlalchemy import text
from sqlmodel import col, select
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from realtime.auth import SESSION_COOKIE, bearer_from_headers, cookie_token, resolve
from realtime.contract import MAX_MESSAGE_BYTES, SERVER_PATH_PREFIXES
from realtime.dispatch import CallContext, dispatch
from realtime.errors import FunctionError, invalid_field
from realtime.files import file_on_disk, full_path, metadata
from realtime.jobs import JOBS
from realtime.payments.webhook import stripe_webhook
from realtime.signin import SignedIn, confirm
from realtime.state import AppState
from storage.models import OutboxMail, StoredFile
from storage.repo_users import Identity, create_session, get_or_create_user, revoke_session
from storage.types import iso, utcnow

log = logging.getLogger(__name__)
HEALTH_TIMEOUT_SECONDS = 2.0
# Paths that are never the client's (contract.json): an unknown one is a 404, not the app shell.
API_PREFIXES = SERVER_PATH_PREFIXES
NOT_AN_OBJECT = "The body must be a JSON object."


def state_of(request: Request) -> AppState:
    state: AppState = request.app.state.app
    return state


def error_response(error: FunctionError) -> JSONResponse:
    return JSONResponse(error.to_wire(), status_code=error.http_status)


async def not_found(request: Request, exc: Exception) -> Response:
    """A path no route matches (one with a newline in it, say) in the error format too."""
    return error_response(FunctionError("NOT_FOUND", "Not found."))


async def identity_of(request: Request) -> Identity | None:
    token = bearer_from_headers(request.headers) or cookie_token(request.headers.get("cookie"))
    return await resolve(state_of(request), token)


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


async def read_object(request: Request) -> dict[str, Any]:
    """A JSON object body of at most 64 KiB, or INVALID_ARGUMENT."""
    body = await request.body()
    if len(body) > MAX_MESSAGE_BYTES:
        raise invalid_field("body", "The request is too large.")
    try:
        parsed = json.loads(body)
    except ValueError:
        raise invalid_field("body", NOT_AN_OBJECT) from None
    if not isinstance(parsed, dict):
        raise invalid_field("body", NOT_AN_OBJECT)
    return parsed


async def read_data(request: Request) -> Any:
    """The `data` of a `{"data": ...}` body, or INVALID_ARGUMENT."""
    parsed = await read_object(request)
    if "data" not in parsed:
        raise invalid_field("data", "The body must be a JSON object with data.")
    return parsed["data"]


async def call_function(request: Request) -> Response:
    try:
        data = await read_data(request)
        context = CallContext(
            state_of(request), await identity_of(request), client_ip=client_ip(request)
        )
        result = await dispatch(context, request.path_params["name"], data)
    except FunctionError as exc:
        return error_response(exc)
    return JSONResponse({"data": result})


async def auth_session(request: Request) -> Response:
    who = await identity_of(request)
    return JSONResponse({"data": who.to_wire() if who else None})


def signed_in_response(state: AppState, signed_in: SignedIn) -> JSONResponse:
    """The sign-in reply: the bearer token for scripts, an HttpOnly cookie for browsers."""
    response = JSONResponse(
        {"data": {"uid": signed_in.uid, "email": signed_in.email, "token": signed_in.token}}
    )
    response.set_cookie(
        SESSION_COOKIE,
        signed_in.token,
        httponly=True,
        samesite="lax",
        secure=state.settings.public_url.startswith("https://"),
        path="/",
    )
    return response


async def auth_confirm(request: Request) -> Response:
    state = state_of(request)
    try:
        body = await read_object(request)
        signed_in = await confirm(state, email=body.get("email"), token=body.get("token"))
    except FunctionError as exc:
        return error_response(exc)
    return signed_in_response(state, signed_in)


async def sign_out(request: Request) -> Response:
    """Revoke the caller's session (bearer token and cookie alike) and close its sockets."""
    state = state_of(request)
    who = await identity_of(request)
    if who is not None:
        async with state.db.write() as session:
            await revoke_session(session, session_id=who.session_id, at=utcnow())
        await state.publisher.end_session(who.session_id)
    response = JSONResponse({"data": {"signedOut": True}})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def healthz(request: Request) -> Response:
    state = state_of(request)
    checks: dict[str, str] = {}
    try:
        async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS), state.db.read() as session:
            await session.exec(text("SELECT 1"))  # type: ignore[call-overload]
        checks["database"] = "ok"
    except Exception:
        checks["database"] = "down"
    if state.redis is not None:
        try:
            async with asyncio.timeout(HEALTH_TIMEOUT_SECONDS):
                await state.redis.ping()
            checks["redis"] = "ok"
        except Exception:
            checks["redis"] = "down"
    healthy = all(value == "ok" for value in checks.values())
    return JSONResponse(
        {"status": "ok" if healthy else "unavailable", **checks},
        status_code=200 if healthy else 503,
    )


async def dev_token(request: Request) -> Response:
    """Development and tests only: a bearer token for an e-mail address, no mail involved."""
    try:
        data = await read_data(request)
        email = data.get("email") if isinstance(data, dict) else None
        if not isinstance(email, str) or "@" not in email or len(email) > 320:
            raise FunctionError("INVALID_ARGUMENT", "Invalid email address.")
    except FunctionError as exc:
        return error_response(exc)
    state = state_of(request)
    async with state.db.write() as session:
        user = await get_or_create_user(session, email=email.strip().lower())
        token = await create_session(session, user_id=user.id)
    return signed_in_response(state, SignedIn(uid=user.id, email=user.email, token=token))


async def dev_outbox(request: Request) -> Response:
    query = select(OutboxMail).order_by(col(OutboxMail.sent_at).desc(), col(OutboxMail.id).desc())
    to = request.query_params.get("to")
    if to:
        query = query.where(OutboxMail.to == to.strip().lower())
    async with state_of(request).db.read() as session:
        mails = (await session.exec(query.limit(100))).all()
    return JSONResponse(
        {
            "data": [
                {
                    "to": m.to,
                    "subject": m.subject,
                    "text": m.text,
                    "links": m.links,
                    "sentAt": iso(m.sent_at),
                    "delivery": m.delivery,
                }
                for m in mails
            ]
        }
    )


def aware_time(value: object) -> datetime:
    """An ISO-8601 time with an offset, or INVALID_ARGUMENT."""
    try:
        parsed = datetime.fromisoformat(value) if isinstance(value, str) else None
    except ValueError:
        parsed = None
    if parsed is None or parsed.tzinfo is None:
        raise FunctionError("INVALID_ARGUMENT", "now must be ISO-8601 with an offset.")
    return parsed


async def dev_run_job(request: Request) -> Response:
    """Development and tests only: run a scheduled job as if it were `now` (a clock to set)."""
    job = JOBS.get(request.path_params["name"])
    try:
        if job is None:
            raise FunctionError("NOT_FOUND", "No such job.")
        data = await read_data(request)
        now = aware_time(data.get("now")) if isinstance(data, dict) and "now" in data else utcnow()
    except FunctionError as exc:
        return error_response(exc)
    return JSONResponse({"data": {"done": await job(state_of(request), now)}})


async def stored_file(request: Request) -> Response:
    """A clinic document: its bytes, or with `/metadata` its stored-file metadata."""
    state = state_of(request)
    params = request.path_params
    path = full_path(params["clinicId"], params["docId"], params["locale"])
    async with state.db.read() as session:
        row = await session.get(StoredFile, path) if path else None
    if row is None or not file_on_disk(state.settings.files_dir, row).exists():
        return error_response(FunctionError("NOT_FOUND", "No such document."))
    if request.url.path.endswith("/metadata"):
        return JSONResponse({"data": metadata(row)})
    etag = f'"{row.md5_hash}"'
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers={"ETag": etag})
    return FileResponse(
        file_on_disk(state.settings.files_dir, row),
        media_type=row.content_type,
        headers={
            "ETag": etag,
            "Cache-Control": row.cache_control or "private",
            "Content-Disposition": row.content_disposition or "attachment",
            "Content-Language": row.content_language or "",
            "X-Content-Type-Options": "nosniff",
        },
    )


def client_routes(state: AppState) -> list[BaseRoute]:
    """The built client: its assets, and index.html for every other GET (SPA routing)."""
    dist = state.settings.client_dist
    index = dist / "index.html"

    async def spa(request: Request) -> Response:
        if request.url.path.startswith(API_PREFIXES):
            return JSONResponse(
                {"error": {"status": "NOT_FOUND", "message": "Not found."}}, status_code=404
            )
        if not index.exists():
            return PlainTextResponse(
                "The client is not built: run the README's command.", status_code=503
            )
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    routes: list[BaseRoute] = []
    if (dist / "assets").is_dir():
        routes.append(Mount("/assets", StaticFiles(directory=dist / "assets"), name="assets"))
    for public in sorted(dist.glob("*")) if dist.is_dir() else []:
        if public.is_file() and public.name != "index.html":
            routes.append(Route(f"/{public.name}", _file(public)))
    routes.append(Route("/{path:path}", spa, methods=["GET", "HEAD"]))
    return routes


def _file(path: Any) -> Any:
    async def serve(request: Request) -> Response:
        return FileResponse(path)

    return serve


def routes(state: AppState) -> list[BaseRoute]:
    api: list[BaseRoute] = [
        # Any name, "/" included: an unknown one is NOT_FOUND in the error format, not the
        # client's plain-text 405.
        Route("/functions/{name:path}", call_function, methods=["POST"]),
        Route("/auth/session", auth_session, methods=["GET"]),
        Route("/auth/confirm", auth_confirm, methods=["POST"]),
        Route("/auth/sign-out", sign_out, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/stripe/webhook", stripe_webhook, methods=["POST"]),
        Route("/files/{clinicId}/{docId}/{locale}", stored_file, methods=["GET", "HEAD"]),
        Route("/files/{clinicId}/{docId}/{locale}/metadata", stored_file, methods=["GET"]),
    ]
    if state.settings.dev_endpoints:
        api += [
            Route("/dev/token", dev_token, methods=["POST"]),
            Route("/dev/outbox", dev_outbox, methods=["GET"]),
            Route("/dev/jobs/{name}", dev_run_job, methods=["POST"]),
        ]
    return api + client_routes(state)
