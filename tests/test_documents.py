"""Live documents: snapshots, versioned pushes after commit, rules on every path."""

import asyncio
from typing import Any

import pytest

from tests.support.clients import Account, Socket, connect


def error_status(reply: dict[str, Any]) -> str:
    status: str = reply["error"]["status"]
    return status


async def new_appointment(sock: Socket) -> str:
    reply = await sock.call("appointment-create", {"clinicId": "demo-clinic", "serviceId": "pgt"})
    appointment_id: str = reply["data"]["appointmentId"]
    return appointment_id


async def test_own_user_record_snapshot(base_url: str, alice: Account) -> None:
    async with connect(base_url, alice.token) as sock:
        reply = await sock.subscribe(f"users/{alice.uid}")
    snapshot = reply["snapshot"]
    assert snapshot["path"] == f"users/{alice.uid}"
    assert snapshot["exists"] is True
    assert snapshot["version"] >= 1
    assert set(snapshot["data"]) == {"appointmentId", "locale", "updated", "userAgent", "version"}


async def test_update_is_pushed_to_every_subscriber_with_a_rising_version(
    base_url: str, alice: Account
) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as tab1, connect(base_url, alice.token) as tab2:
        start = (await tab1.subscribe(path))["snapshot"]["version"]
        await tab2.subscribe(path)
        reply = await tab1.update(path, {"locale": "en", "userAgent": "pytest"})
        assert reply == {"version": start + 1}
        await tab2.wait_for_version(path, start + 1)
        pushed = tab2.pushes[path][-1]
        assert pushed["data"]["locale"] == "en"
        assert pushed["data"]["userAgent"] == "pytest"
        assert pushed["data"]["updated"]  # the server adds the update time
        await tab1.update(path, {"locale": None})
        await tab2.wait_for_version(path, start + 2)
        assert tab2.pushes[path][-1]["data"]["locale"] is None


async def test_a_push_arrives_only_after_its_commit(base_url: str, alice: Account) -> None:
    """Whoever reads right after a push sees at least the pushed version."""
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as writer, connect(base_url, alice.token) as reader:
        await reader.subscribe(path)
        for n in range(5):
            version = (await writer.update(path, {"userAgent": f"ua-{n}"}))["version"]
            await reader.wait_for_version(path, version)
            async with connect(base_url, alice.token) as fresh:
                snapshot = (await fresh.subscribe(path))["snapshot"]
            assert snapshot["version"] >= version
            assert snapshot["data"]["userAgent"] in {f"ua-{n}", *(f"ua-{m}" for m in range(n, 5))}


async def test_concurrent_updates_arrive_in_commit_order(base_url: str, alice: Account) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as watcher:
        start = (await watcher.subscribe(path))["snapshot"]["version"]
        writers = [connect(base_url, alice.token) for _ in range(4)]
        socks = [await w.__aenter__() for w in writers]
        try:
            replies = await asyncio.gather(
                *(
                    s.update(path, {"userAgent": f"w{i}-{n}"})
                    for i, s in enumerate(socks)
                    for n in range(5)
                )
            )
        finally:
            for w in writers:
                await w.__aexit__(None, None, None)
        final = start + 20
        assert sorted(r["version"] for r in replies) == list(range(start + 1, final + 1))
        await watcher.wait_for_version(path, final)
        seen = watcher.versions(path)
        assert seen == sorted(seen) and len(seen) == len(set(seen)), seen
        assert seen[-1] == final


async def test_updates_and_server_functions_writing_one_record_lose_nothing(
    base_url: str, bob: Account
) -> None:
    """Client updates (their own write path) race a callable writing the same user row."""
    path = f"users/{bob.uid}"
    async with connect(base_url, bob.token) as watcher, connect(base_url, bob.token) as writer:
        start = (await watcher.subscribe(path))["snapshot"]["version"]
        results = await asyncio.gather(
            *(writer.update(path, {"userAgent": f"race-{n}"}) for n in range(10)),
            writer.call("appointment-create", {"clinicId": "demo-clinic", "serviceId": "pgt"}),
        )
        created = results[-1]["data"]["appointmentId"]
        versions = sorted(r["version"] for r in results[:-1])
        assert len(set(versions)) == 10 and versions[-1] <= start + 11
        await watcher.wait_for_version(path, start + 11)
        final = watcher.pushes[path][-1]
        assert final["version"] == start + 11
        assert final["data"]["appointmentId"] == created
        assert final["data"]["userAgent"] in {f"race-{n}" for n in range(10)}


async def test_resubscribing_with_a_held_version_gives_the_current_snapshot(
    base_url: str, alice: Account
) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as sock:
        held = (await sock.subscribe(path))["snapshot"]["version"]
    async with connect(base_url, alice.token) as other:
        await other.update(path, {"userAgent": "changed while away"})
    async with connect(base_url, alice.token) as back:
        snapshot = (await back.subscribe(path, version=held))["snapshot"]
    assert snapshot["version"] == held + 1
    assert snapshot["data"]["userAgent"] == "changed while away"


async def test_one_bad_field_refuses_the_whole_update(base_url: str, alice: Account) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as sock:
        before = (await sock.subscribe(path))["snapshot"]
        reply = await sock.update(path, {"userAgent": "kept?", "locale": "fr", "status": "x"})
        assert error_status(reply) == "INVALID_ARGUMENT"
        assert set(reply["error"]["details"]["fields"]) == {"locale", "status"}
        after = (await sock.subscribe(path))["snapshot"]
    assert after["version"] == before["version"]
    assert after["data"] == before["data"]
    assert path not in sock.pushes


