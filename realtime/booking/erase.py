"""account-erase: the person withdraws consent and has their data deleted, in one write
(docs/security.md, "Erasure and retention", says what happens to each table):

1. every appointment of theirs still open is cancelled through the person's own cancel
   (realtime/booking/cancel.py `cancel_own`: the time freed for every calendar, its mails,
   and whatever else a person's cancel does, such as a refund by the cancellation policy);
2. every appointment of theirs loses its answers and personal fields (`deidentify`), its
   consent marked withdrawn; the booking and payment facts stay;
3. the rows elsewhere that carry their data are deleted (sign-in links, contact messages,
   presence, waitlist places, mails addressed to them) or blanked (mails to others that
   quote their address);
4. the user row keeps its id (appointments keep their owner) with every personal field
   replaced: the address becomes `erased-<uid>@erased.invalid`, so the same address signs in
   later as a new user who sees nothing from before;
5. every session ends (their sockets close once this call's reply is sent);
6. one confirmation mail goes to the address, in their language, queued last: the one row
   of the outbox still addressed to them.
"""

from typing import Any

from realtime.booking.cancel import cancel_own
from realtime.booking.deidentify import deidentify
from realtime.booking.notify import mail_locale
from realtime.booking.status import can_move
from realtime.changes import changing
from realtime.contract import DEFAULT_LOCALE, LOCALES
from realtime.errors import FunctionError, no_access
from realtime.identity import Identity
from realtime.mail.render import render
from realtime.paths import appointment_path, presence_path, user_path
from realtime.state import AppState
from storage.documents import mark_changed
from storage.models import Appointment, User
from storage.repo_erasure import (
    appointment_ids_of,
    blank_mail_mentioning,
    delete_contact_messages,
    delete_mail_to,
    delete_presence_of,
    delete_sign_in_links,
    delete_waitlist_entries,
    lock_appointments_of,
)
from storage.repo_users import lock_user, revoke_user_sessions
from storage.types import iso, utcnow

# A cancelled payment on its way back to the person, or back already.
REFUND_STATES = ("refund_pending", "refunded")
ERASED_DOMAIN = "erased.invalid"  # RFC 2606: never an address anyone receives mail at


def erased_address(uid: str) -> str:
    """What an erased user's `email` becomes: unique (the column is), and no address."""
    return f"erased-{uid}@{ERASED_DOMAIN}"


def is_erased_address(email: str) -> bool:
    return email.endswith(f"@{ERASED_DOMAIN}")


async def erase_account(state: AppState, who: Identity) -> None:
    """Erase the caller's account (a client's: realtime/functions/account.py refuses staff)."""
    if who.is_staff:
        raise no_access()
    async with state.db.read() as session:
        ids = await appointment_ids_of(session, user_id=who.uid)
    own_path = user_path(who.uid)
    paths = [own_path, *(appointment_path(i) for i in ids)]
    async with changing(state, *paths) as change, state.db.write() as session:
        user = await lock_user(session, user_id=who.uid)
        if user is None or user.erased_at is not None:
            raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
        now = utcnow()
        rows = await lock_appointments_of(session, user_id=user.id)
        cancelled = [row for row in rows if can_move(row.status, "cancelled")]
        for row in cancelled:
            await cancel_own(state, session, change, row, "", now)
        email, locale = user.email, _locale_of(user, rows)
        confirmation = render("account_erased", locale, **_mail_context(cancelled))
        appointment_ids = [row.id for row in rows]
        addresses = sorted({email, *filter(None, (_intake_email(row) for row in rows))})
        # The mails the cancel just queued for the person go too: the confirmation below
        # says the booking was cancelled and refunded by the policy.
        await delete_mail_to(session, email=email)
        await blank_mail_mentioning(session, texts=addresses)
        await delete_sign_in_links(session, email=email)
        await delete_contact_messages(session, emails=addresses, appointment_ids=appointment_ids)
        await delete_waitlist_entries(session, appointment_ids=appointment_ids)
        for row in rows:
            deidentify(row)
            row.consent = {**(row.consent or {}), "withdrawnAt": iso(now)}
            mark_changed(row, now)
            change.row(appointment_path(row.id), row)
        _forget_user(user)
        user.erased_at = now
        mark_changed(user, now)
        change.row(own_path, user)
        ended = await revoke_user_sessions(session, user_id=user.id, at=now)
        change.end_sessions(ended, after_reply=True)
        clinics = await delete_presence_of(
            session, appointment_ids=appointment_ids, session_ids=ended
        )
        for clinic_id in sorted(clinics):
            change.derived_changed(presence_path(clinic_id))
        change.mail(await state.mailer.queue(session, to=email, mail=confirmation, links=[]))


def _forget_user(user: User) -> None:
    user.email = erased_address(user.id)
    user.appointment_id = None
    user.locale = None
    user.user_agent = None
    user.app_version = None
    user.entry_clinic_id = None
    user.entry_service_id = None


def _locale_of(user: User, rows: list[Appointment]) -> str:
    """The person's language: their account's, else their latest appointment's."""
    if user.locale in LOCALES:
        return str(user.locale)
    return mail_locale(rows[-1]) if rows else DEFAULT_LOCALE


def _intake_email(row: Appointment) -> str | None:
    """The contact address given in the answers, which may differ from the account's."""
    contact = row.intake.get("contactInfo") if isinstance(row.intake, dict) else None
    value = contact.get("email") if isinstance(contact, dict) else None
    return value if isinstance(value, str) and value else None


def _mail_context(cancelled: list[Appointment]) -> dict[str, Any]:
    """What the confirmation says: whether a booking was cancelled and whether a payment is
    being refunded (by the cancellation policy; the amount is the refund's own business)."""
    refunding = any((row.payment or {}).get("status") in REFUND_STATES for row in cancelled)
    return {"cancelled": bool(cancelled), "refunding": refunding}
