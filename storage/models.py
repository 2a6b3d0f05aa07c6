"""SQLModel tables.

Live documents (users, appointments) carry `version`, which rises by one with every
committed change and is what the snapshot protocol hands to clients.
"""

from datetime import date, datetime, time
from typing import Any

from sqlalchemy import Column, Index, text
from sqlmodel import Field, SQLModel

from storage.types import JSONDocument, UTCDateTime

# Clinic defaults (docs/product.md, "After the booking"): reminders 7 days, 1 day and 2 hours
# before; a submitted intake kept 5 years.
DEFAULT_REMINDER_OFFSETS: tuple[int, ...] = (7 * 24 * 60, 24 * 60, 2 * 60)
DEFAULT_RETENTION_DAYS = 5 * 365 + 1
# Service defaults of the cancellation policy: free until 48 hours before, nothing after.
DEFAULT_FREE_CANCEL_HOURS = 48
DEFAULT_LATE_REFUND_PERCENT = 0


def _json(nullable: bool = False) -> Any:
    return Field(default=None, sa_column=Column(JSONDocument, nullable=nullable))


def _ts(nullable: bool = False, index: bool = False) -> Any:
    return Field(
        default=None if nullable else ...,
        sa_column=Column(UTCDateTime(), nullable=nullable, index=index),
    )


class Clinic(SQLModel, table=True):
    __tablename__ = "clinics"

    id: str = Field(primary_key=True, max_length=64)
    name: dict[str, str] = _json()  # {"ja": ..., "en": ...}
    timezone: str = Field(max_length=64)
    contact_email: str = Field(max_length=320)
    # Entry aliases (prenatal, pgt, cancer) -> a service id of this clinic.
    service_aliases: dict[str, str] = _json()
    # What every booking mail signs with, beside the name and contact_email.
    contact_phone: str | None = Field(default=None, max_length=32)
    # Reminder mails, in minutes before the start (realtime/booking/reminders.py).
    reminder_offsets: list[int] = Field(
        default_factory=lambda: list(DEFAULT_REMINDER_OFFSETS),
        sa_column=Column(JSONDocument, nullable=False),
    )
    # A submitted intake is kept this many days after its appointment, then purged.
    retention_days: int = DEFAULT_RETENTION_DAYS
    # Raised by every change of the clinic's holidays (`ClinicHoliday`), like a schedule's.
    holidays_version: int = 1


class Service(SQLModel, table=True):
    __tablename__ = "services"

    id: str = Field(primary_key=True, max_length=64)
    category: str = Field(max_length=16)  # prenatal | pgt | cancer
    name: dict[str, str] = _json()
    price_amount: int | None = None  # in the currency's smallest unit; None: no payment
    price_currency: str | None = Field(default=None, max_length=3)
    session_minutes: int = 60
    buffer_minutes: int = 15
    min_notice_hours: int = 24
    horizon_days: int = 60
    consent_version: str = Field(max_length=32)
    # Prenatal services: slots only while the pregnancy is in this window (weeks of
    # gestation at the appointment, from the expected delivery date in the intake).
    gestation_min_weeks: int | None = None
    gestation_max_weeks: int | None = None
    # Cancellation policy: a cancel until this many hours before the start is refunded in
    # full; later, this share (percent, 0..100) of the amount paid.
    free_cancel_hours: int = DEFAULT_FREE_CANCEL_HOURS
    late_refund_percent: int = DEFAULT_LATE_REFUND_PERCENT
    # Inactive: no new booking (the appointments made stay as they are).
    active: bool = True
    # Raised by every `service-update`: an edit against an older version is refused.
    version: int = 1


class ClinicService(SQLModel, table=True):
    __tablename__ = "clinic_services"

    clinic_id: str = Field(foreign_key="clinics.id", primary_key=True, max_length=64)
    service_id: str = Field(foreign_key="services.id", primary_key=True, max_length=64)


class Counselor(SQLModel, table=True):
    __tablename__ = "counselors"

    id: str = Field(primary_key=True, max_length=64)
    clinic_id: str = Field(foreign_key="clinics.id", index=True, max_length=64)
    name: dict[str, str] = _json()
    email: str = Field(max_length=320)
    languages: list[str] = _json()
    # Raised by every change of the counselor's hours, exceptions or languages: an edit made
    # against an older version is refused (no lost update; docs/protocol.md, "Schedules").
    schedule_version: int = 1


