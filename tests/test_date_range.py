"""Days far from today (issue #12, item 14), on SQLite and PostgreSQL.

Python's dates end at 0001-01-01 and 9999-12-31; a day near either end made `vacancies-read`,
`appointment-hold` and the month documents overflow (INTERNAL). Every day that comes in lies
within 1900..2200 (realtime/days.py): outside, a call is INVALID_ARGUMENT naming the field and
a month document does not exist.
"""

from typing import Any

import pytest

from tests.support.booking import person
from tests.support.clients import Account, call_http, connect

OUT_OF_RANGE = "Dates must be between 1900-01-01 and 2200-12-31."


def refused(status: int, body: dict[str, Any], field: str) -> bool:
    error = body.get("error", {})
    return bool(
        status == 400
        and error.get("status") == "INVALID_ARGUMENT"
        and error["details"]["fields"].get(field) == OUT_OF_RANGE
    )


def read(first: str, last: str) -> dict[str, str]:
    return {"clinicId": "demo-clinic", "serviceId": "cancer", "from": first, "to": last}


@pytest.mark.parametrize(
    ("first", "last", "field"),
    [
        ("9999-12-01", "9999-12-31", "from"),
        ("0001-01-01", "0001-01-31", "from"),
        ("2026-12-01", "9999-12-31", "to"),
        ("1899-12-31", "1900-01-10", "from"),
    ],
)
async def test_vacancies_read_refuses_days_out_of_range(
    base_url: str, alice: Account, first: str, last: str, field: str
) -> None:
    status, body = await call_http(base_url, "vacancies-read", read(first, last), alice.token)
    assert refused(status, body, field), body


async def test_vacancies_read_at_the_edge_of_the_range_is_empty(
    base_url: str, alice: Account
) -> None:
    status, body = await call_http(
        base_url, "vacancies-read", read("2200-12-01", "2200-12-31"), alice.token
    )
    assert status == 200 and body["data"]["slots"] == [], body


@pytest.mark.parametrize(
    "start",
    ["9999-12-31T10:00:00+09:00", "9999-12-31T23:00:00-10:00", "0001-01-01T00:00:00+09:00"],
)
async def test_a_hold_refuses_times_out_of_range(base_url: str, start: str) -> None:
    async with person(base_url) as who:
        over_socket = await who.hold(start, "any")
        status, body = await call_http(
            base_url,
            "appointment-hold",
            {"appointmentId": who.appointment_id, "start": start, "counselorId": "any"},
            who.token,
        )
        assert (await who.document())["status"] == "draft"
    assert refused(400, over_socket, "start"), over_socket
    assert refused(status, body, "start"), body


@pytest.mark.parametrize(
    ("month", "exists"), [("9999-12", False), ("0001-01", False), ("2200-12", True)]
)
async def test_month_documents_out_of_range_do_not_exist(
    base_url: str, alice: Account, month: str, exists: bool
) -> None:
    async with connect(base_url, alice.token) as sock:
        reply = await sock.subscribe(f"vacancies/demo-clinic/cancer-b2b/{month}")
    assert reply["snapshot"]["exists"] is exists, reply
    if not exists:
        assert reply["snapshot"]["version"] == 0
