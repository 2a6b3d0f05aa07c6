"""The audit log of staff reads and actions (docs/security.md, "Audit log").

`record` writes an entry in the caller's transaction, so a read or action and its entry
commit together or not at all: a read that cannot be audited fails. It also records in the
write's `Change` that the clinic's live document `clinics/{id}/audit` moved (realtime/
audit_view.py), so open audit screens learn of the entry once it is committed; an entry of
`audit.read` does not move it (see there why).
"""

from typing import TYPE_CHECKING, Any

from realtime.identity import Identity
from realtime.paths import audit_path
from storage.db import AsyncSession
from storage.models import Appointment, AuditEntry
from storage.repo_audit import add_entry
from storage.types import iso, utcnow

if TYPE_CHECKING:  # realtime.changes reads the live documents, among them audit_view's
    from realtime.changes import Change

INTAKE_READ = "intake.read"
INTAKE_EXPORT = "intake.export"
APPOINTMENT_STATUS = "appointment.status"
APPOINTMENT_CANCEL = "appointment.cancel"
APPOINTMENT_RESCHEDULE = "appointment.reschedule"
MAIL_RESEND = "mail.resend"
AUDIT_READ = "audit.read"
# A counselor's calendar feed key made or replaced (realtime/functions/staff_calendar.py).
CALENDAR_FEED_ROTATE = "calendarFeed.rotate"
# Clinic administration (docs/protocol.md, "Clinic administration"): each change's detail
# says what changed.
SCHEDULE_UPDATE = "schedule.update"
HOLIDAYS_UPDATE = "holidays.update"
SERVICE_UPDATE = "service.update"
PROVIDER_CODE_UPDATE = "providerCode.update"
DOCUMENT_UPLOAD = "document.upload"
DOCUMENT_RETIRE = "document.retire"
STAFF_INVITE = "staff.invite"
STAFF_UPDATE = "staff.update"
# A member's first sign-in at the clinic's identity provider linked them to its subject
# (realtime/oidc/flow.py); the identity provider set, changed or turned off
# (realtime/functions/identity_admin.py).
STAFF_OIDC_LINK = "staff.oidcLink"
IDENTITY_PROVIDER_UPDATE = "identityProvider.update"
# Every action above is one of contract.json `auditActions`, the one list the audit screen's
# filter offers too (tests/test_staff_audit.py checks both ways).


async def record(
    session: AsyncSession,
    who: Identity,
    *,
    change: "Change",
    clinic_id: str,
    action: str,
    appointment_id: str | None = None,
    detail: dict[str, Any] | None = None,
    address: str | None = None,
) -> None:
    await add_entry(
        session,
        at=utcnow(),
        uid=who.uid,
        email=who.email,
        role=who.role,
        clinic_id=clinic_id,
        appointment_id=appointment_id,
        action=action,
        detail=detail,
        client_address=address,
    )
    if action != AUDIT_READ:
        change.derived_changed(audit_path(clinic_id))


async def record_on(
    session: AsyncSession,
    who: Identity,
    appointment: Appointment,
    action: str,
    *,
    change: "Change",
    detail: dict[str, Any] | None = None,
    address: str | None = None,
) -> None:
    """An entry about one appointment (its clinic and id)."""
    await record(
        session,
        who,
        change=change,
        clinic_id=appointment.clinic_id,
        action=action,
        appointment_id=appointment.id,
        detail=detail,
        address=address,
    )


def entry_wire(entry: AuditEntry) -> dict[str, Any]:
    return {
        "id": entry.id,
        "at": iso(entry.at),
        "uid": entry.uid,
        "email": entry.email,
        "role": entry.role,
        "clinicId": entry.clinic_id,
        "appointmentId": entry.appointment_id,
        "action": entry.action,
        "detail": entry.detail,
        "clientAddress": entry.client_address,
    }
