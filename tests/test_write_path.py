"""The one write path (realtime/changes.py), as the people on the other end see it, on both
databases: what follows a commit arrives in the documented order, and a refused write
leaves no trace on anyone's screen or in anyone's mailbox."""

import asyncio
from typing import Any

import socketio

from realtime.push import LocalManager, Publisher
from tests.support.booking import free_slots, person
from tests.support.clients import outbox


async def test_a_cancel_reaches_its_own_tab_in_the_documented_order(base_url: str) -> None:
    """Rows first (the appointment; the person's record keeps naming it and does not
    change), then the calendar with the time free again, and only then the end of the
    session, whose sockets then close."""
    async with person(base_url, complete=True) as someone:
        slot = (await free_slots(someone.sock))[5]
        month = f"vacancies/demo-clinic/cancer-b2b/{slot['start'][:7]}"
        assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
        for path in (someone.path, f"users/{someone.uid}", month):
            await someone.sock.subscribe(path)
        seen: list[tuple[str, Any]] = []
        ended = asyncio.Event()

        def on_snapshot(snapshot: dict[str, Any]) -> None:
            seen.append((snapshot["path"], snapshot["data"]))

        def on_session(data: dict[str, Any]) -> None:
            seen.append(("session", data["state"]))
            if data["state"] == "expired":
                ended.set()

        someone.sock.client.on("snapshot", on_snapshot)
        someone.sock.client.on("session", on_session)
        reply = await someone.call(
            "appointment-cancel", {"appointmentId": someone.appointment_id, "reason": "-"}
        )
        assert reply == {"data": {"status": "cancelled", "refund": None}}
        await asyncio.wait_for(ended.wait(), 10)
    order = [path for path, _ in seen]
    assert order == [someone.path, month, "session"], order
    appointment, calendar = (data for _, data in seen[:2])
    assert appointment["status"] == "cancelled"
    free = [s for s in calendar["slots"] if s["start"] == slot["start"]]
    assert free and slot["counselorIds"][0] in free[0]["counselorIds"]


async def test_a_refused_write_pushes_nothing_and_mails_nobody(base_url: str) -> None:
    """A submit refused inside its transaction (the terms not agreed to) publishes nothing:
    another tab following the appointment sees no new version, and no mail is queued."""
    async with person(base_url) as someone:
        slot = (await free_slots(someone.sock))[2]
        assert "data" in await someone.hold(slot["start"], slot["counselorIds"][0])
        before = (await someone.sock.subscribe(someone.path))["snapshot"]["version"]
        refused = await someone.call(
            "appointment-updateStatus",
            {"appointmentId": someone.appointment_id, "status": "submitted"},
        )
        assert refused["error"]["status"] == "INVALID_ARGUMENT"
        # A write that did commit, after the refused one: its push is the next one seen.
        assert "version" in await someone.sock.update(someone.path, {"agreedToTerms": False})
        await someone.sock.wait_for_version(someone.path, before + 1)
        assert someone.sock.versions(someone.path) == [before + 1]
        assert await outbox(base_url, someone.email) == []


async def test_a_session_ends_only_once_the_call_that_ended_it_has_returned() -> None:
    """python-socketio sends a call's reply when the handler's task ends: the sockets of a
    session cancelled by its own call close after that, however slow the rest of the call
    (a fixed half-second grace lost the reply of a cancel on a loaded CI machine)."""
    events: list[str] = []

    class Recording(Publisher):
        async def end_session(self, session_id: int) -> None:
            events.append(f"ended {session_id}")

    publisher = Recording(socketio.AsyncServer(client_manager=LocalManager()))

    async def call() -> None:
        publisher.end_session_after_reply(7)
        await asyncio.sleep(0.8)  # the refund, mails, ... after the commit
        events.append("replied")

    await asyncio.create_task(call())
    for _ in range(50):
        if events[-1:] != ["replied"]:
            break
        await asyncio.sleep(0.01)
    assert events == ["replied", "ended 7"]
