"""HTTP routes: callables, the session probe, health, dev helpers and the client build."""

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from realtime.auth import (
    SESSION_COOKIE,
    bearer_from_headers,
    cookie_token,
    resolve,
    set_session_cookie,
)
from realtime.bodies import parse_object
from realtime.calendar.appointment import appointment_calendar
from realtime.calendar.serve import calendar_feed
from realtime.changes import changing
from realtime.client_routes import is_client_route
from realtime.contract import DEFAULT_LOCALE, LOCALES, SERVER_PATH_PREFIXES
from realtime.cross_site import refuse_cross_site
from realtime.dispatch import CallContext, dispatch
from realtime.document_admin import NO_SUCH_DOCUMENT, RETIRED_MESSAGE
from realtime.errors import DEPENDENCY_ERRORS, FunctionError, invalid_field, unexpected_error
from realtime.files import file_on_disk, full_path, metadata
from realtime.functions.staff import export_intake, export_questionnaire
from realtime.health import balancer_health, healthz
from realtime.identity import Identity
from realtime.jobs import JOBS
from realtime.link_scope import for_appointment
from realtime.link_signin import link_request, open_link_session
from realtime.loadtest_sessions import KEY_HEADER as LOADTEST_KEY_HEADER
from realtime.loadtest_sessions import issue as issue_loadtest_session
from realtime.oidc.routes import oidc_routes
from realtime.payments.webhook import stripe_webhook
from realtime.second_factor import add_staff, verify
from realtime.signin import SignedIn, confirm, normalize_email
from realtime.state import AppState, state_of
from storage.repo_files import get_file
from storage.repo_mail import latest_mails
from storage.repo_users import create_session, get_or_create_user, revoke_session
from storage.types import iso, utcnow

log = logging.getLogger(__name__)
# Paths that are never the client's (contract.json): an unknown one is a 404, not the app shell.
API_PREFIXES = SERVER_PATH_PREFIXES
NOT_AN_OBJECT = "The body must be a JSON object."


def error_response(error: FunctionError) -> JSONResponse:
    return JSONResponse(error.to_wire(), status_code=error.http_status)


async def on_function_error(request: Request, exc: Exception) -> Response:
    """A FunctionError no route caught (e.g. from identity_of): the error format."""
    return error_response(exc if isinstance(exc, FunctionError) else unexpected_error(exc))


async def on_dependency_error(request: Request, exc: Exception) -> Response:
    """A database error no route caught: 503 UNAVAILABLE when it is unreachable
    (docs/protocol.md, "Callables"), else INTERNAL. Answered here, the connection stays
    usable (the last-resort handler below makes uvicorn close it)."""
    log.exception("%s %s failed", request.method, request.url.path)
    return error_response(unexpected_error(exc))


async def on_unexpected_error(request: Request, exc: Exception) -> Response:
    """Anything else (Starlette's last resort): INTERNAL in the error format, never a
    plain-text 500."""
    return error_response(unexpected_error(exc))


async def not_found(request: Request, exc: Exception) -> Response:
    """A path no route matches (one with a line break in it, say): the error format too."""
    return error_response(FunctionError("NOT_FOUND", "Not found."))


EXCEPTION_HANDLERS: dict[Any, Any] = {
    404: not_found,
    FunctionError: on_function_error,
    **dict.fromkeys(DEPENDENCY_ERRORS, on_dependency_error),
    Exception: on_unexpected_error,
}


async def identity_of(request: Request, *, form_upload: bool = False) -> Identity | None:
    """The caller: a bearer token, else the session cookie (on a request our client sent;
    `form_upload`: a multipart upload from our own origin counts as one)."""
    state = state_of(request)
    bearer = bearer_from_headers(request.headers)
    token = bearer or cookie_token(request.headers.get("cookie"))
    if bearer is None and token is not None:
        refuse_cross_site(
            request.method,
            request.headers,
            state.settings.allowed_origins,
            form_upload=form_upload,
        )
    return await resolve(state, token)


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


async def read_auth_body(request: Request, state: AppState) -> dict[str, Any]:
    """The JSON object of a sign-in step (/auth/confirm, /auth/totp). Each changes what a
    session may do (and /auth/confirm sets the cookie): a foreign page must not submit it
    for the browser, whichever way the session is carried (login CSRF), so the rule of
    cookie requests holds for every such body."""
    refuse_cross_site(
        request.method, request.headers, state.settings.allowed_origins, untyped_body=True
    )
    return await read_object(request)


async def read_object(request: Request) -> dict[str, Any]:
    """A JSON object body (at most 64 KiB: LimitBodies), or INVALID_ARGUMENT."""
    return parse_object(await request.body())


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
    set_session_cookie(
        response, signed_in.token, https=state.settings.public_url.startswith("https://")
    )
    return response


