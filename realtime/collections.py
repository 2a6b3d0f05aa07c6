"""How each kind of live document is read from and written to storage.

`users/{uid}` and `appointments/{id}` are rows with a version column. `vacancies/...`
and `clinics/{id}/bookings` are derived views computed on read, whose versions live in
`document_versions` (raised by realtime/booking/publish.py when a claim changes). The
bookings window `clinics/{id}/bookings/{from}/{to}` is computed on read too; its version is
the sum of its day streams' (realtime/booking/feed_window.py).
"""

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from realtime.audit_view import audit_data
from realtime.booking.caches import BookingCaches
from realtime.booking.feed import feed_data, feed_for
from realtime.booking.feed_window import window_data
from realtime.booking.vacancies import month_data, month_days, month_times
from realtime.intake.provider_code import CODE_PATH, unknown_code
from realtime.intake.validate import IntakeContext
from realtime.nested import set_nested
from realtime.paths import (
    EVERYONE,
    audit_path,
    catalog_path,
    feed_path,
    presence_path,
    vacancies_path,
)
from realtime.presence_view import presence_data, presence_for
from realtime.rules import DocMeta
from realtime.writable import INTAKE_PREFIX, PATIENT_ROLE, WRITABLE, WriteContext
from storage.db import AsyncSession, Database
from storage.documents import ROW_ID, SERVICE_CATEGORY, row_of, row_statements
from storage.models import Appointment, User
from storage.repo_booking import two_versions, version_of
from storage.repo_catalog import get_clinic
from storage.repo_provider_codes import ACTIVE_CODE_NAME
from storage.statements import Row, Statements, run_statements
from storage.types import iso, utcnow


@dataclass
class Loaded:
    """A stored document: rule facts, wire data, version."""

    meta: DocMeta
    data: dict[str, Any] | None
    version: int


class Collection(Protocol):
    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None: ...

    async def load_meta(self, session: AsyncSession, params: dict[str, str]) -> DocMeta | None:
        """What the rules may know of the document (None: it does not exist), without
        building its data: a subscribe is authorised by this before it joins the room."""
        ...


def user_data(user: Row) -> dict[str, Any]:
    return {
        "appointmentId": user["appointment_id"],
        "locale": user["locale"],
        "updated": iso(user["updated"]),
        "userAgent": user["user_agent"],
        "version": user["app_version"],
    }


def appointment_data(appointment: Row) -> dict[str, Any]:
    a = appointment
    return {
        "id": a["id"],
        "clinicId": a["clinic_id"],
        "serviceId": a["service_id"],
        "status": a["status"],
        "patientRole": a["patient_role"],
        "date": a["date"],
        "time": a["time"],
        "timezone": a["timezone"],
        "personTimezone": a["person_timezone"],
        "counselorId": a["counselor_id"],
        "locale": a["locale"],
        "holdExpiresAt": iso(a["hold_expires_at"]),
        "joinUrl": a["join_url"],
        "agreedToTerms": a["agreed_to_terms"],
        "consent": a["consent"],
        "payment": a["payment"],
        # {reason, at, by}: docs/protocol.md "The appointment document" lists it; staff
        # read the reason on the appointment page.
        "cancellation": a["cancellation"],
        # The person's place on the waitlist (realtime/booking/waitlist.py), or null.
        "waitlist": a["waitlist"],
        "submittedAt": iso(a["submitted_at"]),
        # The ended appointment whose answers this one started from (appointment-create).
        "copiedFrom": a["copied_from"],
        "created": iso(a["created"]),
        "updated": iso(a["updated"]),
        "intake": a["intake"],
    }


def document_data(row: User | Appointment) -> dict[str, Any]:
    """The wire data of a live document held as an ORM object."""
    values = row_of(row)
    return user_data(values) if isinstance(row, User) else appointment_data(values)


