"""Property-based fuzzing of every callable and every socket event, on both databases.

Property: whatever a client sends, the server answers in the error format (never INTERNAL,
never plain text, input errors naming the field), keeps the socket and its identity, and
logs no unhandled exception. Inputs come from the real input models and the questionnaire
definition (tests/support/fuzz_values.py). Reproducible: derandomized, no example database.
`FUZZ_EXAMPLES` raises the examples per target for a deeper run on a workstation.
"""

import asyncio
import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import httpx
import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st
from hypothesis.control import currently_in_test_context

import realtime.functions  # noqa: F401  (registers every function)
from realtime.contract import MAX_MESSAGE_BYTES
from realtime.dispatch import REGISTRY
from tests.conftest import BACKENDS
from tests.support.databases import (
    REDIS_URL,
    create_postgres_database,
    drop_postgres_database,
    redis_namespace,
)
from tests.support.fuzz_checks import check_log_lines, check_mails, check_reply, check_response
from tests.support.fuzz_target import (
    CRASH_MARKERS,
    LoopThread,
    NoAck,
    Target,
    close_target,
    new_socket,
    open_target,
)
from tests.support.fuzz_values import (
    DEEP,
    DOCUMENT_PATHS,
    JSON,
    SCALARS,
    Ref,
    callable_input,
    dumps,
    hostile_text,
    update_payload,
)
from tests.support.server import ServerProcess

# Hostile values are large; hypothesis warns when it prints them in a failure report, and the
# suite's warnings-as-errors would turn that into a FlakyStrategyDefinition hiding the failure.
pytestmark = pytest.mark.filterwarnings("ignore:Generating overly large repr")
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "30"))
FUZZ = settings(
    max_examples=EXAMPLES,
    deadline=None,
    database=None,
    derandomize=True,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.filter_too_much,
        HealthCheck.large_base_example,
    ],
)
FUNCTIONS = sorted(REGISTRY)
CRASH_LOG_SECONDS = 1.0
INPUTS = {name: callable_input(REGISTRY[name].input) for name in FUNCTIONS}
SUCCESS_KEYS = {
    "call": {"data"},
    "subscribe": {"snapshot"},
    "unsubscribe": {"ok"},
    "update": {"version"},
    "activity": {"ok"},
}
PAYLOADS = {
    "call": st.fixed_dictionaries(
        {"name": st.sampled_from(FUNCTIONS) | hostile_text()},
        optional={"data": JSON},
    ),
    "subscribe": st.fixed_dictionaries(
        {"path": DOCUMENT_PATHS}, optional={"version": st.integers(-1, 5) | SCALARS}
    ),
    "unsubscribe": st.fixed_dictionaries({"path": DOCUMENT_PATHS}),
    "update": update_payload(),
    "activity": st.fixed_dictionaries(
        {}, optional={"step": st.sampled_from(("contact", "review")) | SCALARS}
    ),
}
# Event names the product does not serve to clients, reserved ones first.
OTHER_EVENTS = ("connect", "disconnect", "message", "connect_error", "snapshot", "session", "")
CONNECT_LIKE = st.fixed_dictionaries(
    {},
    optional={
        "REMOTE_ADDR": st.just("198.51.100.7"),
        "HTTP_X_FORWARDED_FOR": st.just("198.51.100.8"),
        "token": st.just(Ref.OTHER_TOKEN),
    },
)


# The fuzz suite sends thousands of events and holds from one socket and one person, as fast
# as it can: the per-socket event budget and the hold limits are lifted on its own servers
# (they are tested in tests/test_socket_abuse.py and tests/test_hold_limits.py).
UNLIMITED = {
    "SOCKET_EVENT_BURST": "1000000",
    "SOCKET_EVENTS_PER_SECOND": "1000000",
    "HOLDS_PER_USER": "1000000",
    "HOLDS_PER_IP": "1000000",
}