@pytest.mark.parametrize(
    "data",
    [
        {},
        [],
        "locale",
        {"locale": 1},
        {"userAgent": "x" * 513},
        {"version": ["1"]},
        {"appointmentId": "someone-elses"},
        {"updated": "2020-01-01"},
    ],
)
async def test_invalid_updates(base_url: str, alice: Account, data: Any) -> None:
    async with connect(base_url, alice.token) as sock:
        reply = await sock.update(f"users/{alice.uid}", data)
    assert error_status(reply) == "INVALID_ARGUMENT"


async def test_stale_base_version_is_aborted(base_url: str, alice: Account) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as sock:
        version = (await sock.subscribe(path))["snapshot"]["version"]
        assert (await sock.update(path, {"userAgent": "a"}, base_version=version))["version"] == (
            version + 1
        )
        stale = await sock.update(path, {"userAgent": "b"}, base_version=version)
        assert error_status(stale) == "ABORTED"
        assert (await sock.subscribe(path))["snapshot"]["data"]["userAgent"] == "a"


async def test_nobody_reads_or_changes_another_users_record(
    base_url: str, alice: Account, bob: Account
) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, bob.token) as sock:
        assert error_status(await sock.subscribe(path)) == "PERMISSION_DENIED"
        assert error_status(await sock.update(path, {"locale": "en"})) == "PERMISSION_DENIED"
        assert error_status(await sock.subscribe("users/no-such-user")) == "PERMISSION_DENIED"
    async with connect(base_url, alice.token) as own:
        untouched = (await own.subscribe(path))["snapshot"]
    assert untouched["data"]["locale"] is None and untouched["version"] == 1
    assert path not in sock.pushes


async def test_appointment_rules_owner_other_and_staff(
    base_url: str, alice: Account, bob: Account, staff: Account
) -> None:
    async with connect(base_url, alice.token) as owner:
        appointment_id = await new_appointment(owner)
        path = f"appointments/{appointment_id}"
        owned = (await owner.subscribe(path))["snapshot"]
        assert owned["data"]["clinicId"] == "demo-clinic"
        changed = await owner.update(path, {"locale": "en", "agreedToTerms": True})
        assert changed["version"] == owned["version"] + 1
        refused = await owner.update(path, {"status": "confirmed"})
        assert error_status(refused) == "INVALID_ARGUMENT"
    async with connect(base_url, bob.token) as stranger:
        assert error_status(await stranger.subscribe(path)) == "PERMISSION_DENIED"
        assert error_status(await stranger.update(path, {"locale": "ja"})) == "PERMISSION_DENIED"
        missing = await stranger.subscribe("appointments/does-not-exist")
        assert error_status(missing) == "PERMISSION_DENIED"  # same answer: ids cannot be probed
    async with connect(base_url, staff.token) as clinic:
        # Staff read it through the audited staff-appointment-read, never by following it.
        refused = await clinic.subscribe(path)
        assert error_status(refused) == "PERMISSION_DENIED"
        assert refused["error"]["details"] == {"function": "staff-appointment-read"}
        seen = await clinic.call("staff-appointment-read", {"appointmentId": appointment_id})
        assert seen["data"]["appointment"]["locale"] == "en"
        assert error_status(await clinic.update(path, {"locale": "ja"})) == "PERMISSION_DENIED"


async def test_vacancies_and_bookings_feed_rules(
    base_url: str, alice: Account, staff: Account
) -> None:
    vacancies = "vacancies/demo-clinic/pgt-post/2026-12"
    bookings = "clinics/demo-clinic/bookings"
    async with connect(base_url, alice.token) as client:
        assert "snapshot" in await client.subscribe(vacancies)
        assert error_status(await client.subscribe(bookings)) == "PERMISSION_DENIED"
        assert error_status(await client.subscribe("clinics/other-clinic/bookings")) == (
            "PERMISSION_DENIED"
        )
        refused = await client.update(vacancies, {"slots": []})
        assert error_status(refused) == "PERMISSION_DENIED"
    async with connect(base_url, staff.token) as clinic:
        assert "snapshot" in await clinic.subscribe(bookings)
        assert error_status(await clinic.subscribe("clinics/other-clinic/bookings")) == (
            "PERMISSION_DENIED"
        )


@pytest.mark.parametrize(
    "path", ["", "users", "users/a/b", "secrets/x", "users/../x", 5, None, "users/" + "a" * 65]
)
async def test_unknown_paths_are_invalid(base_url: str, alice: Account, path: Any) -> None:
    async with connect(base_url, alice.token) as sock:
        assert error_status(await sock.request("subscribe", {"path": path})) == "INVALID_ARGUMENT"


async def test_unsubscribe_stops_pushes(base_url: str, alice: Account) -> None:
    path = f"users/{alice.uid}"
    async with connect(base_url, alice.token) as watcher, connect(base_url, alice.token) as writer:
        await watcher.subscribe(path)
        assert await watcher.request("unsubscribe", {"path": path}) == {"ok": True}
        version = (await writer.update(path, {"userAgent": "after unsubscribe"}))["version"]
        await writer.subscribe(path)
        second = (await writer.update(path, {"userAgent": "again"}))["version"]
        await writer.wait_for_version(path, second)
        assert version not in watcher.versions(path) and second not in watcher.versions(path)
