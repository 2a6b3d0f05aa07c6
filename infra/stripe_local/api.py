"""The `/v1` routes: Stripe's API as the SDK calls it (form bodies, Bearer keys, idempotency)."""

import base64
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from infra.stripe_local.errors import StripeError, invalid
from infra.stripe_local.forms import parse_form
from infra.stripe_local.models import JSON, new_id
from infra.stripe_local.service import IdempotentResult, RequestInfo, StripeLocal


@dataclass
class Call:
    """One API call as a handler sees it."""

    params: dict[str, Any]
    path: dict[str, str]
    info: RequestInfo
    api_version: str | None

    def expand(self) -> list[str]:
        value = self.params.get("expand")
        if value is None:
            return []
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise invalid("expand", "Invalid array: expand must be a list of strings")
        return list(value)


Handler = Callable[[StripeLocal, Call], JSON]


def service_of(request: Request) -> StripeLocal:
    service: StripeLocal = request.app.state.stripe
    if service.public_url is None:
        service.public_url = str(request.base_url).rstrip("/")
    return service


def authenticate(request: Request) -> str:
    """The secret key of the request: `Authorization: Bearer sk_test_...` (or Basic, as curl -u)."""
    header = request.headers.get("authorization", "")
    scheme, _, credentials = header.partition(" ")
    key = ""
    if scheme.lower() == "bearer":
        key = credentials.strip()
    elif scheme.lower() == "basic":
        try:
            key = base64.b64decode(credentials).decode().partition(":")[0]
        except ValueError:
            key = credentials
    if not key:
        raise StripeError(
            401,
            "You did not provide an API key. You need to provide your API key in the "
            "Authorization header, using Bearer auth (e.g. 'Authorization: Bearer "
            "YOUR_SECRET_KEY'). See https://stripe.com/docs/api#authentication for details, "
            "or we can help at https://support.stripe.com/.",
        )
    if not key.startswith("sk_test_") or len(key) <= len("sk_test_"):
        shown = key[:8] + "*" * max(0, len(key) - 12) + key[-4:] if len(key) > 12 else key
        raise StripeError(401, f"Invalid API Key provided: {shown}", code="api_key_invalid")
    return key


def endpoint(handler: Handler) -> Callable[[Request], Awaitable[Response]]:
    async def run(request: Request) -> Response:
        request_id = new_id("req_", 14)
        headers = {"Request-Id": request_id}
        api_version = request.headers.get("stripe-version")
        if api_version:
            headers["Stripe-Version"] = api_version
        try:
            api_key = authenticate(request)
            service = service_of(request)
            if request.method == "POST":
                params = parse_form(await request.body())
            else:
                params = parse_form(request.url.query)
            key = request.headers.get("idempotency-key") if request.method == "POST" else None
            call = Call(
                params=params,
                path={k: str(v) for k, v in request.path_params.items()},
                info=RequestInfo(id=request_id, idempotency_key=key),
                api_version=api_version,
            )
            async with service.lock:
                if key:
                    saved = service.idempotency.get((api_key, key))
                    if saved is not None:
                        _check_same_request(saved, request, params, key)
                        headers["Idempotent-Replayed"] = "true"
                        return JSONResponse(saved.body, saved.status, headers=headers)
                body = handler(service, call)
                if key:
                    service.idempotency[(api_key, key)] = IdempotentResult(
                        method=request.method,
                        path=request.url.path,
                        params=params,
                        status=200,
                        body=body,
                    )
            return JSONResponse(body, 200, headers=headers)
        except StripeError as error:
            if error.status == 401:
                headers["WWW-Authenticate"] = 'Basic realm="Stripe"'
            return JSONResponse(error.body(), error.status, headers=headers)

    return run


def _check_same_request(
    saved: IdempotentResult, request: Request, params: dict[str, Any], key: str
) -> None:
    if saved.path != request.url.path or saved.method != request.method:
        raise StripeError(
            400,
            "Keys for idempotent requests can only be used for the same endpoint they were "
            f"first used for ('{request.method} {request.url.path}' vs "
            f"'{saved.method} {saved.path}'). Try using a key other than '{key}' if you meant "
            "to execute a different request.",
            type="idempotency_error",
        )
    if saved.params != params:
        raise StripeError(
            400,
            "Keys for idempotent requests can only be used with the same parameters they were "
            f"first used with. Try using a key other than '{key}' if you meant to execute a "
            "different request.",
            type="idempotency_error",
        )


