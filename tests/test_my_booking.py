"""My booking (docs/protocol.md, "My appointments"): appointments-mine, the owner's .ics
download, and answers locked once an appointment is no longer a draft; on both databases."""

from datetime import datetime, timedelta
from typing import Any

import httpx
from icalendar import Calendar

from tests.support.booking import Person, free_slots, person
from tests.support.clients import connect, sign_in

CANCER_SESSION_MINUTES = 60  # the demo cancer-b2b service (storage/demo.py: the default)


async def book(someone: Person) -> dict[str, Any]:
    """Hold a free time and submit: the cancer service is free, so it is confirmed at once."""
    slot = (await free_slots(someone.sock))[3]
    await someone.hold(slot["start"], slot["counselorIds"][0])
    reply = await someone.call(
        "appointment-updateStatus",
        {"appointmentId": someone.appointment_id, "status": "submitted"},
    )
    assert reply == {"data": {"status": "confirmed"}}, reply
    return slot


async def mine(someone: Person) -> list[dict[str, Any]]:
    reply = await someone.call("appointments-mine", {})
    listed: list[dict[str, Any]] = reply["data"]["appointments"]
    return listed


async def test_mine_lists_own_appointments_newest_first_and_locks_answers(base_url: str) -> None:
    staff = await sign_in(base_url, "staff@demo-clinic.example")
    async with (
        person(base_url, complete=True) as someone,
        person(base_url) as other,
        connect(base_url, staff.token) as desk,
    ):
        slot = await book(someone)
        [booked] = await mine(someone)
        document = await someone.document()
        start = datetime.fromisoformat(slot["start"])
        assert booked == {
            "id": someone.appointment_id,
            "clinicId": "demo-clinic",
            "serviceId": "cancer-b2b",
            "status": "confirmed",
            "date": document["date"],
            "time": document["time"],
            "timezone": "Asia/Tokyo",
            "personTimezone": document["personTimezone"],
            "start": start.isoformat(),
            "end": (start + timedelta(minutes=CANCER_SESSION_MINUTES)).isoformat(),
            "counselorId": slot["counselorIds"][0],
            "payment": None,
            "cancellation": None,
            "joinUrl": document["joinUrl"],
            "created": document["created"],
        }
        assert booked["joinUrl"].startswith("https://")

        # Answers are locked once booked: ABORTED naming the status, not a validation error.
        refused = await someone.sock.update(someone.path, {"intake.requests.isDepressed": 1})
        assert refused["error"]["status"] == "ABORTED", refused
        assert refused["error"]["details"] == {"status": "confirmed"}

        # After it ended a new appointment opens; the list gives the newest first, and the
        # ended one without its join link.
        outcome = {"appointmentId": someone.appointment_id, "status": "completed"}
        assert (await desk.call("appointment-updateStatus", outcome))["data"] == {
            "status": "completed"
        }
        created = await someone.call("appointment-create", {})
        newer = created["data"]["appointmentId"]
        assert newer != someone.appointment_id
        listed = await mine(someone)
        assert [a["id"] for a in listed] == [newer, someone.appointment_id]
        assert listed[0]["status"] == "draft" and listed[0]["start"] is None
        assert listed[1]["status"] == "completed" and listed[1]["joinUrl"] is None

        # Nobody else's, ever; input is strict; signed out is refused.
        assert [a["id"] for a in await mine(other)] == [other.appointment_id]
        assert (await other.call("appointments-mine", {"userId": someone.uid}))["error"][
            "status"
        ] == "INVALID_ARGUMENT"
    async with httpx.AsyncClient(base_url=base_url) as http:
        anonymous = await http.post("/functions/appointments-mine", json={"data": {}})
    assert anonymous.status_code == 401


async def test_the_owner_downloads_the_event_of_the_mails(base_url: str) -> None:
    async with person(base_url, complete=True) as someone, person(base_url) as other:
        address = f"/calendar/appointments/{someone.appointment_id}.ics"
        async with httpx.AsyncClient(base_url=base_url) as http:
            # No time booked yet: nothing to add to a calendar.
            draft = await http.get(address, headers={"Authorization": f"Bearer {someone.token}"})
            assert draft.status_code == 404
            slot = await book(someone)
            snapshot = (await someone.sock.subscribe(someone.path))["snapshot"]
            document = snapshot["data"]
            own = await http.get(address, headers={"Authorization": f"Bearer {someone.token}"})
            others = await http.get(address, headers={"Authorization": f"Bearer {other.token}"})
            anonymous = await http.get(address)
            unknown = await http.get(
                "/calendar/appointments/no-such-id.ics",
                headers={"Authorization": f"Bearer {someone.token}"},
            )
    assert own.status_code == 200, own.text
    assert own.headers["content-type"].startswith("text/calendar")
    assert "no-store" in own.headers["cache-control"]
    [event] = Calendar.from_ical(own.content).walk("VEVENT")
    assert str(event["uid"]) == f"{someone.appointment_id}@genecounsel"
    assert event.decoded("sequence") == snapshot["version"]  # as in the mails: the version
    assert event.decoded("dtstart") == datetime.fromisoformat(slot["start"])
    assert event.decoded("dtend") - event.decoded("dtstart") == timedelta(
        minutes=CANCER_SESSION_MINUTES
    )
    assert str(event["url"]) == document["joinUrl"]
    for refused in (others, anonymous, unknown):
        assert refused.status_code == 404
        assert refused.json()["error"]["status"] == "NOT_FOUND"