class CounselorHours(SQLModel, table=True):
    """Weekly working hours of a counselor, in the clinic's timezone."""

    __tablename__ = "counselor_hours"

    id: int | None = Field(default=None, primary_key=True)
    counselor_id: str = Field(foreign_key="counselors.id", index=True, max_length=64)
    weekday: int  # 0 Monday .. 6 Sunday
    start: time
    end: time


class CounselorException(SQLModel, table=True):
    """A dated change to the weekly hours: a day off, or extra hours on that date."""

    __tablename__ = "counselor_exceptions"

    id: int | None = Field(default=None, primary_key=True)
    counselor_id: str = Field(foreign_key="counselors.id", index=True, max_length=64)
    day: date
    kind: str = Field(max_length=8)  # off | extra
    start: time | None = None
    end: time | None = None


class StaffMember(SQLModel, table=True):
    """A staff account of one clinic: `counselor` (tied to one counselor) or `clinic_admin`,
    with its second factor (docs/protocol.md, "Staff sign-in and roles")."""

    __tablename__ = "staff_members"
    __table_args__ = (
        Index("ix_staff_members_oidc_subject", "oidc_issuer", "oidc_subject", unique=True),
    )

    id: int | None = Field(default=None, primary_key=True)
    email: str = Field(max_length=320, unique=True)
    clinic_id: str = Field(foreign_key="clinics.id", max_length=64)
    role: str = Field(default="clinic_admin", max_length=32)  # counselor | clinic_admin
    counselor_id: str | None = Field(default=None, foreign_key="counselors.id", max_length=64)
    # TOTP (RFC 6238): the base32 secret; confirmed once a first code was accepted. The
    # last accepted time step refuses a code used again, on every node.
    totp_secret: str | None = Field(default=None, max_length=64)
    totp_confirmed_at: datetime | None = _ts(nullable=True)
    totp_last_step: int | None = None
    # Invited by a clinic_admin (uid, when); removed: no access any more, the row kept so
    # the audit log's names stay readable and an invitation may bring the person back.
    invited_by: str | None = Field(default=None, max_length=64)
    invited_at: datetime | None = _ts(nullable=True)
    removed_at: datetime | None = _ts(nullable=True)
    # The clinic's OpenID Connect provider's subject of this member (realtime/oidc): set on
    # their first sign-in there, by a verified e-mail; a subject is one member's only.
    oidc_issuer: str | None = Field(default=None, max_length=500)
    oidc_subject: str | None = Field(default=None, max_length=255)


class StaffRecoveryCode(SQLModel, table=True):
    """A one-time recovery code of a staff member's second factor; only its hash is kept."""

    __tablename__ = "staff_recovery_codes"

    id: int | None = Field(default=None, primary_key=True)
    staff_id: int = Field(foreign_key="staff_members.id", index=True)
    code_hash: str = Field(max_length=64)
    used_at: datetime | None = _ts(nullable=True)


class User(SQLModel, table=True):
    __tablename__ = "users"

    id: str = Field(primary_key=True, max_length=64)  # the authentication uid
    email: str = Field(max_length=320, unique=True)
    appointment_id: str | None = Field(default=None, max_length=64)
    locale: str | None = Field(default=None, max_length=8)
    user_agent: str | None = Field(default=None, max_length=512)
    app_version: str | None = Field(default=None, max_length=64)  # the record's "version"
    # Sign-in defaults: the clinic and service the person came in through.
    entry_clinic_id: str | None = Field(default=None, max_length=64)
    entry_service_id: str | None = Field(default=None, max_length=64)
    created: datetime = _ts()
    updated: datetime | None = _ts(nullable=True)
    version: int = 1
    # Set by account-erase: the row stays (appointments keep their owner) with every personal
    # field replaced; the address may sign in again later as a new user.
    erased_at: datetime | None = _ts(nullable=True)


