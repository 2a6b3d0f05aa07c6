"""Callable functions over HTTP and Socket.IO: one dispatcher, the full status table."""

from typing import Any

import httpx
import pytest

import realtime.functions  # noqa: F401  (registers every function)
from realtime.dispatch import REGISTRY
from tests.support.clients import Account, call_http, connect

LEAK_MARKERS = ("Traceback", "SELECT", "sqlalchemy", "asyncpg", 'File "')


def assert_error(body: dict[str, Any], status: str) -> dict[str, Any]:
    assert set(body) == {"error"}, body
    error: dict[str, Any] = body["error"]
    assert error["status"] == status, body
    assert isinstance(error["message"], str) and error["message"]
    assert not any(marker in str(body) for marker in LEAK_MARKERS), body
    return error


async def test_clinic_read_returns_the_demo_clinic(base_url: str) -> None:
    status, body = await call_http(base_url, "clinic-read", {"id": "demo-clinic"})
    assert status == 200
    clinic = body["data"]
    assert clinic["timezone"] == "Asia/Tokyo"
    assert set(clinic["serviceIds"]) >= {"prenatal-b2c", "prenatal-b2b", "pgt-post"}
    assert clinic["name"]["ja"] and clinic["name"]["en"]
    # Counselors by name, for the calendar's choice; no e-mail address leaves the server.
    assert clinic["counselors"] == [
        {
            "id": "c-brown",
            "name": {"ja": "Emily Brown", "en": "Emily Brown"},
            "languages": ["en", "ja"],
        },
        {
            "id": "c-sato",
            "name": {"ja": "佐藤 花子", "en": "Hanako Sato"},
            "languages": ["ja", "en"],
        },
        {"id": "c-tanaka", "name": {"ja": "田中 美咲", "en": "Misaki Tanaka"}, "languages": ["ja"]},
    ]
    assert "@" not in str(clinic["counselors"])


@pytest.mark.parametrize(
    ("alias", "service_id", "priced"),
    [
        ("prenatal", "prenatal-b2c", True),
        ("pgt", "pgt-post", False),
        ("cancer", "cancer-b2b", False),
    ],
)
async def test_entry_aliases_resolve_to_services_of_the_clinic(
    base_url: str, alias: str, service_id: str, priced: bool
) -> None:
    status, body = await call_http(
        base_url, "service-read", {"id": alias, "clinicId": "demo-clinic"}
    )
    assert status == 200, body
    assert body["data"]["id"] == service_id
    assert (body["data"]["price"] is not None) is priced
    assert body["data"]["consentVersion"]


@pytest.mark.parametrize(
    ("alias", "service_id"), [("prenatal", "prenatal-b2c"), ("pgt", "pgt-post")]
)
async def test_an_alias_without_a_clinic_is_the_default_clinics_service(
    base_url: str, alias: str, service_id: str
) -> None:
    """/pgt's login screen names the service before anyone chose a clinic (issue #15)."""
    status, body = await call_http(base_url, "service-read", {"id": alias})
    assert status == 200, body
    assert body["data"]["id"] == service_id
    assert body["data"]["name"]["ja"]


async def test_service_read_by_id(base_url: str) -> None:
    status, body = await call_http(base_url, "service-read", {"id": "prenatal-b2c"})
    assert status == 200
    assert body["data"]["price"] == {"amount": 16500, "currency": "JPY"}


@pytest.mark.parametrize(
    ("name", "data", "http_status", "status"),
    [
        ("no-such-function", {}, 404, "NOT_FOUND"),
        ("clinic-read", {"id": "no-such-clinic"}, 404, "NOT_FOUND"),
        ("service-read", {"id": "prenatal", "clinicId": "no-such-clinic"}, 404, "NOT_FOUND"),
        ("clinic-read", {}, 400, "INVALID_ARGUMENT"),
        ("clinic-read", {"id": 7}, 400, "INVALID_ARGUMENT"),
        ("clinic-read", {"id": "demo-clinic", "extra": 1}, 400, "INVALID_ARGUMENT"),
        ("clinic-read", {"id": "../../etc/passwd"}, 400, "INVALID_ARGUMENT"),
        ("clinic-read", [1, 2], 400, "INVALID_ARGUMENT"),
        ("appointment-create", {}, 401, "UNAUTHENTICATED"),
    ],
)
async def test_error_table_over_http(
    base_url: str, name: str, data: Any, http_status: int, status: str
) -> None:
    code, body = await call_http(base_url, name, data)
    assert code == http_status
    assert_error(body, status)


