"""staff-list, staff-invite, staff-update: a clinic's staff accounts, for its clinic_admins
(docs/protocol.md, "Clinic administration" / "Staff accounts"; docs/security.md, "Staff
accounts").

- Authorized before validated, like every staff call (`require_staff(..., admin=True)` on the
  raw `clinicId`).
- Every change first locks the clinic's row (storage/repo_staff.py `lock_clinic`), so the
  count of active administrators it decides on cannot change under it: the last one can be
  neither removed nor demoted, even by two administrators removing each other at once.
- A member whose access changes (removed, restored, another role or counselor) has every
  session revoked in the same transaction and closed on every node after the commit
  (`change.end_sessions`): the next sign-in resolves the new role, or none. Removal also
  forgets their authenticator, so a member brought back enrols a new one.
- An invitation creates the member (or brings back a removed one of this clinic) and queues
  a mail in the outbox, in the transaction, that links to the staff sign-in (`/?next=/staff`);
  it carries no sign-in token: the person asks for their own link there.
"""

from typing import Any, Literal
from urllib.parse import urlencode

from pydantic import StrictBool, StrictInt

from realtime import audit
from realtime.booking.notify import counselor_locale
from realtime.changes import Change, changing
from realtime.contract import DEFAULT_LOCALE
from realtime.dispatch import CallContext, callable_function, validated
from realtime.errors import FunctionError
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.identity import Identity
from realtime.mail.render import render
from realtime.mail.signature import signature_of
from realtime.ratelimit import enforce
from realtime.rules import require_staff
from realtime.signin import normalize_email
from realtime.state import AppState
from storage.db import AsyncSession
from storage.errors import Conflict
from storage.models import Clinic, Counselor, StaffMember
from storage.repo_booking import counselors_of
from storage.repo_calendar import drop_feed
from storage.repo_staff import (
    active_admins,
    add_staff_member,
    counselor_member,
    forget_second_factor,
    get_counselor,
    get_member,
    has_appointments,
    lock_clinic,
    members_of,
    staff_member,
)
from storage.repo_users import revoke_user_sessions, user_by_email
from storage.types import iso, utcnow

Role = Literal["counselor", "clinic_admin"]
# Invitations a clinic may send per RATE_LIMIT_WINDOW_SECONDS (15 minutes): enough to set up
# a team, too few for a stolen administrator session to use the clinic as a mail cannon.
INVITES_PER_CLINIC = 20
STAFF_SIGN_IN_PATH = "/staff"

OTHER_CLINIC = "This address is a staff account of another clinic."
ALREADY_MEMBER = "This address is already a member of this clinic."
CLIENT_ACCOUNT = (
    "This address belongs to a client's account with appointments. Invite a work address."
)
NEEDS_COUNSELOR = "Choose the counselor this member is."
ADMIN_HAS_NO_COUNSELOR = "A clinic administrator is not tied to a counselor."
NO_SUCH_COUNSELOR = "No such counselor in this clinic."
COUNSELOR_TAKEN = "Another member is already this counselor."
LAST_ADMIN = "The clinic's last administrator can be neither removed nor given another role."
NO_SUCH_MEMBER = "No such staff member in this clinic."


def refused(field: str, message: str, reason: str) -> FunctionError:
    """INVALID_ARGUMENT naming the field, with a `reason` the client words in the user's
    language (the message is the English one)."""
    return FunctionError(
        "INVALID_ARGUMENT", message, {"fields": {field: message}, "reason": reason}
    )


def member_wire(member: StaffMember) -> dict[str, Any]:
    return {
        "staffId": member.id,
        "email": member.email,
        "role": member.role,
        "counselorId": member.counselor_id,
        "invitedAt": iso(member.invited_at) if member.invited_at else None,
        "secondFactor": member.totp_confirmed_at is not None,
        "removedAt": iso(member.removed_at) if member.removed_at else None,
    }


def counselor_wire(counselor: Counselor, members: list[StaffMember]) -> dict[str, Any]:
    holder = next(
        (m for m in members if m.counselor_id == counselor.id and m.removed_at is None), None
    )
    return {
        "counselorId": counselor.id,
        "name": counselor.name,
        "staffId": holder.id if holder else None,
    }


# staff-list -------------------------------------------------------------------------------


class StaffList(Input):
    clinicId: Id


@callable_function("staff-list", StaffList, authorize_first=True)
async def staff_list(context: CallContext, data: Any) -> dict[str, Any]:
    """The clinic's members (removed ones too) and its counselors, with who holds each."""
    require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(StaffList, data)
    async with context.state.db.read() as session:
        members = await members_of(session, clinic_id=request.clinicId)
        counselors = await counselors_of(session, clinic_id=request.clinicId)
    return {
        "staff": [member_wire(m) for m in members],
        "counselors": [counselor_wire(c, members) for c in counselors],
    }


