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


def feed_window_path(clinic_id: str, first: str, last: str) -> str:
    """The bookings of the days `first`..`last` (YYYY-MM-DD, the clinic's zone), followed as
    document changes (docs/protocol.md, "The bookings window")."""
    return f"clinics/{clinic_id}/bookings/{first}/{last}"


# Rooms that are not documents: their names hold "~", which no path of realtime/rules.py
# can, so no `subscribe` can name one; the server joins sockets to them.
INTERNAL = "~"
EVERYONE = "*"  # the audience of a clinic_admin: every counselor's bookings


def audience_room(path: str, counselor_id: str) -> str:
    """Where a counselor's filtered copy of a clinic document (`clinics/{id}/bookings`,
    `.../presence`) is pushed: never the document's own room, which carries every row."""
    return f"{path}{INTERNAL}{counselor_id}"


def day_stream(clinic_id: str, audience: str, day: str) -> str:
    """The changes of one clinic day for one audience (EVERYONE, or a counselor id): a room
    and the key of its version in `document_versions`."""
    return f"bookings{INTERNAL}{clinic_id}{INTERNAL}{audience}{INTERNAL}{day}"


def is_day_stream(room: str) -> bool:
    return room.startswith(f"bookings{INTERNAL}")


def catalog_path(clinic_id: str) -> str:
    """The version of a clinic's services as edited (realtime/booking/catalog.py): a key of
    `document_versions`, never a document anyone follows."""
    return f"catalog{INTERNAL}{clinic_id}"
