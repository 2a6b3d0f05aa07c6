"""Rows the server writes and does not read back: contact messages and analytics events."""

from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import AnalyticsEvent, ContactMessage


def add_contact_message(session: AsyncSession, *, message: ContactMessage) -> None:
    """Insert with the caller's transaction (written at its commit)."""
    session.add(message)


def add_analytics_event(session: AsyncSession, *, event: AnalyticsEvent) -> None:
    """Insert with the caller's transaction (written at its commit)."""
    session.add(event)
