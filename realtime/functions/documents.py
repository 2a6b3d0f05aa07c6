"""documents-read: a clinic's documents for its administrators, retired ones included
(docs/protocol.md, "Clinic administration" / "Clinic documents"). Uploading and retiring are
HTTP routes (realtime/document_routes.py): a file does not belong in a socket message."""

from typing import Any

from realtime.dispatch import CallContext, callable_function, validated
from realtime.document_admin import document_wire
from realtime.functions.inputs import Id, Input
from realtime.functions.staff import raw
from realtime.rules import require_staff
from storage.repo_files import clinic_files


class DocumentsRead(Input):
    clinicId: Id


@callable_function("documents-read", DocumentsRead, authorize_first=True)
async def documents_read(context: CallContext, data: Any) -> dict[str, Any]:
    """Every document of the clinic and language, by document id: what the downloads page
    shows of it, its generation, and when it was retired (null while it is served)."""
    who = require_staff(context.identity, raw(data, "clinicId"), admin=True)
    validated(DocumentsRead, data)
    assert who.clinic_id is not None
    async with context.state.db.read() as session:
        rows = await clinic_files(session, clinic_id=who.clinic_id)
    return {"documents": [document_wire(row) for row in rows]}
