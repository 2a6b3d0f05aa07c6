"""Queries on staff members and their second factor (docs/protocol.md, "Staff sign-in and
roles"). Codes arrive here already hashed; nothing here knows TOTP itself."""

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import AuthSession, Counselor, StaffMember, StaffRecoveryCode


async def lock_staff_member(session: AsyncSession, *, email: str) -> StaffMember | None:
    """The staff member of an address, its row locked for the transaction (FOR UPDATE;
    BEGIN IMMEDIATE on SQLite locks the file): codes of one account are checked one at a
    time on every node."""
    return (
        await session.exec(select(StaffMember).where(StaffMember.email == email).with_for_update())
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
    return (await session.exec(select(StaffMember).where(StaffMember.email == email))).first()