class AuthSession(SQLModel, table=True):
    """A signed-in session. Only the SHA-256 of its bearer token is stored."""

    __tablename__ = "auth_sessions"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    user_id: str = Field(foreign_key="users.id", index=True, max_length=64)
    created: datetime = _ts()
    last_activity: datetime = _ts()
    revoked_at: datetime | None = _ts(nullable=True)
    # A staff session is limited until its second factor passed (POST /auth/totp).
    second_factor_at: datetime | None = _ts(nullable=True)
    # A session opened by a signed link of a booking mail (realtime/link_tokens.py) may do
    # only what that link's purpose allows on that one appointment (realtime/link_scope.py),
    # until `expires_at`; an e-mail sign-in's session has none of the three.
    link_purpose: str | None = Field(default=None, max_length=16)
    link_appointment_id: str | None = Field(default=None, max_length=64)
    expires_at: datetime | None = _ts(nullable=True)


class ClinicIdentityProvider(SQLModel, table=True):
    """A clinic's OpenID Connect provider as its clinic_admin set it (the OIDC_PROVIDERS
    setting names others, and wins): the client secret only sealed (realtime/oidc/sealing.py)."""

    __tablename__ = "clinic_identity_providers"

    clinic_id: str = Field(foreign_key="clinics.id", primary_key=True, max_length=64)
    name: str = Field(max_length=80)  # what the button says: "Sign in with <name>"
    issuer: str = Field(max_length=500)
    client_id: str = Field(max_length=255)
    client_secret_sealed: str | None = Field(default=None, max_length=1000)
    # `acr` values the provider sends for a multi-factor sign-in (besides `amr` "mfa").
    mfa_acr: list[str] = Field(default_factory=list, sa_column=Column(JSONDocument, nullable=False))
    # Off: kept as set, but nobody signs in through it; the clinic's staff use e-mail links.
    enabled: bool = True
    updated: datetime = _ts()
    updated_by: str = Field(max_length=64)
    version: int = 1


class OidcLogin(SQLModel, table=True):
    """One sign-in at a clinic's provider under way: its state (kept as a SHA-256), nonce and
    PKCE verifier, bound to the browser that started it (a cookie's hash); used once."""

    __tablename__ = "oidc_logins"

    id: int | None = Field(default=None, primary_key=True)
    state_hash: str = Field(max_length=64, unique=True)
    browser_hash: str = Field(max_length=64)
    clinic_id: str = Field(max_length=64)
    nonce: str = Field(max_length=128)
    code_verifier: str = Field(max_length=128)
    next_path: str | None = Field(default=None, max_length=500)
    created: datetime = _ts()
    expires_at: datetime = _ts(index=True)
    used_at: datetime | None = _ts(nullable=True)


class OidcSession(SQLModel, table=True):
    """A session signed in through a clinic's provider: checked again at the provider every
    OIDC_CHECK_SECONDS (its refresh token, sealed) and over at `expires_at` in any case."""

    __tablename__ = "oidc_sessions"

    session_id: int = Field(foreign_key="auth_sessions.id", primary_key=True)
    clinic_id: str = Field(max_length=64)
    issuer: str = Field(max_length=500)
    subject: str = Field(max_length=255)
    refresh_token_sealed: str | None = Field(default=None, max_length=8000)
    expires_at: datetime = _ts()
    next_check_at: datetime = _ts(index=True)
    checked_at: datetime | None = _ts(nullable=True)


