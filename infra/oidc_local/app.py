"""The ASGI app: discovery, keys, the authorize page, the token endpoint and `/_control/`."""

import base64
import html
from typing import Any
from urllib.parse import unquote_plus, urlencode

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Route

from infra.oidc_local.provider import GrantError, Provider, User

AUTHORIZE_PARAMS = (
    "client_id",
    "redirect_uri",
    "state",
    "nonce",
    "code_challenge",
    "code_challenge_method",
    "scope",
    "response_type",
)


def _provider(request: Request) -> Provider:
    provider: Provider = request.app.state.provider
    return provider


async def metadata(request: Request) -> Response:
    return JSONResponse(_provider(request).metadata())


async def jwks(request: Request) -> Response:
    return JSONResponse(_provider(request).jwks())


def _with_query(uri: str, params: dict[str, str]) -> str:
    return f"{uri}{'&' if '?' in uri else '?'}{urlencode(params)}"


def _authorize_problem(provider: Provider, params: dict[str, str]) -> str | None:
    """What makes a request one we must not answer by redirect (RFC 6749, 4.1.2.1)."""
    if params.get("client_id") != provider.client_id:
        return "unknown client_id"
    if not params.get("redirect_uri", "").startswith(("http://", "https://")):
        return "bad redirect_uri"
    if params.get("response_type") != "code":
        return "response_type must be code"
    if params.get("code_challenge_method") != "S256" or not params.get("code_challenge"):
        return "PKCE with S256 is required"
    if "openid" not in params.get("scope", "").split():
        return "scope must include openid"
    return None


def _answer(provider: Provider, params: dict[str, str], sub: str | None) -> Response:
    back = {"state": params["state"]} if "state" in params else {}
    if sub is None:
        back["error"] = "access_denied"
        return RedirectResponse(_with_query(params["redirect_uri"], back), status_code=303)
    code = provider.issue_code(
        sub, params["redirect_uri"], params["code_challenge"], params.get("nonce")
    )
    return RedirectResponse(_with_query(params["redirect_uri"], {**back, "code": code}), 303)


def _page(provider: Provider, params: dict[str, str]) -> HTMLResponse:
    hidden = "".join(
        f'<input type="hidden" name="{name}" value="{html.escape(params[name])}">'
        for name in AUTHORIZE_PARAMS
        if name in params
    )
    buttons = "".join(
        f'<button name="sub" value="{html.escape(u.sub)}">{html.escape(u.email)}</button> '
        for u in provider.users.values()
    )
    return HTMLResponse(
        "<!doctype html><html lang=en><head><meta charset=utf-8>"
        "<title>Local identity provider</title></head><body><main>"
        "<h1>Local identity provider</h1><p>Sign in as:</p>"
        f'<form method="post" action="/authorize">{hidden}{buttons}'
        '<button name="cancel" value="1">Cancel</button></form></main></body></html>'
    )


async def authorize(request: Request) -> Response:
    provider = _provider(request)
    if request.method == "POST":
        form = await request.form()
        params = {k: str(v) for k, v in form.items()}
    else:
        params = dict(request.query_params)
    problem = _authorize_problem(provider, params)
    if problem is not None:
        return HTMLResponse(f"<p>{html.escape(problem)}</p>", status_code=400)
    if params.get("cancel"):
        return _answer(provider, params, None)
    sub = params.get("sub") or _hinted(provider, params.get("login_hint"))
    if sub is not None and sub in provider.users:
        return _answer(provider, params, sub)
    return _page(provider, params)


def _hinted(provider: Provider, hint: str | None) -> str | None:
    if not hint:
        return None
    return next((u.sub for u in provider.users.values() if hint in (u.sub, u.email)), None)


def _client_credentials(request: Request, form: dict[str, str]) -> tuple[str | None, str | None]:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("basic "):
        try:
            decoded = base64.b64decode(header[6:]).decode("utf-8")
        except ValueError:
            return None, None
        client_id, _, secret = decoded.partition(":")
        return unquote_plus(client_id), unquote_plus(secret)
    return form.get("client_id"), form.get("client_secret")


async def token(request: Request) -> Response:
    provider = _provider(request)
    form = {k: str(v) for k, v in (await request.form()).items()}
    try:
        provider.authenticate(*_client_credentials(request, form))
        grant = form.get("grant_type")
        if grant == "authorization_code":
            tokens = provider.exchange(
                form.get("code", ""), form.get("redirect_uri"), form.get("code_verifier")
            )
        elif grant == "refresh_token":
            tokens = provider.refresh(form.get("refresh_token", ""))
        else:
            raise GrantError("unsupported_grant_type")
    except GrantError as exc:
        return JSONResponse({"error": exc.error}, status_code=exc.status)
    return JSONResponse(tokens, headers={"Cache-Control": "no-store"})


# /_control: what tests and developers change -------------------------------------------------


async def health(request: Request) -> Response:
    return JSONResponse({"ok": True})


async def put_user(request: Request) -> Response:
    body: dict[str, Any] = await request.json()
    user = User(
        sub=str(body["sub"]),
        email=str(body["email"]),
        email_verified=bool(body.get("email_verified", True)),
        amr=list(body.get("amr", ["pwd"])),
        acr=body.get("acr"),
    )
    _provider(request).users[user.sub] = user
    return JSONResponse({"sub": user.sub})


async def delete_user(request: Request) -> Response:
    removed = _provider(request).users.pop(request.path_params["sub"], None)
    return JSONResponse({"removed": removed is not None})


async def next_id_token(request: Request) -> Response:
    """`{"claims": {...}}` laid over the next ID token (a null removes a claim),
    `{"replay": true}`: the last ID token sent again, or `{"unpublishedKey": true}`: the next
    one signed by a key never published."""
    body: dict[str, Any] = await request.json()
    provider = _provider(request)
    provider.next_claims = dict(body.get("claims", {}))
    provider.replay_next = bool(body.get("replay", False))
    provider.unpublished_next = bool(body.get("unpublishedKey", False))
    return JSONResponse({"ok": True})


async def stats(request: Request) -> Response:
    """What a test counts: how often the keys were fetched."""
    return JSONResponse({"jwksFetches": _provider(request).jwks_fetches})


async def rotate_key(request: Request) -> Response:
    _provider(request).rotate_key()
    return JSONResponse({"kid": _provider(request).key.kid})


def create_app(provider: Provider) -> Starlette:
    app = Starlette(
        routes=[
            Route("/.well-known/openid-configuration", metadata),
            Route("/jwks", jwks),
            Route("/authorize", authorize, methods=["GET", "POST"]),
            Route("/token", token, methods=["POST"]),
            Route("/_control/health", health),
            Route("/_control/users", put_user, methods=["POST"]),
            Route("/_control/users/{sub}", delete_user, methods=["DELETE"]),
            Route("/_control/next-id-token", next_id_token, methods=["POST"]),
            Route("/_control/rotate-key", rotate_key, methods=["POST"]),
            Route("/_control/stats", stats),
        ]
    )
    app.state.provider = provider
    return app