async def test_invalid_argument_names_the_field(base_url: str) -> None:
    _, body = await call_http(base_url, "clinic-read", {"id": 7})
    error = assert_error(body, "INVALID_ARGUMENT")
    assert "id" in error["details"]["fields"]


# Functions named in docs/protocol.md, "Callables": the original client's, then ours.
CONTRACT_FUNCTIONS = (
    "appointment-create",
    "appointment-updateStatus",
    "clinic-read",
    "service-read",
    "sendEmail-authLink",
    "sendEmail-admin",
    "sendEmail-counselor",
    "stripe-createCheckoutSession",
    "stripe-getSessionStatus",
    "vacancies-read",
    "appointment-hold",
    "appointment-consent",
    "appointment-cancel",
    "appointment-cancelQuote",
    "contact-send",
    "auth-totpEnroll",
)


def test_every_function_of_the_contract_is_registered() -> None:
    assert set(CONTRACT_FUNCTIONS) <= set(REGISTRY)


@pytest.mark.parametrize("name", CONTRACT_FUNCTIONS)
async def test_bad_input_never_reaches_a_function(base_url: str, name: str) -> None:
    code, body = await call_http(base_url, name, {"unexpected": [1, 2, 3]})
    assert code in (400, 401), body
    assert_error(body, "INVALID_ARGUMENT" if code == 400 else "UNAUTHENTICATED")


@pytest.mark.parametrize(
    "content",
    [b"not json", b"[1,2,3]", b'"text"', b"{}", b'{"dataa": 1}', b"null"],
)
async def test_body_must_be_an_object_with_data(base_url: str, content: bytes) -> None:
    async with httpx.AsyncClient(base_url=base_url) as http:
        reply = await http.post(
            "/functions/clinic-read", content=content, headers={"content-type": "application/json"}
        )
    assert reply.status_code == 400
    assert_error(reply.json(), "INVALID_ARGUMENT")


async def test_oversized_body_is_refused(base_url: str) -> None:
    status, body = await call_http(base_url, "clinic-read", {"id": "x" * 70_000})
    assert status == 413  # docs/protocol.md: INVALID_ARGUMENT, answered as HTTP 413
    assert_error(body, "INVALID_ARGUMENT")


async def test_null_data_creates_at_the_default_clinic_and_service(
    base_url: str, alice: Account
) -> None:
    status, body = await call_http(base_url, "appointment-create", None, alice.token)
    assert status == 200, body
    async with connect(base_url, alice.token) as sock:
        path = f"appointments/{body['data']['appointmentId']}"
        data = (await sock.subscribe(path))["snapshot"]["data"]
    assert (data["clinicId"], data["serviceId"]) == ("demo-clinic", "prenatal-b2c")


async def test_socket_call_has_the_same_semantics(base_url: str, alice: Account) -> None:
    async with connect(base_url, alice.token) as sock:
        ok = await sock.call("clinic-read", {"id": "demo-clinic"})
        assert ok["data"]["id"] == "demo-clinic"
        assert_error(await sock.call("no-such-function", {}), "NOT_FOUND")
        assert_error(await sock.call("clinic-read", {"id": 7}), "INVALID_ARGUMENT")
        assert_error(await sock.call("stripe-getSessionStatus", {}), "INVALID_ARGUMENT")
        assert_error(await sock.request("call", {"name": "clinic-read"}), "INVALID_ARGUMENT")
        assert_error(await sock.request("call", ["not", "an", "object"]), "INVALID_ARGUMENT")


async def test_appointment_create_is_idempotent_and_sets_the_user_record(
    base_url: str, alice: Account
) -> None:
    async with connect(base_url, alice.token) as sock:
        user_path = f"users/{alice.uid}"
        before = (await sock.subscribe(user_path))["snapshot"]
        first = await sock.call(
            "appointment-create", {"clinicId": "demo-clinic", "serviceId": "pgt"}
        )
        again = await sock.call(
            "appointment-create", {"clinicId": "demo-clinic", "serviceId": "pgt"}
        )
        appointment_id = first["data"]["appointmentId"]
        assert again["data"]["appointmentId"] == appointment_id
        await sock.wait_for_version(user_path, before["version"] + 1)
        assert sock.pushes[user_path][-1]["data"]["appointmentId"] == appointment_id
        appointment = (await sock.subscribe(f"appointments/{appointment_id}"))["snapshot"]
        assert appointment["data"]["serviceId"] == "pgt-post"
        assert appointment["data"]["status"] == "draft"
        assert appointment["data"]["timezone"] == "Asia/Tokyo"
