"""Which rooms a socket is in, kept as an index instead of searched for.

python-socketio's `BaseManager.get_rooms(sid)` and `basic_disconnect(sid)` look through every
room of the namespace for the socket (a membership test per room), so with N sockets each in
a few rooms a subscribe (which asks for the socket's rooms: realtime/sockets.py `followed`)
and a disconnect cost O(N): a reconnect storm of 2,000 clients spent a third of the event
loop in that search (docs/benchmarks.md, "Reconnect storm"). `IndexedRooms` keeps, per
(namespace, sid), the rooms entered, updated where rooms change (`basic_enter_room`,
`basic_leave_room`, which `close_room` and `disconnect` go through), and answers both from
it. Written as an override of the manager's own methods so it could be offered upstream.
"""

from typing import Any

Key = tuple[str, str]


class IndexedRooms:
    """A mixin for a python-socketio manager (before the manager in the bases)."""

    rooms: dict[str, dict[Any, Any]]
    callbacks: dict[str, Any]
    pending_connect: dict[str, list[str]]
    pending_disconnect: dict[str, list[str]]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # (namespace, sid) -> its rooms in the order entered (None: the connected list).
        self._rooms_of: dict[Key, dict[Any, None]] = {}

    def basic_enter_room(self, sid: str, namespace: str, room: Any, eio_sid: Any = None) -> None:
        super().basic_enter_room(sid, namespace, room, eio_sid=eio_sid)  # type: ignore[misc]
        self._rooms_of.setdefault((namespace, sid), {})[room] = None

    def basic_leave_room(self, sid: str, namespace: str, room: Any) -> None:
        super().basic_leave_room(sid, namespace, room)  # type: ignore[misc]
        entered = self._rooms_of.get((namespace, sid))
        if entered is not None:
            entered.pop(room, None)
            if not entered:
                del self._rooms_of[(namespace, sid)]

    def get_rooms(self, sid: str, namespace: str) -> list[Any]:
        """The rooms `sid` is in (its own sid room included, the connected list not)."""
        return [room for room in self._rooms_of.get((namespace, sid), ()) if room is not None]

    def basic_disconnect(self, sid: str, namespace: str, **kwargs: Any) -> None:
        """As python-socketio's, but leaving the rooms the index names rather than testing
        every room of the namespace."""
        if namespace not in self.rooms:
            return
        for room in list(self._rooms_of.get((namespace, sid), ())):
            self.basic_leave_room(sid, namespace, room)
        self.callbacks.pop(sid, None)
        for pending in (self.pending_connect, self.pending_disconnect):
            waiting = pending.get(namespace)
            if waiting is not None and sid in waiting:
                waiting.remove(sid)
                if not waiting:
                    del pending[namespace]
