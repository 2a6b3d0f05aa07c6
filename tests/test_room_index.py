"""The room index (realtime/room_index.py) answers as python-socketio's own search does:
the same sequence of connects, room changes, room closes and disconnects is run on our
manager and on python-socketio's, and every socket's rooms and every room's members must
agree after each step (each manager names its sockets itself: compared through a client
number)."""

import random

import pytest
import socketio

from realtime.push import LocalManager

NAMESPACE = "/"


def view(manager: socketio.AsyncManager, names: dict[str, int]) -> dict[object, set[int]]:
    """Each room's members as client numbers (a socket's own room named by its number)."""
    rooms = manager.rooms.get(NAMESPACE, {})
    return {names.get(room, room): {names[sid] for sid in sids} for room, sids in rooms.items()}


def rooms_of(manager: socketio.AsyncManager, sid: str, names: dict[str, int]) -> set[object]:
    return {names.get(room, room) for room in manager.get_rooms(sid, NAMESPACE)}


@pytest.mark.parametrize("seed", range(5))
async def test_the_index_agrees_with_python_socketio_step_by_step(seed: int) -> None:
    chance = random.Random(seed)
    managers = (LocalManager(), socketio.AsyncManager())
    for manager in managers:  # a server of each: it makes the sids
        socketio.AsyncServer(client_manager=manager)
    names: tuple[dict[str, int], dict[str, int]] = ({}, {})  # sid -> client number
    clients: list[tuple[str, str]] = []  # (our sid, their sid), by client
    rooms = [f"documents/{i}" for i in range(12)]
    for step in range(400):
        action = chance.random()
        if action < 0.25 or not clients:
            pair = tuple([await m.connect(f"eio-{step}", NAMESPACE) for m in managers])
            for index, sid in enumerate(pair):
                names[index][sid] = step
            clients.append((pair[0], pair[1]))
        elif action < 0.85:
            pair, room = chance.choice(clients), chance.choice(rooms)
            for m, sid in zip(managers, pair, strict=True):
                if action < 0.6:
                    await m.enter_room(sid, NAMESPACE, room)
                elif action < 0.8:
                    await m.leave_room(sid, NAMESPACE, room)
                else:
                    await m.close_room(room, NAMESPACE)
        else:
            pair = clients.pop(chance.randrange(len(clients)))
            for m, sid in zip(managers, pair, strict=True):
                await m.disconnect(sid, NAMESPACE)
        assert view(managers[0], names[0]) == view(managers[1], names[1])
        for ours, theirs in clients:
            assert rooms_of(managers[0], ours, names[0]) == rooms_of(managers[1], theirs, names[1])
    assert managers[0]._rooms_of.keys() == {(NAMESPACE, ours) for ours, _ in clients}
