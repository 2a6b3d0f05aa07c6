"""Activity, inactivity expiry and who is online (docs/product.md, "Behaviours across
screens"; docs/protocol.md, "Presence and inactivity": `activity`, `session`).

- The client sends `activity` (throttled) while the person types, clicks or moves the mouse,
  with the step they are on. The session's `last_activity` is written at most every
  ACTIVITY_WRITE_SECONDS, and every tab of the session is told to start its countdown again
  (`session` {"state": "active", "secondsLeft": limit}), so all tabs count down together.
- Every node checks sessions every SESSION_CHECK_SECONDS: those with less than the warning
  time left get `session` {"state": "warning", "secondsLeft": n}; those idle past the limit are
  revoked in the database (one node wins each) and their sockets get {"state": "expired"} and
  are closed. This holds even when no page is open any more.
- Presence: each socket of a client with an open appointment is a `presence` row with the
  step it is on; the staff's live document `clinics/{clinicId}/presence` lists who is online.
  A row is written only when its step changed or its last write is ACTIVITY_WRITE_SECONDS
  old, at most once per PRESENCE_SECONDS per socket (the latest step wins), and the document
  is pushed at most once per PRESENCE_SECONDS per clinic: a flood of `activity` costs
  neither writes nor pushes (issue #12).
"""

import asyncio
import logging
import time
from dataclasses import dataclass
from datetime import datetime, timedelta

from realtime.changes import Change, publish
from realtime.coalesce import Coalesced
from realtime.identity import Identity
from realtime.paths import presence_path
from realtime.state import AppState
from realtime.text import clean
from storage.repo_presence import (
    add_presence,
    forget_sessions,
    forget_stale,
    remove_presence,
    set_step,
)
from storage.repo_users import (
    revoke_idle_sessions,
    sessions_idle_between,
    touch_session,
)
from storage.types import utcnow

log = logging.getLogger(__name__)

ACTIVITY_WRITE_SECONDS = 10.0
PRESENCE_SECONDS = 1.0
MAX_STEP_LENGTH = 40


@dataclass
class Step:
    """A local socket's step for its presence row, and when a write of it was last asked
    for (time.monotonic(); -inf: never, so the first step is written at once)."""

    step: str | None
    asked: float = float("-inf")


class Activity:
    """Per-node state: the throttle of activity writes by session; which local sockets have a
    presence row (so sockets without one never cost a write on disconnect) and their step;
    the grouped writes of those rows and pushes of each clinic's presence document."""

    def __init__(self, state: AppState) -> None:
        self._written: dict[int, float] = {}
        self.present: dict[str, Step] = {}
        # Write often enough that a short limit (tests) still sees every active minute.
        self.every = min(ACTIVITY_WRITE_SECONDS, state.settings.inactivity_seconds / 6)
        self.pushes = Coalesced(
            lambda clinic_id: _presence_changed(state, [clinic_id]), PRESENCE_SECONDS
        )
        self.steps = Coalesced(lambda sid: _write_step(state, self, sid), PRESENCE_SECONDS)

    def due(self, session_id: int) -> bool:
        now = time.monotonic()
        if now - self._written.get(session_id, -1e9) < self.every:
            return False
        self._written[session_id] = now
        if len(self._written) > 100_000:
            self._written = {k: v for k, v in self._written.items() if now - v < 3600}
        return True

    def moved(self, sid: str, step: str) -> None:
        """Ask for a write of a socket's step when it changed or its row is getting old."""
        held = self.present.get(sid)
        now = time.monotonic()
        if held is None or (held.step == step and now - held.asked < self.every):
            return
        held.step, held.asked = step, now
        self.steps.request(sid)


async def record_activity(
    state: AppState, activity: Activity, who: Identity, sid: str, step: object
) -> None:
    now = utcnow()
    if activity.due(who.session_id):
        async with state.db.write() as session:
            await touch_session(session, session_id=who.session_id, at=now)
        await state.publisher.session_state(
            who.session_id, "active", state.settings.inactivity_seconds
        )
    if (
        isinstance(step, str)
        and 0 < len(step) <= MAX_STEP_LENGTH
        and clean(step, multiline=False) is not None
    ):
        activity.moved(sid, step)


async def _write_step(state: AppState, activity: Activity, sid: str) -> None:
    """Write the latest step of a local socket (still connected) to its presence row."""
    held = activity.present.get(sid)
    if held is None:
        return
    async with state.db.write() as session:
        found = await set_step(session, sid=sid, step=held.step, at=utcnow())
    if found is None:
        return
    clinic_id, changed = found
    if changed:
        activity.pushes.request(clinic_id)


async def socket_connected(
    state: AppState,
    activity: Activity,
    who: Identity,
    sid: str,
    appointment: tuple[str, str] | None,
) -> None:
    """Clients with an open appointment (its id and clinic, read with the session at the
    handshake) appear online for their clinic's staff."""
    if who.role != "client" or appointment is None:
        return
    appointment_id, clinic_id = appointment
    async with state.db.write() as session:
        await add_presence(
            session,
            sid=sid,
            session_id=who.session_id,
            clinic_id=clinic_id,
            appointment_id=appointment_id,
            at=utcnow(),
        )
    activity.present[sid] = Step(step=None)
    activity.pushes.request(clinic_id)


async def socket_disconnected(state: AppState, activity: Activity, sid: str) -> None:
    if activity.present.pop(sid, None) is None:
        return
    async with state.db.write() as session:
        clinic_id = await remove_presence(session, sid=sid)
    if clinic_id is None:
        return
    activity.pushes.request(clinic_id)


async def _presence_changed(state: AppState, clinic_ids: list[str]) -> None:
    """Publish the clinics' presence documents. Presence rows are written without the
    documents' locks and their pushes coalesced (a flood of sockets costs one push a
    second), so the change is published on its own, after the rows' writes."""
    change = Change()
    for clinic_id in clinic_ids:
        change.derived_changed(presence_path(clinic_id))
    await publish(state, change)


async def check_sessions(state: AppState, now: datetime) -> int:
    """Warn sessions near the limit and end those past it; returns how many ended."""
    limit = timedelta(seconds=state.settings.inactivity_seconds)
    warning = timedelta(seconds=state.settings.inactivity_warning_seconds)
    async with state.db.write() as session:
        ended = await revoke_idle_sessions(session, idle_since=now - limit, at=now)
        if ended:
            await forget_sessions(session, session_ids=ended)
    async with state.db.read() as session:
        near = await sessions_idle_between(
            session, oldest=now - limit, newest=now - limit + warning
        )
    for session_id, last in near:
        left = int((last + limit - now).total_seconds())
        await state.publisher.session_state(session_id, "warning", max(left, 0))
    change = Change()
    change.end_sessions(ended, after_reply=False)
    await publish(state, change)
    return len(ended)


async def forget_stale_presence(state: AppState, now: datetime) -> int:
    """Rows of sockets on a node that died: not seen for longer than the inactivity limit."""
    stale = now - timedelta(seconds=state.settings.inactivity_seconds)
    async with state.db.write() as session:
        clinics = await forget_stale(session, seen_before=stale)
    await _presence_changed(state, list(clinics))
    return len(clinics)


async def run_session_checks(state: AppState) -> None:
    while True:
        try:
            await check_sessions(state, utcnow())
        except Exception:
            log.exception("session check failed")
        await asyncio.sleep(state.settings.session_check_seconds)
