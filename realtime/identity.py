"""Who is calling: resolved from a session token on every request or connection
(realtime/auth.py), then handed to the rules, the callables and the socket handlers."""

from dataclasses import dataclass
from datetime import datetime
from typing import Any, Literal

from storage.types import iso

STAFF_ROLES = ("counselor", "clinic_admin")
SecondFactor = Literal["required", "enrol", "ok"]


@dataclass(frozen=True)
class LinkScope:
    """What a session opened by a booking mail's signed link may touch: one appointment, for
    one purpose, until `expires_at` (realtime/link_scope.py says what each purpose allows)."""

    purpose: str  # "booking" | "reschedule" | "cancel" (contract.json linkPurposes)
    appointment_id: str
    clinic_id: str
    service_id: str
    expires_at: datetime

    def to_wire(self) -> dict[str, str | None]:
        return {
            "purpose": self.purpose,
            "appointmentId": self.appointment_id,
            "expiresAt": iso(self.expires_at),
        }


@dataclass(frozen=True)
class Identity:
    """Who is calling: resolved from a session token on every request or connection.

    Staff (`counselor`, `clinic_admin`) act for one clinic, and only once the session has
    passed its second factor (`second_factor == "ok"`; docs/protocol.md, "Staff sign-in and
    roles"). A client's `second_factor` is None.
    """

    uid: str
    email: str
    session_id: int
    role: str  # "client" | "counselor" | "clinic_admin"
    clinic_id: str | None
    counselor_id: str | None = None
    second_factor: SecondFactor | None = None
    link: LinkScope | None = None

    @property
    def is_staff(self) -> bool:
        return self.role in STAFF_ROLES

    @property
    def is_admin(self) -> bool:
        return self.role == "clinic_admin"

    @property
    def second_factor_passed(self) -> bool:
        return self.is_staff and self.second_factor == "ok"

    def is_staff_of(self, clinic_id: str | None) -> bool:
        """Staff of that clinic (whatever the state of the second factor: the rules'
        `require_staff` checks that too)."""
        return self.is_staff and clinic_id is not None and self.clinic_id == clinic_id

    def to_wire(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "email": self.email,
            "role": self.role,
            "clinicId": self.clinic_id,
            "counselorId": self.counselor_id,
            "secondFactor": self.second_factor,
            "link": self.link.to_wire() if self.link else None,
        }
