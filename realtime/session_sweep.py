"""Sockets of an ended session stop on every node, whatever Redis does (docs/security.md).

Sign-out, cancellation and inactivity expiry revoke a session in the database, then tell its
sockets through the Socket.IO manager; with several nodes that message crosses Redis, and an
emit that cannot reach Redis is dropped. So each node also sweeps its own sockets: every
SESSION_SWEEP_SECONDS it asks the database which of its local sessions no longer
authenticate (revoked, or idle past the limit) and tells and closes their sockets itself.
No message crosses nodes, so a Redis outage delays nothing.
"""

import asyncio
import logging
from datetime import datetime, timedelta

from realtime.push import local_session_ids
from realtime.state import AppState
from storage.repo_users import live_sessions
from storage.types import utcnow

log = logging.getLogger(__name__)
# Sessions asked about in one statement (bound parameters stay well under every limit).
BATCH = 500


async def live_session_ids(state: AppState, session_ids: list[int], now: datetime) -> set[int]:
    """Which of `session_ids` still authenticate (not revoked, not idle past the limit),
    asked BATCH at a time."""
    active_since = now - timedelta(seconds=state.settings.inactivity_seconds)
    live: set[int] = set()
    for start in range(0, len(session_ids), BATCH):
        batch = session_ids[start : start + BATCH]
        async with state.db.read() as session:
            live |= await live_sessions(
                session, session_ids=batch, active_since=active_since, now=now
            )
    return live


async def sweep_local_sessions(state: AppState, now: datetime) -> int:
    """Close this node's sockets of sessions that ended; returns how many sessions."""
    local = local_session_ids(state.publisher.sio.manager)
    live = await live_session_ids(state, local, now)
    # A session with a call still running waits for the next sweep: a call that ended its
    # own session closes it once its reply is sent (push.py `answering`).
    spared = live | state.publisher.answering_sessions()
    ended = [session_id for session_id in local if session_id not in spared]
    for session_id in ended:
        await state.publisher.end_local_session(session_id)
    return len(ended)


async def run_session_sweeps(state: AppState) -> None:
    while True:
        await asyncio.sleep(state.settings.session_sweep_seconds)
        try:
            await sweep_local_sessions(state, utcnow())
        except Exception as exc:  # the database may be down; the next sweep tries again
            log.warning("session sweep failed: %s", type(exc).__name__)
