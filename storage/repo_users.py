"""Queries on users and their sessions."""

import hashlib
import secrets
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, or_, update
from sqlalchemy import select as sa_select
from sqlalchemy.orm import aliased
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import Appointment, AuthSession, StaffMember, User
from storage.statements import Row, Statements
from storage.types import utcnow

TOKEN_BYTES = 32


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_id() -> str:
    """A random, URL-safe, unguessable identifier (about 128 bits)."""
    return secrets.token_urlsafe(16)


@dataclass(frozen=True)
class SessionOwner:
    """Whose a live session is: the session, its user, and the user's staff membership (the
    caller's identity is built from it in realtime/auth.py)."""

    session_id: int
    uid: str
    email: str
    staff_role: str | None
    clinic_id: str | None
    counselor_id: str | None = None
    totp_confirmed: bool = False
    second_factor_passed: bool = False
    # The appointment the user's record points at and its clinic: a client's socket shows
    # them online there (realtime/presence.py).
    appointment: tuple[str, str] | None = None
    # A session of a signed mail link (realtime/link_scope.py): its purpose, its appointment
    # as it stands now, and when the session ends.
    link: "LinkedAppointment | None" = None


@dataclass(frozen=True)
class LinkedAppointment:
    """The one appointment a link's session is scoped to, read with the session."""

    purpose: str
    appointment_id: str
    status: str | None  # None: the appointment is gone (erased)
    clinic_id: str | None
    service_id: str | None
    expires_at: datetime | None


async def get_or_create_user(
    session: AsyncSession,
    *,
    email: str,
    entry_clinic_id: str | None = None,
    entry_service_id: str | None = None,
) -> User:
    user = (await session.exec(select(User).where(User.email == email))).first()
    if user is None:
        user = User(id=new_id(), email=email, created=utcnow())
        session.add(user)
    if entry_clinic_id is not None:
        user.entry_clinic_id = entry_clinic_id
    if entry_service_id is not None:
        user.entry_service_id = entry_service_id
    await session.flush()
    return user


async def create_session(
    session: AsyncSession,
    *,
    user_id: str,
    second_factor_at: datetime | None = None,
    link: tuple[str, str, datetime] | None = None,
) -> str:
    """Start a session and return its bearer token (only its hash is stored). `link`:
    (purpose, appointment id, end) of a session opened by a signed mail link."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    now = utcnow()
    purpose, appointment_id, expires_at = link if link else (None, None, None)
    session.add(
        AuthSession(
            token_hash=hash_token(token),
            user_id=user_id,
            created=now,
            last_activity=now,
            second_factor_at=second_factor_at,
            link_purpose=purpose,
            link_appointment_id=appointment_id,
            expires_at=expires_at,
        )
    )
    await session.flush()
    return token


def _not_expired() -> Any:
    """A session without an end, or whose end (`expires_at`) is after the bound `now`."""
    return or_(
        col(AuthSession.expires_at).is_(None), col(AuthSession.expires_at) > bindparam("now")
    )


_Linked = aliased(Appointment, name="linked")


def _owner_statement(key: Any) -> Any:
    """A session's owner by `key` (a bound parameter), live since `active_since` and not
    past its end at `now`: the user, their staff membership, the appointment their record
    points at and a link session's own appointment, in one statement."""
    return (
        sa_select(
            col(AuthSession.id).label("session_id"),
            col(User.id).label("uid"),
            col(User.email).label("email"),
            col(StaffMember.role).label("staff_role"),
            col(StaffMember.clinic_id).label("clinic_id"),
            col(StaffMember.counselor_id).label("counselor_id"),
            col(StaffMember.totp_confirmed_at).label("totp_confirmed_at"),
            col(AuthSession.second_factor_at).label("second_factor_at"),
            col(Appointment.id).label("appointment_id"),
            col(Appointment.clinic_id).label("appointment_clinic_id"),
            col(AuthSession.link_purpose).label("link_purpose"),
            col(AuthSession.link_appointment_id).label("link_appointment_id"),
            col(AuthSession.expires_at).label("expires_at"),
            col(_Linked.status).label("linked_status"),
            col(_Linked.clinic_id).label("linked_clinic_id"),
            col(_Linked.service_id).label("linked_service_id"),
        )
        .join(User, col(User.id) == AuthSession.user_id)
        # A removed member (removed_at set) is nobody's staff: they sign in as a client.
        .outerjoin(
            StaffMember,
            (col(StaffMember.email) == User.email) & col(StaffMember.removed_at).is_(None),
        )
        .outerjoin(Appointment, col(Appointment.id) == User.appointment_id)
        .outerjoin(_Linked, col(_Linked.id) == AuthSession.link_appointment_id)
        .where(key)
        .where(col(AuthSession.revoked_at).is_(None))
        .where(col(AuthSession.last_activity) > bindparam("active_since"))
        .where(_not_expired())
    )


_OWNER_BY_TOKEN = _owner_statement(col(AuthSession.token_hash) == bindparam("token_hash"))
_OWNER_BY_ID = _owner_statement(col(AuthSession.id) == bindparam("session_id"))