class Appointment(SQLModel, table=True):
    __tablename__ = "appointments"
    __table_args__ = (
        Index("ix_appointments_user_status", "user_id", "status"),
        # The holds that ended, oldest first: the candidates of expire-holds.
        Index(
            "ix_appointments_hold_expires_at",
            "hold_expires_at",
            sqlite_where=text("hold_expires_at IS NOT NULL"),
            postgresql_where=text("hold_expires_at IS NOT NULL"),
        ),
    )

    id: str = Field(primary_key=True, max_length=64)
    user_id: str = Field(foreign_key="users.id", max_length=64)
    clinic_id: str = Field(foreign_key="clinics.id", index=True, max_length=64)
    service_id: str = Field(foreign_key="services.id", max_length=64)
    status: str = Field(default="draft", max_length=16)
    patient_role: int | None = None
    date: str | None = Field(default=None, max_length=10)  # YYYY-MM-DD, clinic timezone
    time: str | None = Field(default=None, max_length=5)  # HH:MM, clinic timezone
    timezone: str | None = Field(default=None, max_length=64)
    # The person's own IANA zone, from their browser when they held a time (optional): their
    # mails give their time beside the clinic's (realtime/mail/when.py).
    person_timezone: str | None = Field(default=None, max_length=64)
    counselor_id: str | None = Field(default=None, max_length=64)
    locale: str | None = Field(default=None, max_length=8)  # the e-mail language
    hold_expires_at: datetime | None = _ts(nullable=True)
    join_url: str | None = Field(default=None, max_length=512)
    agreed_to_terms: bool = False
    consent: dict[str, Any] | None = _json(nullable=True)
    payment: dict[str, Any] | None = _json(nullable=True)
    cancellation: dict[str, Any] | None = _json(nullable=True)  # {reason, at}
    intake: dict[str, Any] = _json()
    # When the person submitted it (the retention period counts from its appointment).
    submitted_at: datetime | None = _ts(nullable=True)
    # The appointment whose answers this one was started from (rebook with a copy).
    copied_from: str | None = Field(default=None, max_length=64)
    # The person's place on the waitlist as their document shows it ({from, to, counselorId,
    # status, offer}); the queue itself is the waitlist_entries table, written with it.
    waitlist: dict[str, Any] | None = _json(nullable=True)
    created: datetime = _ts()
    updated: datetime | None = _ts(nullable=True)
    version: int = 1


class OutboxMail(SQLModel, table=True):
    """Every mail is written here first; delivery state is recorded beside it.

    `delivery` is one of realtime/mail/delivery.py's states. A mail waiting to be (re)tried
    has `next_attempt_at`; a node sending it holds it until `claimed_until` (a lease, so that
    two nodes never send one mail and a node that died lets go of it).
    """

    __tablename__ = "mail_outbox"
    __table_args__ = (Index("ix_mail_outbox_delivery_due", "delivery", "next_attempt_at"),)

    id: int | None = Field(default=None, primary_key=True)
    to: str = Field(max_length=320, index=True)
    subject: str = Field(max_length=256)
    text: str
    html: str | None = None
    links: list[str] = _json()
    # [{"filename", "contentType", "content"}] (text attachments such as .ics invitations)
    attachments: list[dict[str, str]] | None = _json(nullable=True)
    sent_at: datetime = _ts()
    delivery: str = Field(default="logged", max_length=16)
    attempts: int = 0
    next_attempt_at: datetime | None = _ts(nullable=True)
    claimed_until: datetime | None = _ts(nullable=True)
    # Why the last attempt failed: the SMTP reply or the error's class and message, never
    # the mail's body.
    last_error: str | None = Field(default=None, max_length=500)


class SignInLink(SQLModel, table=True):
    """An e-mailed sign-in link: only the SHA-256 of its token is kept; used once."""

    __tablename__ = "sign_in_links"

    id: int | None = Field(default=None, primary_key=True)
    token_hash: str = Field(max_length=64, unique=True)
    email: str = Field(max_length=320, index=True)
    clinic_id: str | None = Field(default=None, max_length=64)
    service_id: str | None = Field(default=None, max_length=64)
    locale: str = Field(max_length=8)
    created: datetime = _ts()
    expires_at: datetime = _ts()
    used_at: datetime | None = _ts(nullable=True)


class AnalyticsEvent(SQLModel, table=True):
    """First-party analytics: an event name and whitelisted, non-personal parameters."""

    __tablename__ = "analytics_events"

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(max_length=40, index=True)
    params: dict[str, Any] = _json()
    created: datetime = _ts()


