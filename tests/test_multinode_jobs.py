"""Issue #19: the jobs that move money or forget personal data, triggered on two nodes at once
(two real processes on one PostgreSQL and one Redis, several rounds), handle each item once:
one refund at the payment provider (infra/stripe_local) and one notice of it, one
confirmation of a payment whose webhook was lost, one de-identification of a retained
appointment, one purge of an unsubmitted intake (each a single new version of its document).

Hold expiry and reminders across nodes: tests/test_multinode.py; mail delivery:
tests/test_mail_delivery.py."""

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from pathlib import Path

import pytest
import pytest_asyncio
from sqlmodel import select

from storage.db import open_database
from storage.models import DEFAULT_RETENTION_DAYS, Appointment
from tests.support.booking import Person, person, run_job
from tests.support.clients import call_http, outbox, sign_in
from tests.support.multinode import two_nodes
from tests.support.relay import Relay
from tests.support.server import ServerProcess
from tests.support.stripe_local import StripeLocal
from tests.test_erasure import book, tokyo_noon
from tests.test_payments import checkout, hold_first_free, settled
from tests.test_refunds import paid_booking, payment_of, refunds_at_provider
from tests.test_staff_signin import ADMIN

TEMPLATES = Path(__file__).resolve().parents[1] / "realtime" / "mail" / "templates"
CLINIC = "contact@demo-clinic.example"
# Both nodes are asked ROUNDS times, PER_NODE requests each at once in every round.
ROUNDS = 3
PER_NODE = 2
# Appointments of each kind per test: enough for the two nodes' runs to overlap on them.
ITEMS = 4


@dataclass
class Pair:
    a: ServerProcess
    b: ServerProcess
    stripe: StripeLocal
    # The nodes reach the provider through it: cut, their calls fail as in a network outage.
    relay: Relay

    @property
    def nodes(self) -> tuple[ServerProcess, ServerProcess]:
        return (self.a, self.b)

    def node(self, n: int) -> ServerProcess:
        """The nodes in turn: items are made through both."""
        return self.nodes[n % 2]


@pytest_asyncio.fixture(scope="module")
async def pair(tmp_path_factory: pytest.TempPathFactory) -> AsyncIterator[Pair]:
    logs = tmp_path_factory.mktemp("jobs-nodes")
    # Its webhook is pointed at node a once node a has a port.
    stripe = StripeLocal(webhook_url="http://127.0.0.1:9/none", log_path=logs / "stripe.log")
    await asyncio.to_thread(stripe.start)
    relay = await Relay(stripe.port).start()
    # The scheduler stays out of the way: each job run here is one the test asked for.
    env = {**stripe.server_env(), "STRIPE_API_BASE": relay.url, "JOB_INTERVAL_SECONDS": "3600"}
    try:
        async with two_nodes(logs, env) as (a, b):
            await stripe.control("POST", "/config", json={"webhook_url": webhook(a)})
            a.payments = b.payments = stripe
            yield Pair(a, b, stripe, relay)
    finally:
        await relay.stop()
        stripe.stop()


def webhook(node: ServerProcess) -> str:
    return f"{node.url}/stripe/webhook"


async def on_both(pair: Pair, job: str, now: datetime) -> list[int]:
    """`job` triggered on both nodes together, ROUNDS times; what each run reported done."""
    done: list[int] = []
    for _ in range(ROUNDS):
        runs = [run_job(node.url, job, now) for node in pair.nodes for _ in range(PER_NODE)]
        done += await asyncio.gather(*runs)
    return done


def subject_start(template: str) -> tuple[str, ...]:
    """The fixed beginning of a template's subject in each language (up to its first value;
    the mail's subject has the product's name before it)."""
    return tuple(
        (TEMPLATES / lang / f"{template}.subject.txt").read_text().split("{{")[0].strip()
        for lang in ("ja", "en")
    )


async def mails(node: ServerProcess, address: str, template: str, about: str = "") -> int:
    """How many mails of `template` went to `address` (whose subject names `about`)."""
    start = subject_start(template)
    return sum(
        1
        for mail in await outbox(node.url, address)
        if any(fixed in mail["subject"] for fixed in start) and about in mail["subject"]
    )


async def until(check: Callable[[], Awaitable[bool]], what: str, seconds: float = 20.0) -> None:
    deadline = time.monotonic() + seconds
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"not seen in {seconds:.0f} s: {what}")
        await asyncio.sleep(0.1)


