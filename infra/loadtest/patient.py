"""A simulated patient: signs in, opens an appointment, consents, saves the questionnaire
by live `update`s, watches the vacancies month, holds a free slot (another on refusal) and
submits; then starts over as a new person until the run stops (docs/loadtest.md)."""

import asyncio
import contextlib
import random
from typing import Any

from infra.loadtest.answers import ANSWERS_BY_CATEGORY, RETYPED_FIELD, RETYPED_NAMES
from infra.loadtest.context import Booking, Context, Expectation
from infra.loadtest.payment import pay
from infra.loadtest.wire import LOADTEST_DOMAIN, CallFailed, LiveSocket, session_token

# A journey that found the window full: the run then measures less than it says.
NO_FREE_SLOT = "no free slot"


async def patient(ctx: Context, number: int, delay: float) -> None:
    """One simulated person slot: arrives after `delay` (the ramp), then books again and
    again until the run stops."""
    await _pause(ctx, delay)
    journey = 0
    domain = LOADTEST_DOMAIN if ctx.options.loadtest_key else "example.com"
    while not ctx.stopping.is_set():
        ctx.recorder.count("patients started")
        try:
            await book(ctx, f"lt-{ctx.run_id}-{number}-{journey}@{domain}")
        except CallFailed:
            pass  # already counted as an error of its kind
        except Exception as exc:
            ctx.recorder.error(f"scenario:{type(exc).__name__}", repr(exc))
        ctx.recorder.count("patients ended")
        journey += 1
        await _pause(ctx, ctx.options.think)


async def _pause(ctx: Context, seconds: float) -> None:
    """Think time that ends early when the run stops."""
    if seconds > 0:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(ctx.stopping.wait(), seconds)


async def book(ctx: Context, email: str) -> None:
    opts = ctx.options
    token = await session_token(ctx.recorder, opts.url, email, opts.call_timeout, opts.loadtest_key)
    sock = LiveSocket(ctx.recorder, opts.url, token, opts.call_timeout)
    sock.on("snapshot", lambda push: _count_push(ctx, push))
    await sock.open()
    try:
        await _journey(ctx, sock, token)
    finally:
        await sock.close()


def _count_push(ctx: Context, push: dict[str, Any]) -> None:
    kind = str(push.get("path", "")).split("/", 1)[0]
    ctx.recorder.count(f"pushes {kind}")


async def _journey(ctx: Context, sock: LiveSocket, token: str) -> None:
    opts = ctx.options
    created = await sock.call(
        "appointment-create", {"clinicId": opts.clinic, "serviceId": ctx.service.id}
    )
    booking = Booking(created["data"]["appointmentId"], token)
    ctx.bookings.append(booking)
    path = f"appointments/{booking.appointment_id}"
    await sock.call(
        "appointment-consent",
        {"appointmentId": booking.appointment_id, "version": ctx.service.consent_version},
    )
    month = ctx.first_day.strftime("%Y-%m")
    await sock.subscribe("vacancies", f"vacancies/{opts.clinic}/{ctx.service.id}/{month}")
    for chunk in _save_chunks(ctx, opts.saves):
        if ctx.stopping.is_set():
            return
        try:
            await sock.update(path, chunk)
        except CallFailed:
            for name, value in chunk.items():
                booking.in_doubt.setdefault(name, []).append(value)
            raise
        booking.saved.update(chunk)  # acknowledged: it must be there at the end
        await _pause(ctx, opts.think)
    if ctx.stopping.is_set() or not await _hold(ctx, sock, booking):
        return
    await _pause(ctx, opts.think)
    if ctx.stopping.is_set():
        return
    sent = ctx.recorder.now()
    reply = await sock.call(
        "appointment-updateStatus",
        {"appointmentId": booking.appointment_id, "status": "submitted"},
    )
    status = str(reply["data"]["status"])
    booking.submitted = True
    ctx.expectations.append(Expectation(booking.appointment_id, status, sent, ctx.recorder.now()))
    ctx.recorder.count(f"bookings {status}")
    if status == "pending_payment":
        await _pause(ctx, opts.think)
        if not ctx.stopping.is_set():
            await pay(ctx, sock, booking)


def _save_chunks(ctx: Context, saves: int) -> list[dict[str, Any]]:
    """The answers in `saves` updates, each retyping the family name, the last agreeing to
    the terms (so the booking can be submitted)."""
    answers = list(ANSWERS_BY_CATEGORY[ctx.service.category].items())
    count = max(1, saves)
    chunks: list[dict[str, Any]] = [dict(answers[i::count]) for i in range(count)]
    for chunk in chunks:
        chunk[RETYPED_FIELD] = random.choice(RETYPED_NAMES)
    chunks[-1]["agreedToTerms"] = True
    return chunks


async def _hold(ctx: Context, sock: LiveSocket, booking: Booking) -> bool:
    """Hold one of the earliest free slots of the window, another one after each refusal
    (taken meanwhile); False when every attempt was refused or no slot is free."""
    opts = ctx.options
    reply = await sock.call(
        "vacancies-read",
        {
            "clinicId": opts.clinic,
            "serviceId": ctx.service.id,
            "from": ctx.first_day.isoformat(),
            "to": ctx.last_day.isoformat(),
        },
    )
    slots: list[dict[str, Any]] = reply["data"]["slots"][: opts.slot_choice]
    if not slots:
        ctx.recorder.count(NO_FREE_SLOT)
        return False
    for _ in range(opts.hold_attempts):
        if not slots or ctx.stopping.is_set():
            break
        slot = slots.pop(random.randrange(len(slots)))
        sent = ctx.recorder.now()
        held = await sock.call(
            "appointment-hold",
            {
                "appointmentId": booking.appointment_id,
                "start": slot["start"],
                "counselorId": random.choice(slot["counselorIds"]),
            },
            refusals=("ABORTED",),
        )
        if "data" in held:
            acked = ctx.recorder.now()
            ctx.expectations.append(Expectation(booking.appointment_id, "draft", sent, acked))
            ctx.recorder.count("holds")
            return True
    if not ctx.stopping.is_set():
        ctx.recorder.count("holds given up")
    return False
