"""Test-control routes under `/_control/` (not part of Stripe's API; no key needed).

A `?wait=1` query on the routes that send an event answers only once that delivery has
finished (succeeded, or failed after its retries), so a test can assert right after it.
"""

import asyncio
import json
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from infra.stripe_local.api import service_of
from infra.stripe_local.errors import StripeError, invalid
from infra.stripe_local.webhooks import Delivery

WAIT_SECONDS = 60.0


async def _json_body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if not raw.strip():
        return {}
    try:
        body = json.loads(raw)
    except ValueError as exc:
        raise StripeError(400, f"Invalid JSON body: {exc}") from exc
    if not isinstance(body, dict):
        raise StripeError(400, "The JSON body must be an object.")
    return body


def _wants_wait(request: Request) -> bool:
    return request.query_params.get("wait", "").lower() in ("1", "true", "yes")


async def _wait(deliveries: list[Delivery]) -> None:
    waits = [asyncio.wait_for(d.done.wait(), WAIT_SECONDS) for d in deliveries]
    await asyncio.gather(*waits, return_exceptions=True)


def _error(error: StripeError) -> JSONResponse:
    return JSONResponse(error.body(), error.status)


async def health(request: Request) -> Response:
    service = service_of(request)
    return JSONResponse({"status": "ok", "webhook_url": service.webhooks.url})


async def reset(request: Request) -> Response:
    service = service_of(request)
    async with service.lock:
        await service.reset()
    return JSONResponse({"reset": True})


async def pay(request: Request) -> Response:
    service = service_of(request)
    try:
        body = await _json_body(request)
        for name in ("card", "email", "name"):
            if body.get(name) is not None and not isinstance(body[name], str):
                raise invalid(name, f"{name} must be a string")
        async with service.lock:
            before = set(service.events)
            session = service.pay(
                str(request.path_params["id"]),
                card=body.get("card"),
                email=body.get("email"),
                name=body.get("name"),
            )
            new_events = [e for e in service.events.values() if e.id not in before]
            deliveries = [d for e in new_events for d in service.deliveries[e.id]]
        if _wants_wait(request):
            await _wait(deliveries)
        return JSONResponse(
            {
                "session": service.session_json(session),
                "payment_intent": service.payment_intents[session.payment_intent].to_json()
                if session.payment_intent
                else None,
                "events": [service.event_record(e) for e in new_events],
            }
        )
    except StripeError as error:
        return _error(error)


async def timeout(request: Request) -> Response:
    service = service_of(request)
    try:
        async with service.lock:
            before = set(service.events)
            session = service.timeout_session(str(request.path_params["id"]))
            new_events = [e for e in service.events.values() if e.id not in before]
            deliveries = [d for e in new_events for d in service.deliveries[e.id]]
        if _wants_wait(request):
            await _wait(deliveries)
        return JSONResponse(
            {
                "session": service.session_json(session),
                "events": [service.event_record(e) for e in new_events],
            }
        )
    except StripeError as error:
        return _error(error)


async def fire(request: Request) -> Response:
    service = service_of(request)
    try:
        body = await _json_body(request)
        event_type = body.get("type")
        if not isinstance(event_type, str):
            raise invalid("type", "Missing required param: type.")
        async with service.lock:
            event = service.fire(str(request.path_params["id"]), event_type)
        if _wants_wait(request):
            await _wait(service.deliveries[event.id])
        return JSONResponse(service.event_record(event))
    except StripeError as error:
        return _error(error)


async def resend(request: Request) -> Response:
    service = service_of(request)
    try:
        async with service.lock:
            delivery = service.resend(str(request.path_params["event_id"]))
        if _wants_wait(request):
            await _wait([delivery])
        return JSONResponse(delivery.to_json())
    except StripeError as error:
        return _error(error)


async def session_state(request: Request) -> Response:
    """A session with its payment, charge (refunded amount), refunds and events."""
    service = service_of(request)
    try:
        async with service.lock:
            session = service.get_session(str(request.path_params["id"]))
            service.sweep_session(session)
        pi = service.payment_intents.get(session.payment_intent or "")
        return JSONResponse(
            {
                "session": service.session_json(session),
                "payment_intent": pi.to_json() if pi else None,
                "charge": service.charge_json(pi) if pi else None,
                "refunds": [service.refunds[r].to_json() for r in pi.refund_ids] if pi else [],
                "events": [
                    service.event_record(e)
                    for e in service.events.values()
                    if e.session_id == session.id
                ],
            }
        )
    except StripeError as error:
        return _error(error)


async def list_events(request: Request) -> Response:
    service = service_of(request)
    events = list(service.events.values())
    wanted_type = request.query_params.get("type")
    wanted_session = request.query_params.get("session")
    if wanted_type:
        events = [e for e in events if e.type == wanted_type]
    if wanted_session:
        events = [e for e in events if e.session_id == wanted_session]
    return JSONResponse({"data": [service.event_record(e) for e in events]})


async def get_event(request: Request) -> Response:
    service = service_of(request)
    try:
        event = service.get_event(str(request.path_params["event_id"]))
        return JSONResponse(service.event_record(event))
    except StripeError as error:
        return _error(error)


async def config(request: Request) -> Response:
    """GET: the webhook settings; POST {"webhook_url", "webhook_secret"}: change them."""
    service = service_of(request)
    if request.method == "POST":
        try:
            body = await _json_body(request)
        except StripeError as error:
            return _error(error)
        settings = service.webhooks
        if "webhook_url" in body:
            url = body["webhook_url"]
            if url is not None and not isinstance(url, str):
                return _error(invalid("webhook_url", "webhook_url must be a string or null"))
            settings.url = url or None
        if "webhook_secret" in body:
            secret = body["webhook_secret"]
            if not isinstance(secret, str) or not secret:
                return _error(invalid("webhook_secret", "webhook_secret must be a string"))
            settings.secret = secret
    return JSONResponse(
        {
            "webhook_url": service.webhooks.url,
            "webhook_secret_set": bool(service.webhooks.secret),
            "webhook_attempts": service.webhooks.attempts,
            "webhook_backoff": service.webhooks.backoff,
            "public_url": service.public_url,
        }
    )


def routes() -> list[BaseRoute]:
    return [
        Route("/_control/health", health, methods=["GET"]),
        Route("/_control/reset", reset, methods=["POST"]),
        Route("/_control/config", config, methods=["GET", "POST"]),
        Route("/_control/sessions/{id}", session_state, methods=["GET"]),
        Route("/_control/sessions/{id}/pay", pay, methods=["POST"]),
        Route("/_control/sessions/{id}/fire", fire, methods=["POST"]),
        Route("/_control/sessions/{id}/timeout", timeout, methods=["POST"]),
        Route("/_control/events", list_events, methods=["GET"]),
        Route("/_control/events/{event_id}", get_event, methods=["GET"]),
        Route("/_control/events/{event_id}/resend", resend, methods=["POST"]),
    ]