# Shared rules -----------------------------------------------------------------------------


async def _counselor_for(
    session: AsyncSession, clinic_id: str, role: str, counselor_id: str | None, staff_id: int | None
) -> str | None:
    """The counselor a member of `role` is tied to: required of a counselor (one of this
    clinic, not another active member's), refused for a clinic_admin."""
    if role != "counselor":
        if counselor_id is not None:
            raise refused("counselorId", ADMIN_HAS_NO_COUNSELOR, "adminHasNoCounselor")
        return None
    if counselor_id is None:
        raise refused("counselorId", NEEDS_COUNSELOR, "needsCounselor")
    counselor = await get_counselor(session, counselor_id=counselor_id)
    if counselor is None or counselor.clinic_id != clinic_id:
        raise refused("counselorId", NO_SUCH_COUNSELOR, "noSuchCounselor")
    holder = await counselor_member(session, counselor_id=counselor_id)
    if holder is not None and holder.id != staff_id:
        raise refused("counselorId", COUNSELOR_TAKEN, "counselorTaken")
    return counselor_id


async def _end_access(
    session: AsyncSession, change: Change, who: Identity, member: StaffMember
) -> None:
    """Every session of the member ends now, in this transaction, and their sockets close on
    every node after the commit (the caller's own after its reply)."""
    user = await user_by_email(session, email=member.email)
    if user is None:
        return  # never signed in
    ended = await revoke_user_sessions(session, user_id=user.id, at=utcnow())
    change.end_sessions([s for s in ended if s != who.session_id], after_reply=False)
    change.end_sessions([s for s in ended if s == who.session_id], after_reply=True)


# staff-invite -----------------------------------------------------------------------------


class StaffInvite(Input):
    clinicId: Id
    email: str
    role: Role
    counselorId: Id | None = None


def invitation_url(public_url: str) -> str:
    """The staff sign-in: the sign-in page, continuing to the staff workspace."""
    return f"{public_url.rstrip('/')}/?{urlencode({'next': STAFF_SIGN_IN_PATH})}"


def _invitation_locale(counselor: Counselor | None) -> str:
    """A counselor's first language; for an administrator, the product's default (the
    clinics it serves are Japanese)."""
    return counselor_locale(counselor) if counselor is not None else DEFAULT_LOCALE


async def _queue_invitation(
    state: AppState,
    session: AsyncSession,
    change: Change,
    *,
    clinic: Clinic,
    member: StaffMember,
    inviter: Identity,
) -> None:
    counselor = None
    if member.counselor_id is not None:
        counselor = await get_counselor(session, counselor_id=member.counselor_id)
    locale = _invitation_locale(counselor)
    link = invitation_url(state.settings.public_url)
    mail = render(
        "staff_invitation",
        locale,
        clinic=clinic.name.get(locale, clinic.id),
        inviter=inviter.email,
        admin=member.role == "clinic_admin",
        counselor=counselor.name.get(locale, counselor.id) if counselor else "",
        email=member.email,
        link=link,
        signature=signature_of(clinic, locale),
    )
    change.mail(await state.mailer.queue(session, to=member.email, mail=mail, links=[link]))


async def _invitee(session: AsyncSession, clinic_id: str, email: str) -> StaffMember | None:
    """The removed member of this clinic an invitation brings back, or None for a new one;
    the refusals of an address that may not be invited."""
    existing = await staff_member(session, email=email)
    if existing is not None and existing.clinic_id != clinic_id:
        raise refused("email", OTHER_CLINIC, "otherClinic")
    if existing is not None and existing.removed_at is None:
        raise refused("email", ALREADY_MEMBER, "alreadyMember")
    await _refuse_client_account(session, email, "email")
    return existing


async def _refuse_client_account(session: AsyncSession, email: str, field: str) -> None:
    """An account that holds appointments (a person's records) is not made staff: a removed
    member may have booked as a client since."""
    if await has_appointments(session, email=email):
        raise refused(field, CLIENT_ACCOUNT, "clientAccount")