class Rows:
    """Documents stored as rows with a version column; the only ones clients write.

    Rows are read and written as plain dictionaries by prebuilt Core statements, so that an
    update runs as one short transaction in one call (`Database.run_write`, the hot path of
    every live-document change, where building an ORM object took as long as reading the
    row); subscribers' reads use the same code through the async connection's synchronous
    face.
    """

    model: type[User] | type[Appointment]
    param: str  # the path parameter holding the row's id
    meta_columns: tuple[str, ...]  # the columns `meta` reads

    def __init__(self) -> None:
        # Built once (storage/documents.py), held as plain attributes: no lookup per write.
        built = row_statements(self.model, self.meta_columns)
        self._read, self._read_for_update = built.read, built.read_for_update
        self._read_meta, self._write = built.read_meta, built.write

    def get_row(
        self, statements: Statements, params: dict[str, str], *, for_update: bool
    ) -> Row | None:
        query = self._read_for_update if for_update else self._read
        return statements.row(query, {ROW_ID: params[self.param]})

    def save(self, statements: Statements, row: Row, columns: set[str]) -> None:
        """Store the given columns of a row read by `get_row` (the SET clause is theirs)."""
        statements.execute(
            self._write, {ROW_ID: row["id"], **{name: row[name] for name in columns}}
        )

    def meta(self, row: Row) -> DocMeta:
        """The rules' facts of a row (read whole, or only its `meta_columns`)."""
        raise NotImplementedError

    def data(self, row: Row) -> dict[str, Any]:
        """The document's wire data."""
        raise NotImplementedError

    def write_context(self, statements: Statements, row: Row) -> WriteContext | None:
        """What validating an update of this row needs (None: the generic table suffices)."""
        return None

    def check_stored(self, statements: Statements, row: Row, changes: dict[str, Any]) -> None:
        """Refuse validated values that the stored data do not allow (none by default)."""

    def apply(self, row: Row, path: str, value: Any) -> str:
        """Store one validated field of an update on the row; the column it changed."""
        raise NotImplementedError

    def read(
        self, statements: Statements, params: dict[str, str], *, for_update: bool = False
    ) -> Loaded | None:
        """The document, in a read (`Database.run_read`) or in a session's transaction."""
        row = self.get_row(statements, params, for_update=for_update)
        if row is None:
            return None
        return Loaded(self.meta(row), self.data(row), row["version"])

    def read_meta(self, statements: Statements, params: dict[str, str]) -> DocMeta | None:
        """The rules' facts of the document alone (`meta_columns`)."""
        row = statements.row(self._read_meta, {ROW_ID: params[self.param]})
        return None if row is None else self.meta(row)

    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        return await run_statements(
            session, lambda statements: self.read(statements, params, for_update=for_update)
        )

    async def load_meta(self, session: AsyncSession, params: dict[str, str]) -> DocMeta | None:
        return await run_statements(session, lambda statements: self.read_meta(statements, params))


class Users(Rows):
    model = User
    param = "uid"
    meta_columns = ("id",)

    def meta(self, row: Row) -> DocMeta:
        return DocMeta(owner_uid=row["id"], clinic_id=None)

    def data(self, row: Row) -> dict[str, Any]:
        return user_data(row)

    def apply(self, row: Row, path: str, value: Any) -> str:
        column = WRITABLE["users"][path].attribute
        row[column] = value
        return column


class Appointments(Rows):
    model = Appointment
    param = "id"
    meta_columns = ("user_id", "clinic_id", "counselor_id")

    def meta(self, row: Row) -> DocMeta:
        return DocMeta(
            owner_uid=row["user_id"], clinic_id=row["clinic_id"], counselor_id=row["counselor_id"]
        )

    def data(self, row: Row) -> dict[str, Any]:
        return appointment_data(row)

    def write_context(self, statements: Statements, row: Row) -> WriteContext | None:
        category = statements.scalar(SERVICE_CATEGORY, {ROW_ID: row["service_id"]})
        today = datetime.now(ZoneInfo(row["timezone"] or "UTC")).date()
        return WriteContext(
            intake=IntakeContext(
                category=category,
                today=today,
                answers={"intake": row["intake"] or {}, "patientRole": row["patient_role"]},
            ),
            consented=row["consent"] is not None,
            status=row["status"],
        )

    def check_stored(self, statements: Statements, row: Row, changes: dict[str, Any]) -> None:
        """A provider code must be one the appointment's clinic has, active (the name is
        read in the update's own transaction)."""
        code = changes.get(CODE_PATH)
        if isinstance(code, str) and code:
            params = {"clinic_id": row["clinic_id"], "code": code}
            if statements.row(ACTIVE_CODE_NAME, params) is None:
                raise unknown_code(CODE_PATH)

    def apply(self, row: Row, path: str, value: Any) -> str:
        if path.startswith(INTAKE_PREFIX):
            row["intake"] = set_nested(row["intake"] or {}, path.split(".")[1:], value)
            return "intake"
        if path == PATIENT_ROLE:
            row["patient_role"] = value
            return "patient_role"
        column = WRITABLE["appointments"][path].attribute
        row[column] = value
        return column