async def versions(node: ServerProcess) -> dict[str, int]:
    """Every appointment's version, as stored."""
    db = open_database(node.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            rows = await session.exec(select(Appointment.id, Appointment.version))
            return {appointment_id: version for appointment_id, version in rows.all()}
    finally:
        await db.close()


async def stored(node: ServerProcess, appointment_id: str) -> Appointment:
    db = open_database(node.env["DATABASE_URL"])
    try:
        async with db.read() as session:
            row = await session.get(Appointment, appointment_id)
    finally:
        await db.close()
    assert row is not None
    return row


def each_changed_once(before: dict[str, int], after: dict[str, int], done: int) -> set[str]:
    """The appointments a job changed: each by exactly one version, and as many as the runs
    of both nodes together reported done (none counted by two runs)."""
    changed = {key for key, version in after.items() if version != before.get(key)}
    assert {key: after[key] - before[key] for key in changed} == dict.fromkeys(changed, 1)
    assert done == len(changed), (done, len(changed))
    return changed


async def test_refunds_left_pending_are_made_once_by_two_nodes(pair: Pair) -> None:
    """The clinic cancels paid bookings while the provider is unreachable: each refund is
    left `refund_pending`. Reconciliation on both nodes at once then refunds each payment
    once at the provider, records it once, and mails the person and the clinic once."""
    staff = await sign_in(pair.a.url, ADMIN)
    async with AsyncExitStack() as stack:
        people = [await stack.enter_async_context(paid_booking(pair.node(n))) for n in range(ITEMS)]
        pair.relay.cut()
        try:
            for n, someone in enumerate(people):
                cancel = {
                    "appointmentId": someone.appointment_id,
                    "reason": "急病のため",
                    "byClinic": True,
                }
                code, reply = await call_http(
                    pair.node(n + 1).url, "appointment-cancel", cancel, staff.token
                )
                assert code == 200, reply
                assert reply["data"]["refund"]["status"] == "refund_pending"
            await until(lambda: refunds_failed(pair, people), "each refund call failing")
            for someone in people:
                assert (await payment_of(pair.a, someone))["status"] == "refund_pending"
        finally:
            pair.relay.restore()
        done = await on_both(pair, "reconcile-payments", datetime.now(UTC))
    assert sum(done) >= ITEMS
    for someone in people:
        payment = await payment_of(pair.a, someone)
        assert payment["status"] == "refunded" and payment["refundId"], payment
        refunds = await refunds_at_provider(pair.a, someone)
        assert [(r["id"], r["amount"]) for r in refunds] == [
            (payment["refundId"], payment["refundAmount"])
        ]
        assert await mails(pair.a, someone.email, "payment_refunded_cancelled") == 1
        assert await mails(pair.b, CLINIC, "payment_refunded_clinic", someone.appointment_id) == 1


async def refunds_failed(pair: Pair, people: list[Person]) -> bool:
    """Every cancel's refund call was made and failed (the nodes log each failure)."""
    logs = "".join(node.log_path.read_text(errors="replace") for node in pair.nodes)
    return all(f"refund of {p.appointment_id} failed" in logs for p in people)


async def test_payments_whose_webhook_was_lost_are_confirmed_once_by_two_nodes(
    pair: Pair,
) -> None:
    """Paid at the provider while its webhook could not reach the product: reconciliation on
    both nodes at once confirms each booking once (one confirmation mail) and refunds none."""
    async with AsyncExitStack() as stack:
        people: list[Person] = []
        for n in range(ITEMS):
            someone = await stack.enter_async_context(
                person(pair.node(n).url, "prenatal", complete=True)
            )
            await hold_first_free(someone)
            submitted = await someone.call(
                "appointment-updateStatus",
                {"appointmentId": someone.appointment_id, "status": "submitted"},
            )
            assert submitted == {"data": {"status": "pending_payment"}}, submitted
            people.append(someone)
        sessions = [(await checkout(someone))["sessionId"] for someone in people]
        await pair.stripe.control("POST", "/config", json={"webhook_url": "http://127.0.0.1:9/x"})
        try:
            for session in sessions:
                await pair.stripe.control("POST", f"/sessions/{session}/pay")
        finally:
            await pair.stripe.control("POST", "/config", json={"webhook_url": webhook(pair.a)})
        done = await on_both(pair, "reconcile-payments", datetime.now(UTC))
        assert sum(done) >= 1
        for someone in people:
            assert (await settled(someone, "paid"))["status"] == "confirmed"
    for someone, session in zip(people, sessions, strict=True):
        assert await mails(pair.a, someone.email, "booking_confirmed") == 1
        detail = await pair.stripe.control("GET", f"/sessions/{session}")
        assert detail["refunds"] == []


async def test_retained_appointments_are_forgotten_once_by_two_nodes(pair: Pair) -> None:
    async with AsyncExitStack() as stack:
        people = [
            await stack.enter_async_context(person(pair.node(n).url, complete=True))
            for n in range(ITEMS)
        ]
        for n, someone in enumerate(people):
            await book(someone, 3 + n)
            cancel = {"appointmentId": someone.appointment_id, "reason": "都合により"}
            assert "data" in await someone.call("appointment-cancel", cancel)
    days = [(await stored(pair.a, p.appointment_id)).date for p in people]
    last = max(date.fromisoformat(day) for day in days if day is not None)
    now = tokyo_noon(last + timedelta(days=DEFAULT_RETENTION_DAYS + 1))
    before = await versions(pair.a)
    done = await on_both(pair, "purge-retained", now)
    changed = each_changed_once(before, await versions(pair.b), sum(done))
    for someone in people:
        assert someone.appointment_id in changed
        row = await stored(pair.b, someone.appointment_id)
        assert row.intake == {} and row.cancellation is not None
        assert "reason" not in row.cancellation
    assert await on_both(pair, "purge-retained", now) == [0] * ROUNDS * PER_NODE * 2


async def test_unsubmitted_intakes_are_purged_once_by_two_nodes(pair: Pair) -> None:
    async with AsyncExitStack() as stack:
        people = [
            await stack.enter_async_context(person(pair.node(n).url, complete=True))
            for n in range(ITEMS)
        ]
    now = datetime.now(UTC) + timedelta(days=2)  # past the end of their day in any zone
    before = await versions(pair.a)
    done = await on_both(pair, "purge-intake", now)
    changed = each_changed_once(before, await versions(pair.b), sum(done))
    for someone in people:
        assert someone.appointment_id in changed
        row = await stored(pair.b, someone.appointment_id)
        assert row.intake == {} and row.consent is None and row.status == "draft"
