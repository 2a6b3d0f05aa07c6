"""Who is calling: resolved from a session token on every request or connection
(realtime/auth.py), then handed to the rules, the callables and the socket handlers."""

from dataclasses import dataclass


@dataclass(frozen=True)
class Identity:
    """Who is calling: resolved from a session token on every request or connection."""

    uid: str
    email: str
    session_id: int
    role: str  # "client" | "clinic_staff"
    clinic_id: str | None

    def is_staff_of(self, clinic_id: str | None) -> bool:
        return self.role == "clinic_staff" and clinic_id is not None and self.clinic_id == clinic_id

    def to_wire(self) -> dict[str, str | None]:
        return {"uid": self.uid, "email": self.email, "role": self.role, "clinicId": self.clinic_id}