class Vacancies:
    """`vacancies/{clinicId}/{serviceId}/{YYYY-MM}`: free slots of one month, from the month
    cache at the document's current version (realtime/booking/slot_cache.py).

    A subscribe reads the month's version and its clinic's catalog version in one point
    read (storage/db.py `run_read`); the clinic, its services and the month's free times
    then come from the application's caches, and the session is used only by what they miss.
    """

    def __init__(self, db: Database, caches: BookingCaches) -> None:
        self.db = db
        self.caches = caches

    def meta_of(self, params: dict[str, str]) -> DocMeta:
        """From the path alone (no query): the rule of vacancies reads none of it."""
        return DocMeta(None, params["clinicId"])

    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        month, clinic_id, service_id = params["month"], params["clinicId"], params["serviceId"]
        if month_days(month) is None:
            return None
        path = vacancies_path(clinic_id, service_id, month)
        version, catalog_version = await self.db.run_read(
            lambda st: two_versions(st, first=path, second=catalog_path(clinic_id))
        )
        catalog = await self.caches.catalogs.get(session, clinic_id, version=catalog_version)
        service = next((s for s in catalog[1] if s.id == service_id), None) if catalog else None
        if catalog is None or service is None:
            return None
        clinic, now = catalog[0], utcnow()
        times = await month_times(
            session,
            cache=self.caches.months,
            clinic=clinic,
            service=service,
            month=month,
            version=version,
            now=now,
        )
        return Loaded(DocMeta(None, clinic.id), month_data(clinic, service, times, now), version)

    async def load_meta(self, session: AsyncSession, params: dict[str, str]) -> DocMeta | None:
        return self.meta_of(params)


class ClinicDocument:
    """A clinic's staff document: it exists while its clinic does, and its rule reads the
    clinic from the path alone."""

    async def clinic_of(self, session: AsyncSession, params: dict[str, str]) -> str | None:
        clinic_id = params["clinicId"]
        return clinic_id if await get_clinic(session, clinic_id=clinic_id) is not None else None

    async def load_meta(self, session: AsyncSession, params: dict[str, str]) -> DocMeta | None:
        return DocMeta(None, params["clinicId"])


class ClinicView(ClinicDocument):
    """A clinic's staff document computed by `data_of` (bookings feed, presence, audit), as
    the reader's `audience` reads it (`for_audience`, for the documents whose rule is
    `filtered`). Loaded without an audience, it is the whole computation, which the
    publisher turns into each audience's copy."""

    def __init__(
        self,
        path_of: Callable[[str], str],
        data_of: Callable[..., Awaitable[dict[str, Any]]],
        for_audience: Callable[[dict[str, Any], str], dict[str, Any]] | None = None,
    ) -> None:
        self.path_of = path_of
        self.data_of = data_of
        self.for_audience = for_audience

    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        clinic_id = await self.clinic_of(session, params)
        if clinic_id is None:
            return None
        version = await version_of(session, path=self.path_of(clinic_id))
        data = await self.data_of(session, clinic_id=clinic_id)
        audience = params.get("audience")
        shown = (
            data
            if audience is None or self.for_audience is None
            else self.for_audience(data, audience)
        )
        return Loaded(DocMeta(None, clinic_id), shown, version)


class FeedWindow(ClinicDocument):
    """`clinics/{clinicId}/bookings/{from}/{to}`: the bookings of those days, for the
    reader's audience (realtime/booking/feed_window.py)."""

    async def load(
        self, session: AsyncSession, params: dict[str, str], *, for_update: bool
    ) -> Loaded | None:
        clinic_id = await self.clinic_of(session, params)
        if clinic_id is None:
            return None
        data, version = await window_data(
            session,
            clinic_id=clinic_id,
            first=params["first"],
            last=params["last"],
            audience=params.get("audience", EVERYONE),
        )
        return Loaded(DocMeta(None, clinic_id), data, version)


def collections(db: Database, caches: BookingCaches) -> dict[str, Collection]:
    """The collections by the path pattern of realtime/rules.py, one table per application
    (built by create_app, held on AppState: `state.collections`): the month documents are
    read through the application's month cache."""
    return {
        "users/{uid}": Users(),
        "appointments/{id}": Appointments(),
        "vacancies/{clinicId}/{serviceId}/{month}": Vacancies(db, caches),
        "clinics/{clinicId}/bookings": ClinicView(feed_path, feed_data, feed_for),
        "clinics/{clinicId}/bookings/{first}/{last}": FeedWindow(),
        "clinics/{clinicId}/presence": ClinicView(presence_path, presence_data, presence_for),
        "clinics/{clinicId}/audit": ClinicView(audit_path, audit_data),
    }