async def auth_confirm(request: Request) -> Response:
    state = state_of(request)
    try:
        body = await read_auth_body(request, state)
        signed_in = await confirm(state, email=body.get("email"), token=body.get("token"))
    except FunctionError as exc:
        return error_response(exc)
    return signed_in_response(state, signed_in)


async def auth_link(request: Request) -> Response:
    """A booking mail's signed link (realtime/link_signin.py): a session scoped to its
    appointment and purpose, with the cookie; `token: null` when the caller's own session
    already covers it."""
    state = state_of(request)
    try:
        body = await read_auth_body(request, state)
        link = link_request(body)
        caller = await identity_of(request)
        signed_in = await open_link_session(state, caller, link, client_ip(request))
    except FunctionError as exc:
        return error_response(exc)
    if signed_in is None:
        assert caller is not None
        return JSONResponse({"data": {"uid": caller.uid, "email": caller.email, "token": None}})
    return signed_in_response(state, signed_in)


async def auth_totp(request: Request) -> Response:
    """A staff session's second factor: `{"code"}` (a TOTP code or a recovery code)."""
    state = state_of(request)
    try:
        body = await read_auth_body(request, state)
        who = await identity_of(request)
        await verify(state, who, body.get("code"), client_ip(request))
    except FunctionError as exc:
        return error_response(exc)
    assert who is not None
    return JSONResponse({"data": {"uid": who.uid, "secondFactor": "ok"}})


async def sign_out(request: Request) -> Response:
    """Revoke the caller's session (bearer token and cookie alike) and close its sockets."""
    state = state_of(request)
    who = await identity_of(request)
    if who is not None:
        async with changing(state) as change, state.db.write() as session:
            await revoke_session(session, session_id=who.session_id, at=utcnow())
            change.end_sessions([who.session_id], after_reply=False)
    response = JSONResponse({"data": {"signedOut": True}})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def dev_token(request: Request) -> Response:
    """Development and tests only: a bearer token for an e-mail address, no mail involved.
    It stands in for the whole sign-in, so a staff session has passed its second factor
    unless `secondFactor: false` asks for one that has not."""
    try:
        data = await read_data(request)
        email = normalize_email(data.get("email") if isinstance(data, dict) else None)
        passed = data.get("secondFactor", True)
        if not isinstance(passed, bool):
            raise invalid_field("secondFactor", "secondFactor must be true or false.")
    except FunctionError as exc:
        return error_response(exc)
    state = state_of(request)
    async with changing(state), state.db.write() as session:
        user = await get_or_create_user(session, email=email)
        token = await create_session(
            session, user_id=user.id, second_factor_at=utcnow() if passed else None
        )
    return signed_in_response(state, SignedIn(uid=user.id, email=user.email, token=token))


async def loadtest_session(request: Request) -> Response:
    """Load tests of a staging deployment only (realtime/loadtest_sessions.py)."""
    state = state_of(request)
    try:
        signed_in = await issue_loadtest_session(
            state,
            key=request.headers.get(LOADTEST_KEY_HEADER),
            data=await read_data(request),
            client_ip=client_ip(request),
        )
    except FunctionError as exc:
        return error_response(exc)
    return signed_in_response(state, signed_in)


async def dev_staff(request: Request) -> Response:
    """Development and tests only: make an address a staff member of a clinic (not enrolled
    in the second factor): `{"email", "clinicId", "role", "counselorId"?}`."""
    try:
        data = await read_data(request)
        if not isinstance(data, dict):
            raise invalid_field("data", "The body must be a JSON object with data.")
        member = await add_staff(
            state_of(request),
            email=normalize_email(data.get("email")),
            clinic_id=data.get("clinicId"),
            role=data.get("role"),
            counselor_id=data.get("counselorId"),
        )
    except FunctionError as exc:
        return error_response(exc)
    return JSONResponse({"data": member})


