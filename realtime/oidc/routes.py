"""GET /auth/oidc/{clinicId}/start and GET /auth/oidc/callback (docs/protocol.md, "Staff
sign-in through the clinic's identity provider"). Both end in a redirect: to the provider,
to the staff workspace signed in, or back to the sign-in screen with `staffSignIn=<reason>`,
which the client words in the person's language. Never an error page or a stack trace.

A start is counted per client IP (OIDC_STARTS_PER_IP in the rate-limit window, the house
limiter of realtime/ratelimit.py): each writes a row and asks the provider, so a loop of
starts is refused with `staffSignIn=too-many` before either."""

import logging
from urllib.parse import urlencode

from starlette.requests import Request
from starlette.responses import RedirectResponse, Response
from starlette.routing import BaseRoute, Route

from realtime.auth import set_session_cookie
from realtime.errors import FunctionError
from realtime.oidc.flow import STAFF_HOME, Refused, callback, start
from realtime.ratelimit import enforce
from realtime.state import AppState

log = logging.getLogger(__name__)
# The cookie that binds a sign-in under way to the browser that started it.
BROWSER_COOKIE = "gc_oidc"
COOKIE_PATH = "/auth/oidc"
CALLBACK_PARAMS = ("state", "code", "error")


def _state(request: Request) -> AppState:
    state: AppState = request.app.state.app
    return state


def client_ip(request: Request) -> str | None:
    return request.client.host if request.client else None


def _https(state: AppState) -> bool:
    return state.settings.public_url.startswith("https://")


def _redirect(location: str) -> RedirectResponse:
    return RedirectResponse(location, status_code=303, headers={"Cache-Control": "no-store"})


def back_to_sign_in(reason: str) -> RedirectResponse:
    query = urlencode({"next": STAFF_HOME, "staffSignIn": reason})
    response = _redirect(f"/?{query}")
    response.delete_cookie(BROWSER_COOKIE, path=COOKIE_PATH)
    return response


TOO_MANY = "too-many"


async def _within_limit(state: AppState, request: Request) -> bool:
    settings = state.settings
    try:
        await enforce(
            state.limiter,
            {f"oidc-start-ip:{client_ip(request) or 'unknown'}": settings.oidc_starts_per_ip},
            window_seconds=settings.rate_limit_window_seconds,
        )
    except FunctionError:
        return False
    return True


async def oidc_start(request: Request) -> Response:
    state = _state(request)
    if not await _within_limit(state, request):
        log.info("oidc start refused: too many from one address")
        return back_to_sign_in(TOO_MANY)
    try:
        started = await start(
            state,
            clinic_id=request.path_params["clinicId"],
            next_path=request.query_params.get("next"),
        )
    except Refused as exc:
        log.info("oidc start refused: %s", exc)
        return back_to_sign_in(exc.reason)
    response = _redirect(started.authorization_url)
    response.set_cookie(
        BROWSER_COOKIE,
        started.browser_token,
        max_age=state.settings.oidc_login_ttl_seconds,
        httponly=True,
        samesite="lax",
        secure=_https(state),
        path=COOKIE_PATH,
    )
    return response


async def oidc_callback(request: Request) -> Response:
    state = _state(request)
    params = {
        name: request.query_params[name] for name in CALLBACK_PARAMS if name in request.query_params
    }
    try:
        finished = await callback(
            state,
            params,
            browser_token=request.cookies.get(BROWSER_COOKIE),
            client_ip=client_ip(request),
        )
    except Refused as exc:
        log.info("oidc callback refused: %s", exc)
        return back_to_sign_in(exc.reason)
    response = _redirect(finished.next_path)
    set_session_cookie(response, finished.signed_in.token, https=_https(state))
    response.delete_cookie(BROWSER_COOKIE, path=COOKIE_PATH)
    return response


def oidc_routes() -> list[BaseRoute]:
    return [
        Route("/auth/oidc/callback", oidc_callback, methods=["GET"]),
        Route("/auth/oidc/{clinicId}/start", oidc_start, methods=["GET"]),
    ]
