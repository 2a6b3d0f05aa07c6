"""Queries on e-mailed sign-in links."""

from datetime import datetime

from sqlmodel import select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import SignInLink
from storage.repo_users import hash_token


async def add_link(
    session: AsyncSession,
    *,
    token: str,
    email: str,
    locale: str,
    clinic_id: str | None,
    service_id: str | None,
    created: datetime,
    expires_at: datetime,
) -> SignInLink:
    link = SignInLink(
        token_hash=hash_token(token),
        email=email,
        locale=locale,
        clinic_id=clinic_id,
        service_id=service_id,
        created=created,
        expires_at=expires_at,
    )
    session.add(link)
    await session.flush()
    return link


async def link_for_update(session: AsyncSession, *, token: str) -> SignInLink | None:
    """The link of `token`, locked until the transaction ends (one use only)."""
    query = select(SignInLink).where(SignInLink.token_hash == hash_token(token)).with_for_update()
    return (await session.exec(query)).first()
