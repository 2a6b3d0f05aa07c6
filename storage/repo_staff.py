"""Queries on staff members and their second factor (docs/protocol.md, "Staff sign-in and
roles"). Codes arrive here already hashed; nothing here knows TOTP itself."""

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import (
    Appointment,
    AuthSession,
    Clinic,
    Counselor,
    StaffMember,
    StaffRecoveryCode,
    User,
)


async def lock_staff_member(session: AsyncSession, *, email: str) -> StaffMember | None:
    """The staff member of an address, its row locked for the transaction (FOR UPDATE;
    BEGIN IMMEDIATE on SQLite locks the file): codes of one account are checked one at a
    time on every node. A removed member has none (they are not staff any more)."""
    return (
        await session.exec(
            select(StaffMember)
            .where(StaffMember.email == email)
            .where(col(StaffMember.removed_at).is_(None))
            .with_for_update()
        )
    ).first()


async def add_staff_member(
    session: AsyncSession,
    *,
    email: str,
    clinic_id: str,
    role: str,
    counselor_id: str | None = None,
    totp_secret: str | None = None,
    totp_confirmed_at: datetime | None = None,
) -> StaffMember:
    member = StaffMember(
        email=email,
        clinic_id=clinic_id,
        role=role,
        counselor_id=counselor_id,
        totp_secret=totp_secret,
        totp_confirmed_at=totp_confirmed_at,
    )
    session.add(member)
    await session.flush()
    return member


async def replace_recovery_codes(
    session: AsyncSession, *, staff_id: int, code_hashes: list[str]
) -> None:
    """The member's recovery codes become these (the earlier ones stop working)."""
    await session.exec(delete(StaffRecoveryCode).where(col(StaffRecoveryCode.staff_id) == staff_id))
    for code_hash in code_hashes:
        session.add(StaffRecoveryCode(staff_id=staff_id, code_hash=code_hash))
    await session.flush()


async def use_recovery_code(
    session: AsyncSession, *, staff_id: int, code_hash: str, at: datetime
) -> bool:
    """Use an unused recovery code of the member once; False when there is none such."""
    result = await session.execute(
        update(StaffRecoveryCode)
        .where(col(StaffRecoveryCode.staff_id) == staff_id)
        .where(col(StaffRecoveryCode.code_hash) == code_hash)
        .where(col(StaffRecoveryCode.used_at).is_(None))
        .values(used_at=at)
        .returning(col(StaffRecoveryCode.id))
    )
    return result.first() is not None


async def mark_second_factor(session: AsyncSession, *, session_id: int, at: datetime) -> None:
    """The session passed its second factor (a live session only)."""
    await session.exec(
        update(AuthSession)
        .where(col(AuthSession.id) == session_id)
        .where(col(AuthSession.revoked_at).is_(None))
        .values(second_factor_at=at)
    )


async def get_counselor(session: AsyncSession, *, counselor_id: str) -> Counselor | None:
    return await session.get(Counselor, counselor_id)


async def staff_member(session: AsyncSession, *, email: str) -> StaffMember | None:
    """The staff row of an address, removed or not (an address has at most one)."""
    return (await session.exec(select(StaffMember).where(StaffMember.email == email))).first()


# Staff accounts (realtime/functions/staff_accounts.py) -------------------------------------


async def lock_clinic(session: AsyncSession, *, clinic_id: str) -> Clinic | None:
    """The clinic's row, locked for the transaction (FOR UPDATE; the SQLite writer is serial
    anyway): every change of a clinic's staff takes it first, so two of them never decide on
    the same count of administrators (the last one stays, docs/security.md)."""
    return (
        await session.exec(select(Clinic).where(Clinic.id == clinic_id).with_for_update())
    ).first()


async def members_of(session: AsyncSession, *, clinic_id: str) -> list[StaffMember]:
    """Every member of a clinic, removed ones included, oldest first."""
    rows = await session.exec(
        select(StaffMember).where(StaffMember.clinic_id == clinic_id).order_by(col(StaffMember.id))
    )
    return list(rows.all())


async def get_member(session: AsyncSession, *, staff_id: int) -> StaffMember | None:
    return await session.get(StaffMember, staff_id)


async def active_admins(session: AsyncSession, *, clinic_id: str) -> list[int]:
    """The ids of the clinic's clinic_admins who are not removed."""
    rows = await session.exec(
        select(StaffMember.id)
        .where(StaffMember.clinic_id == clinic_id)
        .where(StaffMember.role == "clinic_admin")
        .where(col(StaffMember.removed_at).is_(None))
    )
    return [row for row in rows.all() if row is not None]


async def counselor_member(session: AsyncSession, *, counselor_id: str) -> StaffMember | None:
    """The active member tied to a counselor, if any."""
    return (
        await session.exec(
            select(StaffMember)
            .where(StaffMember.counselor_id == counselor_id)
            .where(col(StaffMember.removed_at).is_(None))
        )
    ).first()


async def has_appointments(session: AsyncSession, *, email: str) -> bool:
    """Whether the address's account holds any appointment (a client's records)."""
    found = await session.exec(
        select(Appointment.id)
        .join(User, col(User.id) == Appointment.user_id)
        .where(User.email == email)
        .limit(1)
    )
    return found.first() is not None


async def forget_second_factor(session: AsyncSession, *, member: StaffMember) -> None:
    """The member's authenticator and recovery codes are forgotten (a removed member who is
    brought back enrols a new one)."""
    member.totp_secret = None
    member.totp_confirmed_at = None
    member.totp_last_step = None
    if member.id is not None:
        await replace_recovery_codes(session, staff_id=member.id, code_hashes=[])
