"""Queries of account erasure and of the retention purge (docs/security.md, "Erasure and
retention"): the person's rows found, deleted or blanked."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import String, cast, delete, or_, update
from sqlmodel import col, select
from sqlmodel.ext.asyncio.session import AsyncSession

from storage.models import (
    Appointment,
    Clinic,
    ContactMessage,
    OutboxMail,
    Presence,
    SignInLink,
    WaitlistEntry,
)

# What a blanked outbox row keeps in place of a mail that spoke of an erased person.
BLANKED_SUBJECT = "(erased)"


async def appointment_ids_of(session: AsyncSession, *, user_id: str) -> list[str]:
    """The ids of every appointment of a user (read without locks: the paths to lock)."""
    rows = await session.exec(select(Appointment.id).where(Appointment.user_id == user_id))
    return list(rows.all())


async def lock_appointments_of(session: AsyncSession, *, user_id: str) -> list[Appointment]:
    """Every appointment of a user, locked for the transaction, oldest first."""
    rows = await session.exec(
        select(Appointment)
        .where(Appointment.user_id == user_id)
        .order_by(col(Appointment.created), col(Appointment.id))
        .with_for_update()
    )
    return list(rows.all())


async def delete_sign_in_links(session: AsyncSession, *, email: str) -> None:
    await session.execute(delete(SignInLink).where(col(SignInLink.email) == email))


async def delete_contact_messages(
    session: AsyncSession, *, emails: Sequence[str], appointment_ids: Sequence[str]
) -> None:
    """Messages sent from one of the addresses or about one of the appointments."""
    await session.execute(
        delete(ContactMessage).where(
            or_(
                col(ContactMessage.email).in_(list(emails)),
                col(ContactMessage.appointment_id).in_(list(appointment_ids)),
            )
        )
    )


async def delete_presence_of(
    session: AsyncSession, *, appointment_ids: Sequence[str], session_ids: Sequence[int]
) -> set[str]:
    """Presence rows of the appointments or of the sessions; the clinics they were in."""
    result = await session.execute(
        delete(Presence)
        .where(
            or_(
                col(Presence.appointment_id).in_(list(appointment_ids)),
                col(Presence.session_id).in_(list(session_ids)),
            )
        )
        .returning(col(Presence.clinic_id))
    )
    return {row[0] for row in result.all()}


async def delete_waitlist_entries(session: AsyncSession, *, appointment_ids: Sequence[str]) -> None:
    await session.execute(
        delete(WaitlistEntry).where(col(WaitlistEntry.appointment_id).in_(list(appointment_ids)))
    )


async def delete_mail_to(session: AsyncSession, *, email: str) -> None:
    """Every outbox row addressed to `email`, delivered or not (an undelivered one is then
    never sent: its delivery finds no row)."""
    await session.execute(delete(OutboxMail).where(col(OutboxMail.to) == email))


async def blank_mail_mentioning(session: AsyncSession, *, texts: Sequence[str]) -> None:
    """Outbox rows to others (the clinic's copy of a contact message) whose subject or body
    contains one of `texts`: their content is replaced, their delivery record stays."""
    for text in texts:
        await session.execute(
            update(OutboxMail)
            .where(
                or_(
                    col(OutboxMail.subject).contains(text, autoescape=True),
                    col(OutboxMail.text).contains(text, autoescape=True),
                    col(OutboxMail.html).contains(text, autoescape=True),
                )
            )
            .values(subject=BLANKED_SUBJECT, text="", html=None, links=[], attachments=None)
        )


async def retained_past(
    session: AsyncSession,
    *,
    clinic_id: str,
    ended: Sequence[str],
    before_day: str,
    before: datetime,
    limit: int,
) -> list[str]:
    """Ids of the clinic's appointments whose intake is kept past the retention period:
    submitted or ended, dated before `before_day` (YYYY-MM-DD, clinic zone), or undated and
    submitted (else last changed) before `before`; only those still holding answers or
    personal fields (a purged one is not found again)."""
    holding: Any = or_(
        cast(Appointment.intake, String) != "{}",
        col(Appointment.patient_role).is_not(None),
        col(Appointment.person_timezone).is_not(None),
        col(Appointment.join_url).is_not(None),
    )
    rows = await session.exec(
        select(Appointment.id)
        .where(Appointment.clinic_id == clinic_id)
        .where(or_(col(Appointment.submitted_at).is_not(None), col(Appointment.status).in_(ended)))
        .where(holding)
        .where(
            or_(
                col(Appointment.date) < before_day,
                col(Appointment.date).is_(None)
                & (
                    or_(
                        col(Appointment.submitted_at) < before,
                        col(Appointment.submitted_at).is_(None)
                        & (col(Appointment.updated) < before),
                    )
                ),
            )
        )
        .limit(limit)
    )
    return list(rows.all())


async def all_clinics(session: AsyncSession) -> list[Clinic]:
    """Every clinic (each has its own retention period and timezone)."""
    return list((await session.exec(select(Clinic).order_by(col(Clinic.id)))).all())
