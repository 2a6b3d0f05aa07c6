"""Queries on e-mailed sign-in links."""

from datetime import datetime

from sqlalchemy import update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import SignInLink
from storage.repo_users import hash_token


async def add_link(session: AsyncSession, *, link: SignInLink) -> None:
    """Insert a link the caller built (its `token_hash` from `hash_token`), in the caller's
    transaction, as `add_mail` does with a mail."""
    session.add(link)
    await session.flush()


async def link_for_update(session: AsyncSession, *, token: str) -> SignInLink | None:
    """The link of `token`, locked until the transaction ends (one use only)."""
    query = select(SignInLink).where(SignInLink.token_hash == hash_token(token)).with_for_update()
    return (await session.exec(query)).first()


async def lock_links_of(session: AsyncSession, *, email: str) -> None:
    """Lock every unused link of `email`, in id order, before any one of them is locked.

    Using a link retires the address's other links (realtime/signin.py), so two confirmations
    for one address would each lock its own link and then wait for the other's: a deadlock.
    Taking the address's links first, always in the same order, queues them instead.
    """
    query = (
        select(SignInLink.id)
        .where(SignInLink.email == email, col(SignInLink.used_at).is_(None))
        .order_by(col(SignInLink.id))
        .with_for_update()
    )
    (await session.exec(query)).all()


async def retire_other_links(session: AsyncSession, *, used: SignInLink, at: datetime) -> None:
    """Mark the address's other unused links used: once one works, the others never do."""
    await session.exec(
        update(SignInLink)
        .where(
            col(SignInLink.email) == used.email,
            col(SignInLink.used_at).is_(None),
            col(SignInLink.id) != used.id,
        )
        .values(used_at=at)
    )
