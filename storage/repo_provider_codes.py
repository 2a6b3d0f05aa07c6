"""Queries on a clinic's provider codes (the referring institutions the questionnaire's
first step names: docs/protocol.md, "Provider codes")."""

from datetime import datetime

from sqlalchemy import bindparam
from sqlalchemy import select as core_select
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.documents import table_of
from storage.models import ProviderCode

_TABLE = table_of(ProviderCode)
# The institution of an active code of a clinic, by `clinic_id` and `code` (the intake's
# write checks it inside its own statements: realtime/collections.py).
ACTIVE_CODE_NAME = core_select(_TABLE.c.name).where(
    _TABLE.c.clinic_id == bindparam("clinic_id"),
    _TABLE.c.code == bindparam("code"),
    _TABLE.c.active,
)


async def codes_of(session: AsyncSession, *, clinic_id: str) -> list[ProviderCode]:
    rows = await session.exec(
        select(ProviderCode)
        .where(ProviderCode.clinic_id == clinic_id)
        .order_by(col(ProviderCode.code))
    )
    return list(rows.all())


async def active_code(session: AsyncSession, *, clinic_id: str, code: str) -> ProviderCode | None:
    """The clinic's code exactly as written (case-sensitive), when it is active."""
    row = await session.get(ProviderCode, (clinic_id, code))
    return row if row is not None and row.active and row.code == code else None


async def put_code(
    session: AsyncSession, *, clinic_id: str, code: str, name: str, active: bool, at: datetime
) -> tuple[ProviderCode, ProviderCode | None]:
    """Add the code or change its institution and state; the row, and a copy of it as it
    was before (None: added)."""
    row = await session.get(ProviderCode, (clinic_id, code), with_for_update=True)
    before = None
    if row is None:
        row = ProviderCode(clinic_id=clinic_id, code=code, name=name, active=active, updated=at)
        session.add(row)
    else:
        before = ProviderCode(**row.model_dump())
        row.name, row.active, row.updated = name, active, at
    await session.flush()
    return row, before