@pytest.fixture(scope="module", params=BACKENDS)
def fuzz_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """The product on each backend, with the limits above lifted and a database of its own."""
    run = tmp_path_factory.mktemp(f"fuzz-{request.param}")
    env = dict(UNLIMITED)
    name = None
    if request.param == "sqlite":
        env["DATABASE_URL"] = f"sqlite+aiosqlite:///{run / 'fuzz.db'}"
    else:
        name, url = asyncio.run(create_postgres_database())
        env |= {"DATABASE_URL": url, "REDIS_URL": REDIS_URL, "REDIS_NAMESPACE": redis_namespace()}
    server = ServerProcess(env=env, log_path=run / "server.log").start()
    try:
        yield server
    finally:
        server.stop()
        if name is not None:
            asyncio.run(drop_postgres_database(name))


@pytest.fixture(scope="module")
def target(fuzz_server: ServerProcess) -> Iterator[Target]:
    """One person, one other person and one socket per backend, shared by every example."""
    server = fuzz_server
    runner = LoopThread()
    opened = runner.run(open_target(server, runner))
    yield opened
    runner.run(close_target(opened))
    runner.stop()


class ServerCrash(AssertionError):
    """The server logged an unhandled exception; one subclass per exception type, so that
    hypothesis reports each kind of crash as its own failure."""


CRASH_KINDS: dict[str, type[ServerCrash]] = {}
EXCEPTION_LINE = re.compile(r"^([A-Za-z_][\w.]*(?:Error|Exception|Exit|Group))\b", re.MULTILINE)


def server_crash(log: str) -> ServerCrash:
    raised = EXCEPTION_LINE.findall(log)
    name = raised[-1] if raised else "unknown"
    if name not in CRASH_KINDS:
        CRASH_KINDS[name] = type(f"ServerCrash[{name}]", (ServerCrash,), {})
    return CRASH_KINDS[name](f"the server logged a crash ({name}):\n{log}")


def settle(target: Target, reply: Any, *, ends_session: bool = False) -> Any:
    """After one example: check the log, new mails and the socket; renew the person when the
    example ended their session."""
    if _failed(reply):
        target.settle_log(CRASH_LOG_SECONDS)
    log = target.read_log()
    mails = target.runner.run(target.new_mails()) if _succeeded(reply) else []
    socket_kept = target.me.sock.connected
    if ends_session or not socket_kept or _signed_out(reply):
        target.runner.run(target.renew())
    if currently_in_test_context():  # pytest --hypothesis-show-statistics: what examples reached
        event(_outcome(reply))
    if any(marker in log for marker in CRASH_MARKERS):
        raise server_crash(log[-1500:])
    check_log_lines(log)
    check_mails(mails)
    assert not isinstance(reply, NoAck), f"the server never answered the event: {reply}"
    assert socket_kept or ends_session, "the server dropped the socket"
    return reply


def _succeeded(reply: Any) -> bool:
    if isinstance(reply, httpx.Response):
        return reply.status_code == 200
    return isinstance(reply, dict) and "error" not in reply


def _outcome(reply: Any) -> str:
    if isinstance(reply, httpx.Response):
        return f"HTTP {reply.status_code}"
    error = reply.get("error") if isinstance(reply, dict) else None
    return str(error.get("status")) if isinstance(error, dict) else type(reply).__name__


def _failed(reply: Any) -> bool:
    """A reply of a server that failed (whose crash may reach the log a moment later)."""
    if isinstance(reply, httpx.Response):
        return reply.status_code >= 500
    error = reply.get("error") if isinstance(reply, dict) else None
    return isinstance(reply, NoAck) or (
        isinstance(error, dict) and error.get("status") == "INTERNAL"
    )


def _signed_out(reply: Any) -> bool:
    """An ack telling that the socket's session is over (an example cancelled it)."""
    error = reply.get("error") if isinstance(reply, dict) else None
    return isinstance(error, dict) and error.get("status") == "UNAUTHENTICATED"


# Calls that end every session of the person when they succeed.
SESSION_ENDING = ("appointment-cancel", "account-erase")


def cancelled(name: object, reply: Any) -> bool:
    """Whether this call cancelled the person's appointment or erased their account (either
    signs them out)."""
    if name not in SESSION_ENDING:
        return False
    if isinstance(reply, httpx.Response):
        return reply.status_code == 200
    return isinstance(reply, dict) and "data" in reply