def owner_of_token(
    statements: Statements, *, token: str, active_since: datetime, now: datetime
) -> SessionOwner | None:
    """Who holds a live session token (not revoked, active since `active_since`, not past
    its end at `now`)."""
    params = {"token_hash": hash_token(token), "active_since": active_since, "now": now}
    return _owner(statements.row(_OWNER_BY_TOKEN, params))


def owner_of_session(
    statements: Statements, *, session_id: int, active_since: datetime, now: datetime
) -> SessionOwner | None:
    """Who holds a live session, by its id (a socket's session, read again)."""
    params = {"session_id": session_id, "active_since": active_since, "now": now}
    return _owner(statements.row(_OWNER_BY_ID, params))


def _owner(row: Row | None) -> SessionOwner | None:
    if row is None:
        return None
    appointment_id, appointment_clinic = row["appointment_id"], row["appointment_clinic_id"]
    return SessionOwner(
        session_id=int(row["session_id"]),
        uid=row["uid"],
        email=row["email"],
        staff_role=row["staff_role"],
        clinic_id=row["clinic_id"],
        counselor_id=row["counselor_id"],
        totp_confirmed=row["totp_confirmed_at"] is not None,
        second_factor_passed=row["second_factor_at"] is not None,
        appointment=(appointment_id, appointment_clinic) if appointment_id else None,
        link=_linked(row),
    )


def _linked(row: Row) -> LinkedAppointment | None:
    if row["link_purpose"] is None or row["link_appointment_id"] is None:
        return None
    return LinkedAppointment(
        purpose=row["link_purpose"],
        appointment_id=row["link_appointment_id"],
        status=row["linked_status"],
        clinic_id=row["linked_clinic_id"],
        service_id=row["linked_service_id"],
        expires_at=row["expires_at"],
    )


async def revoke_session(session: AsyncSession, *, session_id: int, at: datetime) -> None:
    row = await session.get(AuthSession, session_id)
    if row is not None and row.revoked_at is None:
        row.revoked_at = at


async def revoke_user_sessions(session: AsyncSession, *, user_id: str, at: datetime) -> list[int]:
    """Revoke every live session of a user; returns their ids (to close their sockets)."""
    rows = await session.exec(
        select(AuthSession)
        .where(AuthSession.user_id == user_id)
        .where(col(AuthSession.revoked_at).is_(None))
    )
    ended: list[int] = []
    for row in rows.all():
        row.revoked_at = at
        assert row.id is not None
        ended.append(row.id)
    return ended


async def touch_session(session: AsyncSession, *, session_id: int, at: datetime) -> None:
    await session.exec(
        update(AuthSession)
        .where(col(AuthSession.id) == session_id)
        .where(col(AuthSession.revoked_at).is_(None))
        .values(last_activity=at)
    )


async def revoke_idle_sessions(
    session: AsyncSession, *, idle_since: datetime, at: datetime
) -> list[int]:
    """Revoke sessions idle since `idle_since`; each is returned by exactly one caller."""
    result = await session.execute(
        update(AuthSession)
        .where(col(AuthSession.revoked_at).is_(None))
        .where(col(AuthSession.last_activity) <= idle_since)
        .values(revoked_at=at)
        .returning(col(AuthSession.id))
    )
    return [int(row[0]) for row in result.all()]


async def sessions_idle_between(
    session: AsyncSession, *, oldest: datetime, newest: datetime
) -> list[tuple[int, datetime]]:
    """Live sessions whose last activity falls in (oldest, newest]: the ones to warn."""
    rows = await session.exec(
        select(AuthSession.id, AuthSession.last_activity)
        .where(col(AuthSession.revoked_at).is_(None))
        .where(col(AuthSession.last_activity) > oldest)
        .where(col(AuthSession.last_activity) <= newest)
    )
    return [(int(i), last) for i, last in rows.all() if i is not None]


async def live_sessions(
    session: AsyncSession, *, session_ids: list[int], active_since: datetime, now: datetime
) -> set[int]:
    """Which of `session_ids` still authenticate: not revoked, active since `active_since`,
    not past their end (a link's session) at `now`."""
    rows = await session.exec(
        select(AuthSession.id)
        .where(col(AuthSession.id).in_(session_ids))
        .where(col(AuthSession.revoked_at).is_(None))
        .where(col(AuthSession.last_activity) > active_since)
        .where(col(AuthSession.expires_at).is_(None) | (col(AuthSession.expires_at) > now))
    )
    return {int(i) for i in rows.all() if i is not None}


async def user_by_email(session: AsyncSession, *, email: str) -> User | None:
    return (await session.exec(select(User).where(User.email == email))).first()


async def get_user(session: AsyncSession, *, user_id: str) -> User | None:
    return await session.get(User, user_id)


async def lock_user(session: AsyncSession, *, user_id: str) -> User | None:
    """The user, its row locked for the transaction (FOR UPDATE; BEGIN IMMEDIATE on SQLite
    locks the file)."""
    return await session.get(User, user_id, with_for_update=True)
