"""Who a socket is and where it comes from, fixed by the handshake, and the caps on how many
sockets one session and one client address may hold open on a node (docs/protocol.md
"Transport limits").

A socket joins a room for its session and one for its address at connect; python-socketio
removes it from both when it closes, so the room sizes are the live counts.
"""

from dataclasses import dataclass
from typing import Any

from realtime.identity import Identity
from realtime.push import NAMESPACE, session_room
from realtime.settings import Settings

TOO_MANY_SOCKETS = "too many connections"


def address_room(address: str) -> str:
    return f"address:{address}"


@dataclass(frozen=True)
class Peer:
    """Set once by the real handshake and kept in the socket's session; no event changes it.
    (One exception, made by the server: a staff socket takes up its session's second factor
    once that has passed, realtime/sockets.py `current_peer`.)"""

    who: Identity
    address: str | None

    @property
    def rooms(self) -> tuple[str, ...]:
        """The socket's own rooms besides its sid: never documents, never left by a client."""
        own = (session_room(self.who.session_id),)
        return own if self.address is None else (*own, address_room(self.address))

    def over_cap(self, manager: Any, settings: Settings) -> bool:
        """Whether this node already holds the most sockets allowed for its session or its
        address (counted before this socket joins the rooms)."""
        if _local_size(manager, session_room(self.who.session_id)) >= settings.sockets_per_session:
            return True
        return (
            self.address is not None
            and _local_size(manager, address_room(self.address)) >= settings.sockets_per_address
        )


def _local_size(manager: Any, room: str) -> int:
    """How many of this node's sockets are in `room` (python-socketio's own room table)."""
    return len(manager.rooms.get(NAMESPACE, {}).get(room, ()))
