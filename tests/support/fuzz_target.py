"""What the fuzz suite talks to: one running server, one signed-in person, one socket.

Hypothesis tests are synchronous; the clients live on an event loop running in a thread of
its own (so the socket keeps answering pings between examples) and each example runs a
coroutine on it. The person, their consented appointment and their socket are made once
per backend and made again only when an example ended them (a successful cancel signs the
person out everywhere).
"""

import asyncio
import threading
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import httpx
import socketio
from socketio.packet import Packet

from tests.conftest import unique_email
from tests.support.clients import Account, sign_in
from tests.support.fuzz_values import DeepJSON, Ref, dumps, resolve
from tests.support.server import ServerProcess

T = TypeVar("T")
ACK_SECONDS = 5.0
CRASH_POLL_SECONDS = 0.05
LOG_QUIET_SECONDS = 0.1
# Log lines that only an unhandled exception writes.
CRASH_MARKERS = ("Traceback", "Task exception was never retrieved", "Exception in ASGI")


@dataclass(frozen=True)
class NoAck:
    """An event the server never acknowledged."""

    reason: str


class DeepPacket(Packet):  # type: ignore[misc]
    """Socket.IO packets that can carry JSON nested deeper than Python's encoder allows."""

    json = DeepJSON


class LoopThread:
    """An event loop in a daemon thread; `run` waits for one coroutine on it."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    def run(self, coroutine: Coroutine[Any, Any, T], timeout: float = 60) -> T:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout)

    def stop(self) -> None:
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.loop.close()


@dataclass
class LogWatch:
    """The part of the server's log written since the last look."""

    path: Path
    offset: int = 0

    def __post_init__(self) -> None:
        self.offset = self.path.stat().st_size

    def _unread(self) -> bytes:
        with self.path.open("rb") as log:
            log.seek(self.offset)
            return log.read()

    def new_text(self) -> str:
        chunk = self._unread()
        self.offset += len(chunk)
        return chunk.decode(errors="replace")

    def crashed(self) -> bool:
        text = self._unread().decode(errors="replace")
        return any(marker in text for marker in CRASH_MARKERS)


async def new_socket(base_url: str, token: str) -> socketio.AsyncClient:
    client = socketio.AsyncClient(reconnection=False, serializer=DeepPacket, handle_sigint=False)
    await client.connect(base_url, auth={"token": token}, transports=["websocket"], wait_timeout=10)
    return client


@dataclass
class Person:
    account: Account
    appointment_id: str
    sock: socketio.AsyncClient


async def new_person(base_url: str) -> Person:
    """A signed-in person with a consented appointment (so intake updates reach storage)."""
    account = await sign_in(base_url, unique_email("fuzz"))
    sock = await new_socket(base_url, account.token)
    created = await sock.call("call", {"name": "appointment-create", "data": {}}, timeout=10)
    appointment_id = created["data"]["appointmentId"]
    service = await sock.call(
        "call", {"name": "service-read", "data": {"id": "cancer", "clinicId": "demo-clinic"}}
    )
    consent = {"appointmentId": appointment_id, "version": service["data"]["consentVersion"]}
    given = await sock.call("call", {"name": "appointment-consent", "data": consent})
    assert "data" in given, given
    return Person(account, appointment_id, sock)


