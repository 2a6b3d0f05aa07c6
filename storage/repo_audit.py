"""The audit log: entries are inserted and listed, never changed or deleted (docs/security.md,
"Audit log"; the migration's triggers refuse UPDATE and DELETE at the database)."""

from datetime import datetime
from typing import Any

from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import AuditEntry


async def add_entry(
    session: AsyncSession,
    *,
    at: datetime,
    uid: str,
    email: str,
    role: str,
    clinic_id: str,
    appointment_id: str | None,
    action: str,
    detail: dict[str, Any] | None,
    client_address: str | None,
) -> None:
    """Insert one entry in the caller's transaction: it commits or rolls back with the read
    or action it records."""
    session.add(
        AuditEntry(
            at=at,
            uid=uid,
            email=email,
            role=role,
            clinic_id=clinic_id,
            appointment_id=appointment_id,
            action=action,
            detail=detail,
            client_address=client_address,
        )
    )
    await session.flush()


async def list_entries(
    session: AsyncSession,
    *,
    clinic_id: str,
    appointment_id: str | None,
    since: datetime | None,
    until: datetime | None,
    limit: int,
) -> list[AuditEntry]:
    """A clinic's entries, newest first, at most `limit`; `since` inclusive, `until`
    exclusive."""
    query = select(AuditEntry).where(AuditEntry.clinic_id == clinic_id)
    if appointment_id is not None:
        query = query.where(AuditEntry.appointment_id == appointment_id)
    if since is not None:
        query = query.where(col(AuditEntry.at) >= since)
    if until is not None:
        query = query.where(col(AuditEntry.at) < until)
    query = query.order_by(col(AuditEntry.at).desc(), col(AuditEntry.id).desc()).limit(limit)
    return list((await session.exec(query)).all())


async def latest_entry(
    session: AsyncSession, *, clinic_id: str, leaving_out: str
) -> AuditEntry | None:
    """A clinic's newest entry whose action is not `leaving_out` (the live document
    `clinics/{id}/audit` leaves out reads of the log itself), or None."""
    query = (
        select(AuditEntry)
        .where(AuditEntry.clinic_id == clinic_id, AuditEntry.action != leaving_out)
        .order_by(col(AuditEntry.at).desc(), col(AuditEntry.id).desc())
        .limit(1)
    )
    return (await session.exec(query)).first()
