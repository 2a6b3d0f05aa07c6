"""The gate in front of every client event: python-socketio's server, screening packets.

python-socketio routes a client event by its name alone, so an event named `connect` or
`disconnect` would reach the handshake handlers and let a socket choose its own identity and
address, or drop them while staying open (issue #12). Only the real handshake may call those
handlers; the gate admits an event only when all of these hold (docs/protocol.md "Transport
limits"):

- the socket's event budget has a token (realtime/budget.py); without one an acked event is
  answered RESOURCE_EXHAUSTED, others are dropped, and a flooding socket is closed;
- its JSON was readable (a payload nested past the decoder's recursion limit is not);
- its name is one the app registered, other than python-socketio's reserved names;
- it carries at most one payload, nested at most MAX_JSON_DEPTH levels (as HTTP bodies).

A refused event with an ack id is answered in the callable error format; one without is
dropped. A packet python-socketio cannot handle at all closes its connection, without a stack
trace in the log. The overridden `_handle_event` (called for client events only, never for
the handshake) and `_handle_eio_message` are python-socketio 5.x internals, pinned in
requirements.lock.
"""

import asyncio
import logging
from collections.abc import Callable, Container
from dataclasses import dataclass
from time import monotonic
from typing import Any

import socketio
from socketio import packet

from realtime.bodies import MAX_JSON_DEPTH, json_depth_exceeds
from realtime.budget import EventBudget, Verdict
from realtime.errors import FunctionError, invalid_field
from realtime.lean_engine import LeanServer
from realtime.push import NAMESPACE
from realtime.ratelimit import TOO_MANY

log = logging.getLogger(__name__)

# Key of the budget in python-engineio's per-connection session (namespaces start with "/").
BUDGET_KEY = "budget"
UNREADABLE = "The event could not be read."
TOO_DEEP = f"The payload nests deeper than {MAX_JSON_DEPTH} levels."
# Longest run of received messages handled without letting other tasks run.
TURN_SECONDS = 0.002


@dataclass(frozen=True)
class Unreadable:
    """The payload of a packet whose JSON could not be decoded, and why."""

    reason: str


# A packet whose JSON is unreadable carries no attachments: it is handled as a plain one.
_WITHOUT_ATTACHMENTS = {packet.BINARY_EVENT: packet.EVENT, packet.BINARY_ACK: packet.ACK}


class ReadablePacket(socketio.packet.Packet):  # type: ignore[misc]
    """A packet whose undecodable JSON (malformed, or nested deeper than the decoder's
    recursion limit) becomes Unreadable instead of an exception with a stack trace: type,
    namespace and ack id are read before the JSON, so the event can still be answered."""

    packet_type: Any
    data: Any

    def decode(self, encoded_packet: Any) -> int:
        try:
            return int(super().decode(encoded_packet))
        except (ValueError, RecursionError) as exc:
            self.data = Unreadable(TOO_DEEP if isinstance(exc, RecursionError) else UNREADABLE)
            self.packet_type = _WITHOUT_ATTACHMENTS.get(self.packet_type, self.packet_type)
            return 0


def screen(data: object, known: Container[str]) -> FunctionError | None:
    """Why an admitted-by-budget event is refused, or None to pass it to its handler."""
    if isinstance(data, Unreadable):
        return invalid_field("payload", data.reason)
    if not isinstance(data, list) or not data or not isinstance(data[0], str):
        return invalid_field("event", UNREADABLE)
    if data[0] in socketio.AsyncServer.reserved_events or data[0] not in known:
        unknown = "Unknown event."
        return FunctionError(
            "INVALID_ARGUMENT", unknown, {"event": data[0][:64], "fields": {"event": unknown}}
        )
    if len(data) > 2:
        return invalid_field("payload", "An event carries at most one payload.")
    if len(data) == 2 and json_depth_exceeds(data[1]):
        return invalid_field("payload", TOO_DEEP)
    return None


class GuardedServer(LeanServer):
    """socketio.AsyncServer with the gate of the module docstring, its Engine.IO sockets
    holding less memory while idle (realtime/lean_engine.py)."""

    def __init__(self, *, budget: Callable[[], EventBudget], **kwargs: Any) -> None:
        super().__init__(serializer=ReadablePacket, **kwargs)
        self.new_budget = budget
        self._last_turn = 0.0  # when a received message last let other tasks run

    async def _handle_event(
        self, eio_sid: str, namespace: str | None, id: int | None, data: Any
    ) -> None:
        namespace = namespace or NAMESPACE
        if not self.manager.is_connected(
            self.manager.sid_from_eio_sid(eio_sid, namespace), namespace
        ):
            return
        verdict = await self._spend(eio_sid)
        if verdict is Verdict.CLOSE:
            log.warning("closed a socket that kept sending events far over its budget")
            await self._close(eio_sid)
            return
        if verdict is Verdict.REFUSE:
            refusal: FunctionError | None = FunctionError("RESOURCE_EXHAUSTED", TOO_MANY)
        else:
            refusal = screen(data, self.handlers.get(namespace, {}))
        if refusal is None:
            await super()._handle_event(eio_sid, namespace, id, data)
        elif id is not None:
            ack = self.packet_class(
                packet.ACK, namespace=namespace, id=id, data=[refusal.to_wire()]
            )
            await self._send_packet(eio_sid, ack)

    async def _handle_eio_message(self, eio_sid: str, data: Any) -> None:
        """One received message. python-engineio reads a connection's messages one after
        another without yielding while more are buffered, so a burst from one client would
        hold the event loop: a message lets other tasks run first once TURN_SECONDS have
        passed since the last time one did (a yield per message cost CPU on every event).

        python-socketio refuses a packet of an unknown type, or an attachment nobody
        announced, by raising ValueError; that connection is closed without a stack trace."""
        now = monotonic()
        if now - self._last_turn >= TURN_SECONDS:
            self._last_turn = now
            await asyncio.sleep(0)
        if eio_sid not in self.eio.sockets:  # closed (by _close) while more were buffered
            return
        try:
            await super()._handle_eio_message(eio_sid, data)
        except ValueError:
            log.warning("closed a socket that sent a malformed packet")
            await self._close(eio_sid)

    async def _close(self, eio_sid: str) -> None:
        """Close a connection even if its client ignores the close packet: python-engineio
        would keep reading it until a ping timeout; the None in the send queue (its own
        end-of-connection mark) makes the writer close the WebSocket now."""
        connection = self.eio.sockets.get(eio_sid)
        await self.eio.disconnect(eio_sid)
        if connection is not None:
            await connection.queue.put(None)

    async def _spend(self, eio_sid: str) -> Verdict:
        """Charge the connection's budget (kept in its engine.io session, gone with it)."""
        try:
            session = await self.eio.get_session(eio_sid)
        except KeyError:  # closed meanwhile
            return Verdict.REFUSE
        budget: EventBudget | None = session.get(BUDGET_KEY)
        if budget is None:
            budget = session[BUDGET_KEY] = self.new_budget()
        return budget.spend(monotonic())