# ----- handlers -----


def create_session(service: StripeLocal, call: Call) -> JSON:
    expand = call.expand()
    session = service.create_session(call.params, api_version=call.api_version)
    return service.session_json(session, expand)


def retrieve_session(service: StripeLocal, call: Call) -> JSON:
    session = service.get_session(call.path["id"])
    service.sweep_session(session)
    return service.session_json(session, call.expand())


def list_sessions(service: StripeLocal, call: Call) -> JSON:
    sessions = sorted(service.sessions.values(), key=lambda s: s.created, reverse=True)
    for session in sessions:
        service.sweep_session(session)
    for name in ("payment_intent", "status", "client_reference_id"):
        wanted = call.params.get(name)
        if wanted is not None:
            sessions = [s for s in sessions if getattr(s, name) == wanted]
    return _list("/v1/checkout/sessions", [service.session_json(s) for s in sessions], call.params)


def session_line_items(service: StripeLocal, call: Call) -> JSON:
    return service.get_session(call.path["id"]).line_items_json()


def expire_session(service: StripeLocal, call: Call) -> JSON:
    expand = call.expand()
    session = service.expire_session(call.path["id"], call.info)
    return service.session_json(session, expand)


def create_refund(service: StripeLocal, call: Call) -> JSON:
    refund = service.create_refund(call.params)
    return refund.to_json()


def retrieve_refund(service: StripeLocal, call: Call) -> JSON:
    return service.get_refund(call.path["id"]).to_json()


def retrieve_payment_intent(service: StripeLocal, call: Call) -> JSON:
    pi = service.get_payment_intent(call.path["id"])
    return service.payment_intent_json(pi, call.expand())


def retrieve_charge(service: StripeLocal, call: Call) -> JSON:
    return service.charge_json(service.get_charge(call.path["id"]))


def retrieve_event(service: StripeLocal, call: Call) -> JSON:
    return service.event_json(service.get_event(call.path["id"]))


def list_events(service: StripeLocal, call: Call) -> JSON:
    events = list(reversed(service.events.values()))
    wanted = call.params.get("type")
    if wanted is not None:
        events = [e for e in events if e.type == wanted]
    return _list("/v1/events", [service.event_json(e) for e in events], call.params)


def _list(url: str, data: list[JSON], params: dict[str, Any]) -> JSON:
    limit = 10
    if "limit" in params:
        raw = params["limit"]
        if not isinstance(raw, str) or not raw.isdigit() or not 1 <= int(raw) <= 100:
            raise invalid("limit", "Invalid integer: limit must be between 1 and 100")
        limit = int(raw)
    return {"object": "list", "data": data[:limit], "has_more": len(data) > limit, "url": url}


async def not_found(request: Request) -> Response:
    error = StripeError(
        404,
        f"Unrecognized request URL ({request.method}: {request.url.path}). Please see "
        "https://stripe.com/docs or we can help at https://support.stripe.com/.",
    )
    return JSONResponse(error.body(), 404)


def routes() -> list[BaseRoute]:
    return [
        Route("/v1/checkout/sessions", endpoint(create_session), methods=["POST"]),
        Route("/v1/checkout/sessions", endpoint(list_sessions), methods=["GET"]),
        Route("/v1/checkout/sessions/{id}", endpoint(retrieve_session), methods=["GET"]),
        Route(
            "/v1/checkout/sessions/{id}/line_items",
            endpoint(session_line_items),
            methods=["GET"],
        ),
        Route("/v1/checkout/sessions/{id}/expire", endpoint(expire_session), methods=["POST"]),
        Route("/v1/refunds", endpoint(create_refund), methods=["POST"]),
        Route("/v1/refunds/{id}", endpoint(retrieve_refund), methods=["GET"]),
        Route("/v1/payment_intents/{id}", endpoint(retrieve_payment_intent), methods=["GET"]),
        Route("/v1/charges/{id}", endpoint(retrieve_charge), methods=["GET"]),
        Route("/v1/events", endpoint(list_events), methods=["GET"]),
        Route("/v1/events/{id}", endpoint(retrieve_event), methods=["GET"]),
        Route("/v1/{rest:path}", not_found, methods=["GET", "POST", "DELETE"]),
    ]