@pytest.mark.parametrize("name", FUNCTIONS)
@FUZZ
@given(data=st.data(), signed_in=st.booleans())
def test_every_callable_over_http(
    target: Target, name: str, data: st.DataObject, signed_in: bool
) -> None:
    argument = data.draw(INPUTS[name], label="data")
    response = target.runner.run(target.post(name, argument, signed_in=signed_in))
    signed_out = signed_in and response.status_code == 401
    settle(target, response, ends_session=cancelled(name, response) or signed_out)
    check_response(response)


@pytest.mark.parametrize("name", FUNCTIONS)
@FUZZ
@given(data=st.data())
def test_every_callable_over_the_socket(target: Target, name: str, data: st.DataObject) -> None:
    argument = data.draw(INPUTS[name], label="data")
    payload = {"name": name, "data": argument}
    assume(fits(target.resolve(payload)))
    reply = target.runner.run(target.emit("call", payload))
    settle(target, reply, ends_session=cancelled(name, reply))
    check_reply(reply, SUCCESS_KEYS["call"])


@pytest.mark.parametrize("event", sorted(PAYLOADS))
@FUZZ
@given(data=st.data())
def test_every_event_payload(target: Target, event: str, data: st.DataObject) -> None:
    shaped = PAYLOADS[event]
    payload = data.draw(st.one_of(shaped, JSON, st.just(())), label="payload")
    assume(fits(target.resolve(payload)))
    reply = target.runner.run(target.emit(event, payload))
    name = payload.get("name") if event == "call" and isinstance(payload, dict) else None
    settle(target, reply, ends_session=cancelled(name, reply))
    check_reply(reply, SUCCESS_KEYS[event])


@pytest.mark.parametrize("event", sorted(PAYLOADS))
def test_an_event_with_several_arguments_is_refused_in_its_ack(target: Target, event: str) -> None:
    """Socket.IO lets an event carry several arguments; ours take one object. Two used to fail
    the handler's call (TypeError in the log, no ack at all)."""
    payload: tuple[Any, ...] = ({"path": Ref.OWN_USER_PATH, "name": "clinic-read", "data": {}}, {})
    reply = settle(target, target.runner.run(target.emit(event, payload)))
    check_reply(reply, SUCCESS_KEYS[event])
    assert reply["error"]["status"] == "INVALID_ARGUMENT", reply


# Refusals of the envelope, one of each kind, over the socket: each names what was wrong.
ENVELOPES: list[tuple[str, Any, str]] = [
    ("subscribe", [], "payload"),
    ("call", {"name": "clinic-read"}, "data"),
    ("call", {"data": {}}, "name"),
    ("update", {"path": Ref.OWN_USER_PATH, "data": {}}, "data"),
    (
        "update",
        {"path": Ref.OWN_USER_PATH, "data": {"locale": "en"}, "baseVersion": "1"},
        "baseVersion",
    ),
    ("subscribe", {"path": "nowhere/at/all"}, "path"),
    (
        "call",
        {
            "name": "vacancies-read",
            "data": {
                "clinicId": "demo-clinic",
                "serviceId": "cancer",
                "from": "2026-12-31",
                "to": "2026-12-01",
            },
        },
        "to",
    ),
    (
        "call",
        {
            "name": "vacancies-read",
            "data": {
                "clinicId": "demo-clinic",
                "serviceId": "cancer",
                "from": "2026-02-30",
                "to": "2026-03-01",
            },
        },
        "from",
    ),
]


@pytest.mark.parametrize(("event", "payload", "field"), ENVELOPES)
def test_a_refused_envelope_names_the_field(
    target: Target, event: str, payload: Any, field: str
) -> None:
    reply = settle(target, target.runner.run(target.emit(event, payload)))
    check_reply(reply, SUCCESS_KEYS[event])
    assert field in reply["error"]["details"]["fields"], reply


@pytest.mark.parametrize("name", ["a/b", "Name\r\nBcc: x@example.com", ""])
def test_an_unknown_function_path_is_not_found_in_the_error_format(
    target: Target, name: str
) -> None:
    """Names no route matches (a "/" or a line break in them) were plain-text 405/404."""
    response = target.runner.run(target.http.post(f"/functions/{quote(name)}", json={"data": {}}))
    settle(target, response)
    check_response(response)
    assert response.json()["error"]["status"] == "NOT_FOUND", response.text


