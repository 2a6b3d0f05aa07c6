"""The audit log followed live, and the enrolment's QR code (docs/protocol.md, "Staff reading
and acting", "Staff sign-in and roles"): on both databases, through real servers.

`clinics/{clinicId}/audit` names the clinic's newest entry (other than reads of the log), for
its clinic_admin only; each audited read or action pushes it after its commit.
"""

import re
import xml.etree.ElementTree as ET
from urllib.parse import parse_qs, urlsplit

import segno

from tests.support.booking import person
from tests.support.clients import Account, call_http, connect
from tests.test_staff_signin import (
    COUNSELOR,
    dev_session,
    new_staff,
    second_factor_required,
    status_of,
)

AUDIT = "clinics/demo-clinic/audit"


async def newest_entry_id(base_url: str, token: str, appointment_id: str) -> int:
    code, reply = await call_http(
        base_url,
        "staff-audit-read",
        {"clinicId": "demo-clinic", "appointmentId": appointment_id},
        token,
    )
    assert code == 200, reply
    newest: int = reply["data"]["entries"][0]["id"]
    return newest


async def test_an_audited_read_moves_the_clinics_audit_document(
    base_url: str, staff: Account
) -> None:
    async with person(base_url, complete=True) as someone, connect(base_url, staff.token) as desk:
        first = await desk.subscribe(AUDIT)
        snapshot = first["snapshot"]
        assert snapshot["path"] == AUDIT and snapshot["exists"] is True
        assert set(snapshot["data"]) == {"latestId", "latestAt"}
        # Staff read the intake: the document names that read's entry, pushed after commit.
        read = {"appointmentId": someone.appointment_id}
        assert "data" in await desk.call("staff-appointment-read", read)
        await desk.wait_for_version(AUDIT, snapshot["version"] + 1)
        pushed = desk.pushes[AUDIT][-1]
        newest = await newest_entry_id(base_url, staff.token, someone.appointment_id)
        assert pushed["data"]["latestId"] == newest
        assert pushed["data"]["latestAt"]
        # Reading the log (the call just made) is recorded but does not move the document: the
        # next read of the intake is the very next version.
        assert "data" in await desk.call("staff-appointment-read", read)
        await desk.wait_for_version(AUDIT, snapshot["version"] + 2)
        assert desk.versions(AUDIT) == [snapshot["version"] + 1, snapshot["version"] + 2]
        latest = desk.pushes[AUDIT][-1]["data"]["latestId"]
        assert latest == await newest_entry_id(base_url, staff.token, someone.appointment_id)
        assert latest > newest


async def test_only_the_clinic_admin_follows_the_audit_document(
    base_url: str, alice: Account
) -> None:
    counselor = await dev_session(base_url, COUNSELOR, second_factor=True)
    limited = await dev_session(base_url, await new_staff(base_url), second_factor=False)
    async with connect(base_url, alice.token) as client:
        assert status_of(await client.subscribe(AUDIT)) == "PERMISSION_DENIED"
    async with connect(base_url, counselor.token) as sock:
        assert status_of(await sock.subscribe(AUDIT)) == "PERMISSION_DENIED"
    async with connect(base_url, limited.token) as sock:
        assert second_factor_required(await sock.subscribe(AUDIT))
    async with connect(base_url, alice.token) as client:
        refused = await client.update(AUDIT, {"latestId": 1})
        assert status_of(refused) == "PERMISSION_DENIED"


def modules_of(svg: str) -> list[list[bool]]:
    """The dark modules of `qrSvg` (horizontal 1-unit lines of the stroked path), as rows
    without the quiet zone."""
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg")
    _x, _y, width, height = (int(float(v)) for v in root.attrib["viewBox"].split())
    paths = [el for el in root if el.tag.endswith("path")]
    assert all("transform" not in el.attrib for el in paths)
    dark = [el for el in paths if el.attrib.get("stroke") == "#000"]
    assert len(dark) == 1
    grid = [[False] * width for _ in range(height)]
    x = y = 0.0
    for command, number_text in re.findall(
        r"([MmHhVv])\s*([-\d.]+(?:\s+[-\d.]+)?)", dark[0].attrib["d"]
    ):
        numbers = [float(n) for n in number_text.split()]
        if command == "M":
            x, y = numbers
        elif command == "m":
            x, y = x + numbers[0], y + numbers[1]
        elif command == "h":
            for column in range(int(x), int(x + numbers[0])):
                grid[int(y)][column] = True
            x += numbers[0]
        else:
            raise AssertionError(f"unexpected path command {command}")
    return grid


async def test_enrolment_returns_the_set_up_address_as_a_qr_code(base_url: str) -> None:
    email = await new_staff(base_url)
    account = await dev_session(base_url, email, second_factor=False)
    status, body = await call_http(base_url, "auth-totpEnroll", {}, account.token)
    assert status == 200, body
    uri, svg = body["data"]["otpauthUri"], body["data"]["qrSvg"]
    assert svg.startswith("<svg") and "<script" not in svg and "width=" not in svg
    expected = segno.make(uri, error="m", micro=False)
    border = 4
    grid = modules_of(svg)
    size = len(expected.matrix)
    assert len(grid) == size + 2 * border
    drawn = [row[border : border + size] for row in grid[border : border + size]]
    assert drawn == [[bool(cell) for cell in row] for row in expected.matrix]
    assert parse_qs(urlsplit(uri).query)["secret"][0]
