"""What a session opened by a booking mail's signed link may do: the one table and its checks.

A mail may be forwarded, and the mailbox of a clinic's patient is not a safe place for
health data. So a link's session (realtime/link_tokens.py, `POST /auth/link`) is scoped to
one appointment and one purpose, and is, for everything else, a signed-out caller:

| purpose      | calls (on its appointment only)                      | documents             |
| ------------ | ---------------------------------------------------- | --------------------- |
| `booking`    | appointments-mine (that appointment's booking facts)  | none                  |
| `cancel`     | + appointment-cancelQuote, appointment-cancel         | none                  |
| `reschedule` | + appointment-reschedule, vacancies-read              | its service's months  |

plus its appointment's calendar file (`/calendar/appointments/{id}.ics`). Never the intake
answers (the appointment document, staff calls, the user record, erasure). The facts it reads
are those of `appointments-mine`: service, time, counselor, payment, join link.

Every callable passes `dispatch` (realtime/dispatch.py), which calls `scoped_call`; every
document subscribe, read and update passes `rules.authorize`, which calls `check_document`;
the calendar route calls `for_appointment`. A call outside the scope runs as signed out:
public calls (clinic-read, sendEmail-authLink ...) work as for anyone, every other one is
refused 401 UNAUTHENTICATED with `details.reason: "link-scope"` (`out_of_scope`), which the
client words as "sign in to see more".
"""

from typing import Any

from realtime.errors import FunctionError
from realtime.identity import Identity, LinkScope

# The calls of each purpose. Every one of them names the appointment as `appointmentId`,
# but appointments-mine (answered for the scope's appointment alone: `visible`) and
# vacancies-read (the scope's clinic and service).
_READ = frozenset({"appointments-mine"})
CALLS: dict[str, frozenset[str]] = {
    "booking": _READ,
    "cancel": _READ | {"appointment-cancelQuote", "appointment-cancel"},
    "reschedule": _READ | {"appointment-reschedule", "vacancies-read"},
}
# The documents of each purpose, by rule pattern (their clinic and service the scope's).
DOCUMENTS: dict[str, frozenset[str]] = {
    "booking": frozenset(),
    "cancel": frozenset(),
    "reschedule": frozenset({"vacancies/{clinicId}/{serviceId}/{month}"}),
}
OUT_OF_SCOPE = "Sign in to see more."


def out_of_scope() -> FunctionError:
    """The refusal of anything a link's session may not do (the client offers the e-mail
    sign-in)."""
    return FunctionError("UNAUTHENTICATED", OUT_OF_SCOPE, {"reason": "link-scope"})


def for_appointment(who: Identity | None, appointment_id: object) -> Identity | None:
    """The caller as it may act on `appointment_id`: a full session as it is, a link's
    session only on its own appointment, else None (signed out)."""
    if who is None or who.link is None:
        return who
    return who if appointment_id == who.link.appointment_id else None


def _call_in_scope(scope: LinkScope, name: str, data: Any) -> bool:
    if name not in CALLS.get(scope.purpose, frozenset()):
        return False
    if name == "appointments-mine":
        return True
    if not isinstance(data, dict):
        return False
    if name == "vacancies-read":
        return data.get("clinicId") == scope.clinic_id and data.get("serviceId") == (
            scope.service_id
        )
    return data.get("appointmentId") == scope.appointment_id


def scoped_call(who: Identity | None, name: str, data: Any) -> Identity | None:
    """The identity a call runs with: the caller's, unless it is a link's session and the
    call is outside its scope (then None: the call runs as signed out)."""
    if who is None or who.link is None or _call_in_scope(who.link, name, data):
        return who
    return None


def check_document(who: Identity, pattern: str, params: dict[str, str], access: str) -> None:
    """Refuse (`out_of_scope`) a link's session any document but its purpose's (`pattern`
    of realtime/rules.py, its `params`), read only."""
    scope = who.link
    if scope is None:
        return
    if (
        access == "read"
        and pattern in DOCUMENTS.get(scope.purpose, frozenset())
        and params.get("clinicId") == scope.clinic_id
        and params.get("serviceId") == scope.service_id
    ):
        return
    raise out_of_scope()


def visible(who: Identity, appointment_ids: list[str]) -> set[str]:
    """Which of the caller's own appointments it may read the booking facts of: all of them
    for a full session, the scope's one for a link's."""
    if who.link is None:
        return set(appointment_ids)
    return {who.link.appointment_id} & set(appointment_ids)