@callable_function("staff-invite", StaffInvite, authorize_first=True)
async def staff_invite(context: CallContext, data: Any) -> dict[str, Any]:
    """A new member of the clinic (or a removed one back), told by mail."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(StaffInvite, data)
    email = normalize_email(request.email)
    await enforce(
        state.limiter,
        {f"staff-invite:{request.clinicId}": INVITES_PER_CLINIC},
        window_seconds=state.settings.rate_limit_window_seconds,
    )
    async with changing(state) as change, state.db.write() as session:
        clinic = await lock_clinic(session, clinic_id=request.clinicId)
        assert clinic is not None  # the caller is staff of it
        member = await _invitee(session, clinic.id, email)
        counselor_id = await _counselor_for(
            session, clinic.id, request.role, request.counselorId, member.id if member else None
        )
        now = utcnow()
        if member is None:
            try:
                member = await add_staff_member(
                    session, email=email, clinic_id=clinic.id, role=request.role
                )
            except Conflict:  # another clinic made the address its member meanwhile
                raise refused("email", OTHER_CLINIC, "otherClinic") from None
        member.role = request.role
        member.counselor_id = counselor_id
        member.removed_at = None
        member.invited_by = who.uid
        member.invited_at = now
        await session.flush()
        await _queue_invitation(state, session, change, clinic=clinic, member=member, inviter=who)
        await audit.record(
            session,
            who,
            change=change,
            clinic_id=clinic.id,
            action=audit.STAFF_INVITE,
            detail={"email": email, "role": request.role, "counselorId": counselor_id},
            address=context.client_ip,
        )
        answer = member_wire(member)
    return {"member": answer}


# staff-update -----------------------------------------------------------------------------


class StaffUpdate(Input):
    clinicId: Id
    staffId: StrictInt
    role: Role | None = None
    counselorId: Id | None = None
    removed: StrictBool | None = None


def _refuse_losing_last_admin(
    member: StaffMember, admins: list[int], role: str, removed: bool
) -> None:
    """The clinic keeps at least one active clinic_admin."""
    was_admin = member.role == "clinic_admin" and member.removed_at is None
    stays_admin = role == "clinic_admin" and not removed
    if was_admin and not stays_admin and [a for a in admins if a != member.id] == []:
        raise refused("removed" if removed else "role", LAST_ADMIN, "lastAdmin")


def _counselor_asked(member: StaffMember, request: StaffUpdate, role: str) -> str | None:
    """The counselor named, else the member's own while the role stays, else none."""
    if request.counselorId is not None:
        return request.counselorId
    return member.counselor_id if role == member.role else None


def _what_changed(
    member: StaffMember, role: str, counselor_id: str | None, removed: bool
) -> dict[str, Any]:
    before = {
        "role": member.role,
        "counselorId": member.counselor_id,
        "removed": member.removed_at is not None,
    }
    after = {"role": role, "counselorId": counselor_id, "removed": removed}
    return {k: {"from": before[k], "to": after[k]} for k in before if before[k] != after[k]}


@callable_function("staff-update", StaffUpdate, authorize_first=True)
async def staff_update(context: CallContext, data: Any) -> dict[str, Any]:
    """Another role or counselor, removal or return of a member; their sessions end."""
    state = context.state
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    request = validated(StaffUpdate, data)
    async with changing(state) as change, state.db.write() as session:
        await lock_clinic(session, clinic_id=request.clinicId)
        member = await get_member(session, staff_id=request.staffId)
        if member is None or member.clinic_id != request.clinicId:
            raise FunctionError(
                "NOT_FOUND", NO_SUCH_MEMBER, {"fields": {"staffId": NO_SUCH_MEMBER}}
            )
        role = request.role or member.role
        removed = request.removed if request.removed is not None else member.removed_at is not None
        counselor_id = _counselor_asked(member, request, role)
        if not removed or (role, counselor_id) != (member.role, member.counselor_id):
            counselor_id = await _counselor_for(
                session, request.clinicId, role, counselor_id, member.id
            )
        if not removed and member.removed_at is not None:
            await _refuse_client_account(session, member.email, "removed")
        admins = await active_admins(session, clinic_id=request.clinicId)
        _refuse_losing_last_admin(member, admins, role, removed)
        changed = _what_changed(member, role, counselor_id, removed)
        if changed:
            if await _apply(session, change, who, member, role, counselor_id, removed):
                changed["calendarFeed"] = "revoked"
            await audit.record(
                session,
                who,
                change=change,
                clinic_id=request.clinicId,
                action=audit.STAFF_UPDATE,
                detail={"email": member.email, **changed},
                address=context.client_ip,
            )
        answer = member_wire(member)
    return {"member": answer}


async def _apply(
    session: AsyncSession,
    change: Change,
    who: Identity,
    member: StaffMember,
    role: str,
    counselor_id: str | None,
    removed: bool,
) -> bool:
    """Apply the change and end the member's sessions; True when it also deleted the calendar
    feed of the counselor the member stops being (a former employee's subscription must stop
    showing the clinic's bookings)."""
    leaving = member.counselor_id if removed or counselor_id != member.counselor_id else None
    if removed and member.removed_at is None:
        member.removed_at = utcnow()
        await forget_second_factor(session, member=member)
    elif not removed:
        member.removed_at = None
    member.role = role
    member.counselor_id = counselor_id
    await _end_access(session, change, who, member)
    await session.flush()
    return leaving is not None and await drop_feed(session, counselor_id=leaving)
