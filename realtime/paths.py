"""The paths of live documents, written in one place (their rules: realtime/rules.py; what
each holds: docs/protocol.md, "Live documents")."""


def user_path(uid: str) -> str:
    return f"users/{uid}"


def appointment_path(appointment_id: str) -> str:
    return f"appointments/{appointment_id}"


def vacancies_path(clinic_id: str, service_id: str, month: str) -> str:
    return f"vacancies/{clinic_id}/{service_id}/{month}"


def feed_path(clinic_id: str) -> str:
    return f"clinics/{clinic_id}/bookings"


def presence_path(clinic_id: str) -> str:
    return f"clinics/{clinic_id}/presence"


def audit_path(clinic_id: str) -> str:
    return f"clinics/{clinic_id}/audit"
