"""Who is calling: resolved from a session token on every request or connection
(realtime/auth.py), then handed to the rules, the callables and the socket handlers."""

from dataclasses import dataclass
from typing import Literal

STAFF_ROLES = ("counselor", "clinic_admin")
SecondFactor = Literal["required", "enrol", "ok"]


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

    def to_wire(self) -> dict[str, str | None]:
        return {
            "uid": self.uid,
            "email": self.email,
            "role": self.role,
            "clinicId": self.clinic_id,
            "counselorId": self.counselor_id,
            "secondFactor": self.second_factor,
        }
