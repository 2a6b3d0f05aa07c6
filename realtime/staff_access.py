"""The one staff guard: every staff-only call and read asks these two functions
(docs/security.md, "Staff"). Authorization comes before input validation: a staff call takes
the raw clinic or appointment id, authorizes, and only then validates the rest
(docs/protocol.md, "Staff reading and acting").

Today staff have one role, `clinic_staff`, which counts as a clinic administrator too; finer
roles (a counselor reading only their own appointments) and the second factor refine these
two functions, not their callers.
"""

from typing import Protocol

from realtime.errors import FunctionError, no_access
from realtime.identity import Identity

# Roles that may do what a clinic administrator does (staff-audit-read).
ADMIN_ROLES = frozenset({"clinic_staff", "clinic_admin"})


class OfClinic(Protocol):
    """What the guard needs of an appointment: its clinic."""

    @property
    def clinic_id(self) -> str | None: ...


def require_staff(who: Identity | None, clinic_id: object, *, admin: bool = False) -> Identity:
    """The caller, when they are staff of `clinic_id` (a raw, unvalidated value: anything
    but a clinic they belong to is refused alike). UNAUTHENTICATED when signed out,
    PERMISSION_DENIED otherwise; `admin`: clinic administrators only."""
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    if not isinstance(clinic_id, str) or not who.is_staff_of(clinic_id):
        raise no_access()
    if admin and who.role not in ADMIN_ROLES:
        raise no_access()
    return who


def may_act_on(who: Identity | None, appointment: OfClinic | None) -> bool:
    """Whether staff `who` may read and act on `appointment` (None: it does not exist)."""
    return who is not None and appointment is not None and who.is_staff_of(appointment.clinic_id)
