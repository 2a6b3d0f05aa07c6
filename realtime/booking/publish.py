"""After a claim changes: new versions and snapshots of the derived documents it affects.

A claim of a counselor changes the free slots of every service of the clinic for the month
it falls in, and the clinic's bookings feed (realtime/documents.py `publish_derived`).
"""

from datetime import datetime

from realtime.booking.feed import feed_path
from realtime.booking.vacancies import (
    month_of,
    vacancies_path,
)
from realtime.documents import publish_derived
from realtime.state import AppState
from storage.repo_catalog import clinic_service_ids, get_clinic


async def publish_claim_change(state: AppState, *, clinic_id: str, moments: list[datetime]) -> None:
    async with state.db.read() as session:
        clinic = await get_clinic(session, clinic_id=clinic_id)
        service_ids = await clinic_service_ids(session, clinic_id=clinic_id)
    if clinic is None:
        return
    for month in sorted({month_of(moment, clinic.timezone) for moment in moments}):
        for service_id in service_ids:
            await publish_derived(state, vacancies_path(clinic_id, service_id, month))
    await publish_feed(state, clinic_id=clinic_id)


async def publish_feed(state: AppState, *, clinic_id: str) -> None:
    await publish_derived(state, feed_path(clinic_id))
