"""Queries of the sign-in through a clinic's OpenID Connect provider (realtime/oidc): the
providers clinic_admins set, sign-ins under way, members' subjects there, and the sessions
checked again at the provider. Secrets arrive here sealed; nothing here knows OIDC."""

from datetime import datetime

from sqlalchemy import delete, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import AuthSession, ClinicIdentityProvider, OidcLogin, OidcSession, StaffMember
from storage.repo_users import hash_token


async def workspace_provider(
    session: AsyncSession, *, clinic_id: str
) -> ClinicIdentityProvider | None:
    return await session.get(ClinicIdentityProvider, clinic_id)


async def workspace_providers(session: AsyncSession) -> list[ClinicIdentityProvider]:
    rows = await session.exec(
        select(ClinicIdentityProvider).order_by(col(ClinicIdentityProvider.clinic_id))
    )
    return list(rows.all())


async def lock_workspace_provider(
    session: AsyncSession, *, clinic_id: str
) -> ClinicIdentityProvider | None:
    return (
        await session.exec(
            select(ClinicIdentityProvider)
            .where(ClinicIdentityProvider.clinic_id == clinic_id)
            .with_for_update()
        )
    ).first()


async def add_workspace_provider(session: AsyncSession, *, row: ClinicIdentityProvider) -> None:
    session.add(row)
    await session.flush()


async def add_login(session: AsyncSession, *, login: OidcLogin) -> None:
    session.add(login)
    await session.flush()


async def take_login(session: AsyncSession, *, state_hash: str, at: datetime) -> OidcLogin | None:
    """The unused, unexpired sign-in of a state, marked used in the same statement: of two
    callbacks with one state (a replay, or a double click) exactly one gets it."""
    result = await session.execute(
        update(OidcLogin)
        .where(col(OidcLogin.state_hash) == state_hash)
        .where(col(OidcLogin.used_at).is_(None))
        .where(col(OidcLogin.expires_at) > at)
        .values(used_at=at)
        .returning(col(OidcLogin.id))
    )
    found = result.first()
    return None if found is None else await session.get(OidcLogin, int(found[0]))


async def forget_logins(session: AsyncSession, *, expired_before: datetime) -> int:
    result = await session.execute(
        delete(OidcLogin).where(col(OidcLogin.expires_at) <= expired_before)
    )
    return int(getattr(result, "rowcount", 0) or 0)


async def member_of_subject(
    session: AsyncSession, *, issuer: str, subject: str
) -> StaffMember | None:
    """The member linked to a provider's subject, removed or not (at most one)."""
    return (
        await session.exec(
            select(StaffMember)
            .where(StaffMember.oidc_issuer == issuer)
            .where(StaffMember.oidc_subject == subject)
            .with_for_update()
        )
    ).first()


async def add_oidc_session(session: AsyncSession, *, row: OidcSession) -> None:
    session.add(row)
    await session.flush()


async def claim_due_checks(
    session: AsyncSession, *, now: datetime, next_check_at: datetime, limit: int
) -> list[int]:
    """Sessions due for a check at the provider, of live sessions, each handed to exactly one
    caller (their next check moves to `next_check_at` in the same statement): two nodes never
    spend one refresh token twice."""
    due = (
        select(OidcSession.session_id)
        .join(AuthSession, col(AuthSession.id) == OidcSession.session_id)
        .where(col(AuthSession.revoked_at).is_(None))
        .where(col(OidcSession.next_check_at) <= now)
        .order_by(col(OidcSession.next_check_at))
        .limit(limit)
    )
    result = await session.execute(
        update(OidcSession)
        .where(col(OidcSession.session_id).in_(due.scalar_subquery()))
        .where(col(OidcSession.next_check_at) <= now)
        .values(next_check_at=next_check_at)
        .returning(col(OidcSession.session_id))
    )
    return [int(row[0]) for row in result.all()]


async def get_oidc_session(session: AsyncSession, *, session_id: int) -> OidcSession | None:
    return await session.get(OidcSession, session_id)


async def session_of_token(session: AsyncSession, *, token: str) -> int:
    """The id of the session a bearer token was just made for (in this transaction)."""
    found = (
        await session.exec(
            select(AuthSession.id).where(AuthSession.token_hash == hash_token(token))
        )
    ).one()
    assert found is not None
    return int(found)
