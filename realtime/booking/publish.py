"""After a claim changes: new versions and snapshots of the derived documents it affects.

A claim of a counselor changes the free slots of every service of the clinic for the month
it falls in, and the clinic's bookings feed. Each document's version is raised in its own
short transaction after the claim's commit (so holds never queue on a counter row), then
its snapshot is computed and pushed while holding the document's lock (realtime/push.py).
"""

from datetime import datetime

from realtime.booking.feed import feed_data, feed_path
from realtime.booking.vacancies import (
    compute_slots,
    month_days,
    month_of,
    vacancies_data,
    vacancies_path,
)
from realtime.state import AppState
from storage.repo_booking import bump_version
from storage.repo_catalog import clinic_service_ids, get_clinic, get_service
from storage.types import utcnow


async def publish_claim_change(state: AppState, *, clinic_id: str, moments: list[datetime]) -> None:
    async with state.db.read() as session:
        clinic = await get_clinic(session, clinic_id=clinic_id)
        service_ids = await clinic_service_ids(session, clinic_id=clinic_id)
    if clinic is None:
        return
    for month in sorted({month_of(moment, clinic.timezone) for moment in moments}):
        for service_id in service_ids:
            await _publish_month(state, clinic_id, service_id, month)
    await publish_feed(state, clinic_id=clinic_id)


async def _publish_month(state: AppState, clinic_id: str, service_id: str, month: str) -> None:
    path = vacancies_path(clinic_id, service_id, month)
    days = month_days(month)
    assert days is not None
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            version = await bump_version(session, path=path)
        async with state.db.read() as session:
            clinic = await get_clinic(session, clinic_id=clinic_id)
            service = await get_service(session, service_id=service_id)
            assert clinic is not None and service is not None
            slots = await compute_slots(
                session,
                clinic=clinic,
                service=service,
                first_day=days[0],
                last_day=days[1],
                now=utcnow(),
            )
        await state.publisher.push(
            {
                "path": path,
                "exists": True,
                "data": vacancies_data(clinic, slots),
                "version": version,
            }
        )


async def publish_feed(state: AppState, *, clinic_id: str) -> None:
    path = feed_path(clinic_id)
    async with state.publisher.ordered(path):
        async with state.db.write() as session:
            version = await bump_version(session, path=path)
        async with state.db.read() as session:
            data = await feed_data(session, clinic_id=clinic_id)
        await state.publisher.push({"path": path, "exists": True, "data": data, "version": version})