async def dev_outbox(request: Request) -> Response:
    to = request.query_params.get("to")
    async with state_of(request).db.read() as session:
        mails = await latest_mails(session, to=to.strip().lower() if to else None, limit=100)
    return JSONResponse(
        {
            "data": [
                {
                    "to": m.to,
                    "subject": m.subject,
                    "text": m.text,
                    "links": m.links,
                    "attachments": m.attachments or [],
                    "sentAt": iso(m.sent_at),
                    "delivery": m.delivery,
                    "attempts": m.attempts,
                    "nextAttemptAt": iso(m.next_attempt_at),
                    "lastError": m.last_error,
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
        raise invalid_field("now", "now must be ISO-8601 with an offset.")
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
        row = await get_file(session, path=path) if path else None
    if row is None or not file_on_disk(state.settings.files_dir, row).exists():
        return error_response(FunctionError("NOT_FOUND", NO_SUCH_DOCUMENT))
    if row.retired_at is not None:  # 410 Gone: the page can say it is no longer available
        return JSONResponse(FunctionError("NOT_FOUND", RETIRED_MESSAGE).to_wire(), status_code=410)
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


FHIR_JSON = "application/fhir+json"
_FHIR_ISSUES = {"UNAUTHENTICATED": "login", "PERMISSION_DENIED": "forbidden"}


def fhir_error(error: FunctionError) -> JSONResponse:
    """A refusal of a FHIR route: an OperationOutcome with the error's HTTP status."""
    issue = {
        "severity": "error",
        "code": _FHIR_ISSUES.get(error.status, "exception"),
        "diagnostics": error.message,
    }
    return JSONResponse(
        {"resourceType": "OperationOutcome", "issue": [issue]},
        status_code=error.http_status,
        media_type=FHIR_JSON,
    )


async def _fhir_resource(
    request: Request, export: Callable[[str], Awaitable[dict[str, Any]]]
) -> Response:
    """A FHIR resource made by `export` in the asked locale (`?locale=en`, Japanese
    otherwise), never cached; a refusal as an OperationOutcome."""
    locale = request.query_params.get("locale", DEFAULT_LOCALE)
    try:
        resource = await export(locale if locale in LOCALES else DEFAULT_LOCALE)
    except FunctionError as exc:
        return fhir_error(exc)
    return JSONResponse(resource, media_type=FHIR_JSON, headers={"Cache-Control": "no-store"})


async def fhir_questionnaire_response(request: Request) -> Response:
    """Staff: an appointment's answers as a FHIR R4 QuestionnaireResponse, audited
    (`intake.export`)."""

    async def export(locale: str) -> dict[str, Any]:
        return await export_intake(
            state_of(request),
            await identity_of(request),
            request.path_params["appointmentId"],
            locale=locale,
            address=client_ip(request),
        )

    return await _fhir_resource(request, export)


async def fhir_questionnaire(request: Request) -> Response:
    """Staff: a service's questionnaire as a FHIR R4 Questionnaire (not audited: it holds no
    one's answers)."""

    async def export(locale: str) -> dict[str, Any]:
        return await export_questionnaire(
            state_of(request),
            await identity_of(request),
            request.path_params["serviceId"],
            locale=locale,
        )

    return await _fhir_resource(request, export)


async def own_appointment_calendar(request: Request) -> Response:
    """GET /calendar/appointments/{id}.ics: the owner's appointment as a calendar file
    (realtime/calendar/appointment.py); 404 for anyone else."""
    appointment_id = request.path_params["id"]
    who = for_appointment(await identity_of(request), appointment_id)
    return await appointment_calendar(state_of(request), who, appointment_id)


def client_routes(state: AppState) -> list[BaseRoute]:
    """The built client: its assets, and index.html for every other GET (SPA routing): with
    200 on the client's routes, with 404 elsewhere (the client shows its not-found page)."""
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
        status = 200 if is_client_route(request.url.path) else 404
        return FileResponse(index, status_code=status, headers={"Cache-Control": "no-cache"})

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
        Route("/auth/link", auth_link, methods=["POST"]),
        Route("/auth/totp", auth_totp, methods=["POST"]),
        Route("/auth/sign-out", sign_out, methods=["POST"]),
        *oidc_routes(),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/healthz/balancer", balancer_health, methods=["GET"]),
        Route("/stripe/webhook", stripe_webhook, methods=["POST"]),
        Route("/files/{clinicId}/{docId}/{locale}", stored_file, methods=["GET", "HEAD"]),
        Route(
            "/fhir/QuestionnaireResponse/{appointmentId}",
            fhir_questionnaire_response,
            methods=["GET"],
        ),
        Route("/fhir/Questionnaire/{serviceId}", fhir_questionnaire, methods=["GET"]),
        Route("/files/{clinicId}/{docId}/{locale}/metadata", stored_file, methods=["GET"]),
        Route("/calendar/appointments/{id}.ics", own_appointment_calendar, methods=["GET", "HEAD"]),
        Route("/calendar/{key}.ics", calendar_feed, methods=["GET", "HEAD"]),
    ]
    if state.settings.loadtest_key is not None:
        api.append(Route("/auth/loadtest-session", loadtest_session, methods=["POST"]))
    if state.settings.dev_endpoints:
        api += [
            Route("/dev/token", dev_token, methods=["POST"]),
            Route("/dev/staff", dev_staff, methods=["POST"]),
            Route("/dev/outbox", dev_outbox, methods=["GET"]),
            Route("/dev/jobs/{name}", dev_run_job, methods=["POST"]),
        ]
    return api + client_routes(state)