@dataclass(repr=False)
class Target:
    server: ServerProcess
    runner: LoopThread
    http: httpx.AsyncClient
    me: Person
    other: Person
    log: LogWatch
    renewals: int = field(default=0)
    seen_mails: set[tuple[str, str, str]] = field(default_factory=set)

    def __repr__(self) -> str:  # short, in hypothesis's reports
        return f"Target({self.server.url})"

    def settle_log(self, seconds: float) -> None:
        """Wait up to `seconds` for a crash to reach the log (uvicorn logs after replying)."""
        deadline = time.monotonic() + seconds
        while not self.log.crashed() and time.monotonic() < deadline:
            time.sleep(CRASH_POLL_SECONDS)

    @property
    def refs(self) -> dict[Ref, str]:
        mine, theirs = self.me, self.other
        return {
            Ref.OWN_APPOINTMENT: mine.appointment_id,
            Ref.OTHER_APPOINTMENT: theirs.appointment_id,
            Ref.OWN_UID: mine.account.uid,
            Ref.OTHER_UID: theirs.account.uid,
            Ref.OTHER_TOKEN: theirs.account.token,
            Ref.OWN_APPOINTMENT_PATH: f"appointments/{mine.appointment_id}",
            Ref.OTHER_APPOINTMENT_PATH: f"appointments/{theirs.appointment_id}",
            Ref.OWN_USER_PATH: f"users/{mine.account.uid}",
            Ref.OTHER_USER_PATH: f"users/{theirs.account.uid}",
        }

    def resolve(self, value: Any) -> Any:
        return resolve(value, self.refs)

    async def post(self, name: str, data: Any, *, signed_in: bool = True) -> httpx.Response:
        headers = {"Content-Type": "application/json"}
        if signed_in:
            headers["Authorization"] = f"Bearer {self.me.account.token}"
        body = dumps({"data": self.resolve(data)})
        return await self.http.post(f"/functions/{name}", content=body.encode(), headers=headers)

    async def emit(
        self,
        event: str,
        payload: Any,
        sock: socketio.AsyncClient | None = None,
        ack_seconds: float = ACK_SECONDS,
    ) -> Any:
        """An acked event on the person's socket; its reply, or NoAck when none came.

        A crash logged meanwhile ends the wait at once (so a failing example costs no
        time-out, which matters while hypothesis shrinks it).
        """
        call = asyncio.ensure_future(
            (sock or self.me.sock).call(event, self.resolve(payload), timeout=ack_seconds)
        )
        while not call.done():
            await asyncio.wait({call}, timeout=CRASH_POLL_SECONDS)
            if not call.done() and self.log.crashed():
                call.cancel()
                return NoAck("the server crashed instead of answering")
        try:
            return call.result()
        except TimeoutError:
            return NoAck(f"no answer in {ack_seconds} s")

    async def new_mails(self) -> list[dict[str, Any]]:
        """Mails put in the dev outbox since the last look (newest 100 are looked at)."""
        reply = await self.http.get("/dev/outbox")
        reply.raise_for_status()
        mails: list[dict[str, Any]] = reply.json()["data"]
        new = [m for m in mails if _mail_key(m) not in self.seen_mails]
        self.seen_mails.update(_mail_key(m) for m in new)
        return new

    async def renew(self) -> None:
        """A new person after an example ended the old one's session (or broke its socket)."""
        old = self.me
        self.me = await new_person(self.server.url)
        self.renewals += 1
        if old.sock.connected:
            await old.sock.disconnect()

    def read_log(self) -> str:
        """What the server logged since the last look; after a crash, read once the log has
        stopped growing, so that the whole traceback is in it."""
        if self.log.crashed():
            size = -1
            while size != self.log.path.stat().st_size:
                size = self.log.path.stat().st_size
                time.sleep(LOG_QUIET_SECONDS)
        return self.log.new_text()


def _mail_key(mail: dict[str, Any]) -> tuple[str, str, str]:
    return (mail["to"], mail["subject"], mail["sentAt"])


async def open_target(server: ServerProcess, runner: LoopThread) -> Target:
    http = httpx.AsyncClient(base_url=server.url, timeout=30)
    me, other = await new_person(server.url), await new_person(server.url)
    target = Target(server, runner, http, me, other, LogWatch(server.log_path))
    await target.new_mails()  # those of other tests are not this suite's
    return target


async def close_target(target: Target) -> None:
    for person in (target.me, target.other):
        if person.sock.connected:
            await person.sock.disconnect()
    await target.http.aclose()