@settings(FUZZ, max_examples=EXAMPLES * 4)
@given(payload=update_payload())
def test_update_of_every_intake_field(target: Target, payload: dict[str, Any]) -> None:
    assume(fits(target.resolve(payload)))
    reply = settle(target, target.runner.run(target.emit("update", payload)))
    check_reply(reply, SUCCESS_KEYS["update"])


@FUZZ
@given(
    event=st.sampled_from(OTHER_EVENTS) | hostile_text(),
    arguments=st.lists(st.one_of(CONNECT_LIKE, JSON), max_size=3).map(tuple),
)
def test_reserved_and_unknown_events_change_nothing(
    target: Target, event: str, arguments: tuple[Any, ...]
) -> None:
    """A client's `connect`/`disconnect`/... event neither sets identity nor drops it."""
    assume(fits([event, *target.resolve(list(arguments))]))
    own, others = settle(target, target.runner.run(_emit_then_probe(target, event, arguments)))
    check_reply(own, {"snapshot"})
    assert "snapshot" in own, f"the socket lost its identity after {event!r}: {own!r}"
    check_reply(others, {"snapshot"})
    assert others.get("error", {}).get("status") == "PERMISSION_DENIED", (
        f"the socket took another identity after {event!r}: {others!r}"
    )


async def _emit_then_probe(target: Target, event: str, arguments: tuple[Any, ...]) -> Any:
    """Emit on a fresh socket of the person, then ask who the socket is."""
    sock = await new_socket(target.server.url, target.me.account.token)
    try:
        await target.emit(event, arguments, sock, ack_seconds=0.5)  # most never ack
        own = await target.emit("subscribe", {"path": Ref.OWN_USER_PATH}, sock)
        others = await target.emit("subscribe", {"path": Ref.OTHER_USER_PATH}, sock)
        return own, others
    finally:
        await sock.disconnect()


RAW_BODIES = st.one_of(
    st.binary(max_size=40),
    st.sampled_from(
        (
            b"",
            b"null",
            b"[]",
            b'"data"',
            b"{",
            b'{"data": }',
            b'{"data": NaN}',
            b'{"data": 1e999999}',
            b'{"data": 123456789012345678901234567890}',
            b'{"data": "\\ud800"}',
            b'{"data": {}, "data": []}',
            b"\xff\xfe{}",
            b'\xef\xbb\xbf{"data": {}}',
            b" " * (MAX_MESSAGE_BYTES + 1),
            b'{"data": "' + b"a" * MAX_MESSAGE_BYTES + b'"}',
        )
    ),
    DEEP.map(lambda deep: dumps({"data": deep}).encode()),
    st.builds(lambda deep: deep.text().encode(), DEEP),
)


@FUZZ
@given(
    name=st.sampled_from(FUNCTIONS) | hostile_text().map(lambda s: s[:2000]).filter(bool),
    body=RAW_BODIES,
    content_type=st.sampled_from(
        ("application/json", "text/plain", "", "application/x-www-form-urlencoded")
    ),
)
def test_bodies_that_are_not_calls(
    target: Target, name: str, body: bytes, content_type: str
) -> None:
    async def post() -> httpx.Response:
        headers = {"Authorization": f"Bearer {target.me.account.token}"}
        if content_type:
            headers["Content-Type"] = content_type
        path = f"/functions/{quote(name.encode(errors='surrogatepass'), safe='')}"
        return await target.http.post(path, content=body, headers=headers)

    response = target.runner.run(post())
    settle(target, response)
    check_response(response)


def test_no_crash_logged_after_the_run(target: Target) -> None:
    """A crash logged late (an unretrieved task exception) shows here."""
    target.runner.run(asyncio.sleep(0.5))
    log = target.read_log()
    assert not any(marker in log for marker in CRASH_MARKERS), log[-1500:]


def fits(payload: Any) -> bool:
    """Socket messages stay under the transport's limit (a bigger one closes the socket)."""
    return len(dumps(payload).encode()) < MAX_MESSAGE_BYTES - 1024
