"""Who may read and write which live document: one table, like Firestore security rules.

Every subscribe and update goes through `authorize`; callable functions check the same
predicates through `require_*`. A document that does not exist answers exactly like one
the caller may not see, so ids cannot be probed.

Staff (docs/protocol.md, "Staff sign-in and roles"): `require_staff` is the one guard of
every staff path and callable. A client is refused PERMISSION_DENIED; a staff session that
has not passed its second factor UNAUTHENTICATED with `details.secondFactor: "required"`
(before anything about the clinic or the document is looked at); then the clinic, and for
`admin=True` the role. `may_act_on` adds that a counselor acts on their own appointments only.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, Protocol

from realtime.errors import FunctionError, no_access
from realtime.identity import Identity
from realtime.link_scope import check_document
from realtime.paths import EVERYONE


@dataclass(frozen=True)
class DocMeta:
    """What a rule may know of a stored document besides its path."""

    owner_uid: str | None
    clinic_id: str | None
    counselor_id: str | None = None


SECOND_FACTOR_MESSAGE = "Enter the code from your authenticator app to continue."


def second_factor_required() -> FunctionError:
    """401 of a staff session before its second factor (docs/protocol.md, "Staff sign-in
    and roles")."""
    return FunctionError("UNAUTHENTICATED", SECOND_FACTOR_MESSAGE, {"secondFactor": "required"})


def require_staff(
    who: Identity | None, clinic_id: object = None, *, admin: bool = False
) -> Identity:
    """The caller as staff who passed the second factor, of `clinic_id` when given (and a
    clinic_admin when `admin`); else the refusal, in this order: not signed in 401, not staff
    403, second factor missing 401 `secondFactor: "required"`, another clinic or role 403.
    `clinic_id` may be a call's raw, unvalidated value: anything but the caller's clinic is
    refused alike."""
    who = require_identity(who)
    if not who.is_staff:
        raise no_access()
    if not who.second_factor_passed:
        raise second_factor_required()
    if clinic_id is not None and who.clinic_id != clinic_id:
        raise no_access()
    if admin and not who.is_admin:
        raise no_access()
    return who


class ClinicRecord(Protocol):
    """What `may_act_on` reads of an appointment (a row, or a document's metadata)."""

    @property
    def clinic_id(self) -> str | None: ...

    @property
    def counselor_id(self) -> str | None: ...


def may_act_on(who: Identity, appointment: ClinicRecord) -> bool:
    """Whether staff may act on (and read) an appointment: staff of its clinic who passed
    the second factor; a counselor only on their own appointments (its counselor is theirs).
    Call `require_staff` first for the 401/403 of the caller itself."""
    if not (who.second_factor_passed and who.is_staff_of(appointment.clinic_id)):
        return False
    return who.is_admin or (
        who.counselor_id is not None and appointment.counselor_id == who.counselor_id
    )


Rule = Callable[[Identity, dict[str, str], DocMeta | None], bool]


def own_user(who: Identity, params: dict[str, str], _doc: DocMeta | None) -> bool:
    return who.uid == params["uid"]


def owner(who: Identity, _params: dict[str, str], doc: DocMeta | None) -> bool:
    return doc is not None and doc.owner_uid == who.uid


def signed_in(_who: Identity, _params: dict[str, str], _doc: DocMeta | None) -> bool:
    return True


def clinic_admin(who: Identity, params: dict[str, str], _doc: DocMeta | None) -> bool:
    """A document for the clinic's administrators only (the audit cue)."""
    require_staff(who, params["clinicId"], admin=True)
    return True


def clinic_staff(who: Identity, params: dict[str, str], _doc: DocMeta | None) -> bool:
    """A clinic's staff documents (bookings feed and window, presence): its clinic_admin
    reads every row, a counselor only the rows of their own appointments (the documents are
    filtered per reader: `audience`)."""
    require_staff(who, params["clinicId"])
    return who.is_admin or who.counselor_id is not None


def audience(who: Identity) -> str:
    """Whose rows a staff member reads in the clinic's staff documents: EVERYONE for a
    clinic_admin, else the counselor's own id (`clinic_staff` refused anyone else)."""
    if who.is_admin or who.counselor_id is None:
        return EVERYONE
    return who.counselor_id


def nobody(_who: Identity, _params: dict[str, str], _doc: DocMeta | None) -> bool:
    return False


@dataclass(frozen=True)
class PathRule:
    pattern: str
    read: Rule
    write: Rule
    filtered: bool = False  # read per audience (`audience`)

    @property
    def collection(self) -> str:
        return self.pattern.split("/", 1)[0]


SEGMENT = r"[A-Za-z0-9_-]{1,64}"

RULES: tuple[PathRule, ...] = (
    PathRule("users/{uid}", read=own_user, write=own_user),
    # Staff read appointments through staff-appointment-read (audited), never by following.
    PathRule("appointments/{id}", read=owner, write=owner),
    PathRule("vacancies/{clinicId}/{serviceId}/{month}", read=signed_in, write=nobody),
    # Staff documents, filtered per reader (`audience`): realtime/follows.py joins a
    # counselor to their own rooms, never to the document's room of every row.
    PathRule("clinics/{clinicId}/bookings", read=clinic_staff, write=nobody, filtered=True),
    PathRule(
        "clinics/{clinicId}/bookings/{first}/{last}", read=clinic_staff, write=nobody, filtered=True
    ),
    PathRule("clinics/{clinicId}/presence", read=clinic_staff, write=nobody, filtered=True),
    # Only the newest audit entry's id (realtime/audit_view.py): the audit screen's cue.
    PathRule("clinics/{clinicId}/audit", read=clinic_admin, write=nobody),
)


def _compile(pattern: str) -> re.Pattern[str]:
    """A whole-path regex: used with fullmatch only (`$` would accept a trailing newline)."""
    regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{SEGMENT})", pattern)
    return re.compile(regex)


_COMPILED = tuple((_compile(rule.pattern), rule) for rule in RULES)


@dataclass(frozen=True)
class Match:
    path: str
    rule: PathRule
    params: dict[str, str]


def match(path: object) -> Match:
    """The rule for a document path, or INVALID_ARGUMENT for a path no rule knows."""
    if isinstance(path, str):
        for regex, rule in _COMPILED:
            found = regex.fullmatch(path)
            if found:
                return Match(path=path, rule=rule, params=found.groupdict())
    message = "Unknown document path."
    raise FunctionError("INVALID_ARGUMENT", message, {"path": path, "fields": {"path": message}})


def authorize(
    who: Identity | None, found: Match, doc: DocMeta | None, access: Literal["read", "write"]
) -> None:
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    # A mail link's session: its purpose's documents only (realtime/link_scope.py).
    check_document(who, found.rule.pattern, found.params, access)
    rule = found.rule.read if access == "read" else found.rule.write
    if not rule(who, found.params, doc):
        raise no_access()


def require_identity(who: Identity | None) -> Identity:
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    return who