class SlotClaim(SQLModel, table=True):
    """A counselor's time held or booked for one appointment.

    The database keeps claims exclusive: PostgreSQL by an exclusion constraint over
    (counselor, [start, blocked_until)) among active claims, SQLite by serialised writers
    (BEGIN IMMEDIATE) that check for overlaps before inserting, plus a unique index on
    (counselor, start) among active claims on both. `blocked_until` is the end plus the
    service's buffer, so two claims conflict exactly when they would break the buffer.
    """

    __tablename__ = "slot_claims"
    __table_args__ = (
        Index(
            "uq_slot_claims_active_counselor_start",
            "counselor_id",
            "start",
            unique=True,
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
        Index(
            "uq_slot_claims_active_appointment",
            "appointment_id",
            unique=True,
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
        Index("ix_slot_claims_counselor_active_time", "counselor_id", "active", "start"),
        # An appointment's recent claims: the hold time cap (realtime/booking/holds.py).
        Index("ix_slot_claims_appointment_created", "appointment_id", "created"),
        # A clinic's bookings in a time range: the reminders due (storage/repo_reminders.py).
        Index(
            "ix_slot_claims_clinic_kind_start",
            "clinic_id",
            "kind",
            "start",
            sqlite_where=text("active"),
            postgresql_where=text("active"),
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    appointment_id: str = Field(foreign_key="appointments.id", max_length=64)
    counselor_id: str = Field(foreign_key="counselors.id", max_length=64)
    clinic_id: str = Field(foreign_key="clinics.id", index=True, max_length=64)
    service_id: str = Field(max_length=64)
    start: datetime = _ts()
    end: datetime = _ts()
    blocked_until: datetime = _ts()
    kind: str = Field(max_length=8)  # hold | booking
    active: bool = True
    expires_at: datetime | None = _ts(nullable=True)
    created: datetime = _ts()


class DocumentVersion(SQLModel, table=True):
    """Versions of derived live documents (vacancies months, bookings feeds)."""

    __tablename__ = "document_versions"

    path: str = Field(primary_key=True, max_length=200)
    version: int = 0


class Presence(SQLModel, table=True):
    """One connected socket of a client with an open appointment (for the staff's view).

    Rows are deleted on disconnect; a row whose `last_seen` is older than the inactivity
    limit no longer counts (a crashed node cannot leave people online forever).
    """

    __tablename__ = "presence"

    sid: str = Field(primary_key=True, max_length=64)
    session_id: int = Field(index=True)
    clinic_id: str = Field(index=True, max_length=64)
    appointment_id: str = Field(max_length=64)
    step: str | None = Field(default=None, max_length=40)
    connected_at: datetime = _ts()
    last_seen: datetime = _ts()


class ContactMessage(SQLModel, table=True):
    """A message sent through the contact form (docs/product.md, "Records and their fields")."""

    __tablename__ = "contact_messages"

    id: int | None = Field(default=None, primary_key=True)
    clinic_id: str = Field(max_length=64)
    appointment_id: str | None = Field(default=None, max_length=64)
    name: str = Field(max_length=200)
    email: str = Field(max_length=320)
    message: str
    created: datetime = _ts()


class StoredFile(SQLModel, table=True):
    """Metadata of a clinic document in file storage (docs/product.md, stored file metadata)."""

    __tablename__ = "stored_files"

    full_path: str = Field(primary_key=True, max_length=500)  # clinicId/docId/locale
    bucket: str = Field(max_length=64)
    name: str = Field(max_length=200)
    size: int
    generation: int = 1
    metageneration: int = 1
    time_created: datetime = _ts()
    updated: datetime = _ts()
    md5_hash: str = Field(max_length=64)
    cache_control: str | None = Field(default=None, max_length=200)
    content_disposition: str | None = Field(default=None, max_length=300)
    content_encoding: str | None = Field(default=None, max_length=50)
    content_language: str | None = Field(default=None, max_length=8)
    content_type: str = Field(max_length=100)
    custom_metadata: dict[str, str] | None = _json(nullable=True)
    # Who uploaded the current file (a staff uid); retired: no longer served nor listed.
    uploaded_by: str | None = Field(default=None, max_length=64)
    retired_at: datetime | None = _ts(nullable=True)


class ProcessedPaymentEvent(SQLModel, table=True):
    """A payment provider's event applied once: stored in the transaction of its effects."""

    __tablename__ = "processed_payment_events"

    id: str = Field(primary_key=True, max_length=255)
    type: str = Field(max_length=100)
    received: datetime = _ts()


class AuditEntry(SQLModel, table=True):
    """Who read or did what to which appointment, as staff (docs/security.md, "Audit log").

    Append-only: storage/repo_audit.py only inserts and lists, and triggers made by the
    migration refuse UPDATE and DELETE at the database. No foreign keys: an entry outlives
    what it speaks of.
    """

    __tablename__ = "audit_entries"
    __table_args__ = (
        Index("ix_audit_entries_clinic_at", "clinic_id", "at"),
        Index("ix_audit_entries_appointment_at", "appointment_id", "at"),
    )

    id: int | None = Field(default=None, primary_key=True)
    at: datetime = _ts()
    uid: str = Field(max_length=64)
    email: str = Field(max_length=320)
    role: str = Field(max_length=32)
    clinic_id: str = Field(max_length=64)
    appointment_id: str | None = Field(default=None, max_length=64)
    action: str = Field(max_length=64)  # intake.read | appointment.cancel | ...
    detail: dict[str, Any] | None = _json(nullable=True)
    client_address: str | None = Field(default=None, max_length=64)


class CounselorCalendarFeed(SQLModel, table=True):
    """A counselor's private calendar feed (docs/protocol.md, "Counselor calendar feeds").

    Only the SHA-256 of the feed's secret key is kept, so a copy of the database does not
    reveal any feed's address; a new key replaces the row's hash, and the old address stops
    working with that commit. One feed per counselor.
    """

    __tablename__ = "counselor_calendar_feeds"

    counselor_id: str = Field(foreign_key="counselors.id", primary_key=True, max_length=64)
    key_hash: str = Field(max_length=64, unique=True)
    created: datetime = _ts()
    created_by: str = Field(max_length=64)  # the uid of the staff member who made the key


class Reminder(SQLModel, table=True):
    """One reminder mail of one appointment's time: the row is inserted (claimed) in the
    transaction that queues the mail, so the unique key sends it once across every node and
    restart. `start` is the time it reminds of: a moved appointment gets new rows."""

    __tablename__ = "reminders"
    __table_args__ = (
        Index(
            "uq_reminders_appointment_offset_start",
            "appointment_id",
            "offset_minutes",
            "start",
            unique=True,
        ),
    )

    id: int | None = Field(default=None, primary_key=True)
    appointment_id: str = Field(foreign_key="appointments.id", max_length=64)
    offset_minutes: int
    start: datetime = _ts()
    sent_at: datetime = _ts()


class WaitlistEntry(SQLModel, table=True):
    """A person waiting for a time between two days (and with one counselor, or any).

    `status`: waiting | offered (a freed time is held for them until `offer_until`) |
    accepted | left | lapsed. First in line is the oldest `created` among those waiting.
    One entry per appointment: joining again replaces the days and goes to the back.
    """

    __tablename__ = "waitlist_entries"
    __table_args__ = (Index("ix_waitlist_clinic_status_created", "clinic_id", "status", "created"),)

    id: int | None = Field(default=None, primary_key=True)
    appointment_id: str = Field(foreign_key="appointments.id", max_length=64, unique=True)
    clinic_id: str = Field(foreign_key="clinics.id", max_length=64)
    service_id: str = Field(max_length=64)
    counselor_id: str | None = Field(default=None, max_length=64)
    first_day: str = Field(max_length=10)  # YYYY-MM-DD, clinic timezone
    last_day: str = Field(max_length=10)
    status: str = Field(default="waiting", max_length=16)
    created: datetime = _ts()
    offer_start: datetime | None = _ts(nullable=True)
    offer_counselor_id: str | None = Field(default=None, max_length=64)
    offer_until: datetime | None = _ts(nullable=True)


class ClinicHoliday(SQLModel, table=True):
    """A day the whole clinic is closed: no counselor's hours count on it."""

    __tablename__ = "clinic_holidays"

    clinic_id: str = Field(foreign_key="clinics.id", primary_key=True, max_length=64)
    day: date = Field(primary_key=True)
    name: str = Field(max_length=200)


class ProviderCode(SQLModel, table=True):
    """A referring institution of a clinic and its 4-character code, which the
    questionnaire's first step checks (case-sensitive; an inactive code is refused)."""

    __tablename__ = "provider_codes"

    clinic_id: str = Field(foreign_key="clinics.id", primary_key=True, max_length=64)
    code: str = Field(primary_key=True, max_length=4)
    name: str = Field(max_length=200)
    active: bool = True
    updated: datetime = _ts()
