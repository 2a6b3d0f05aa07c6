"""HTTP routes of the clinic documents' administration (a file does not belong in a socket
message): `POST /staff/documents/{clinicId}/{docId}/{locale}` uploads or replaces,
`.../retire` retires (docs/protocol.md, "Clinic administration" / "Clinic documents").

The caller is authorized (a clinic_admin of that clinic, second factor passed) before
anything of the body is read; then the path, then the form. The body's size is capped by
LimitBodies (realtime/bodies.py, `UPLOAD_BODY`): a declared length over it is refused before
a byte is read, a stream as soon as it passes it. Starlette spools the file part to a
temporary file past 1 MB, so no upload is held in memory.
"""

import asyncio

from starlette.datastructures import UploadFile
from starlette.formparsers import MultiPartException
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from realtime.bodies import Larger
from realtime.contract import MAX_DOCUMENT_BYTES
from realtime.cross_site import FORM_MEDIA_TYPE
from realtime.document_admin import (
    Incoming,
    Place,
    commit_upload,
    document_wire,
    place_of,
    retire,
    take_in,
)
from realtime.document_content import clean_title, file_too_large
from realtime.errors import invalid_field
from realtime.http import client_ip, identity_of
from realtime.identity import Identity
from realtime.rules import require_staff
from realtime.state import state_of

PREFIX = "/staff/documents/"
# The form around the file (boundaries, part headers, the title) fits in this much.
FORM_ENVELOPE_BYTES = 64 * 1024
MAX_TITLE_BYTES = 1024
UPLOAD_BODY = Larger(PREFIX, MAX_DOCUMENT_BYTES + FORM_ENVELOPE_BYTES, file_too_large)


async def _authorized(request: Request, *, form_upload: bool) -> tuple[Identity, Place]:
    """The clinic_admin of the path's clinic and the document named (401/403 before 400)."""
    params = request.path_params
    who = await identity_of(request, form_upload=form_upload)
    admin = require_staff(who, params["clinicId"], admin=True)
    return admin, place_of(params["clinicId"], params["docId"], params["locale"])


async def _incoming(request: Request, place: Place) -> tuple[Incoming, str]:
    """The checked file (in its temporary file) and the title of the upload's form."""
    media_type = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media_type != FORM_MEDIA_TYPE:
        raise invalid_field("body", "Send the file as multipart/form-data.")
    root = state_of(request).settings.files_dir
    try:
        async with request.form(max_files=1, max_fields=1, max_part_size=MAX_TITLE_BYTES) as form:
            upload = form.get("file")
            if not isinstance(upload, UploadFile):
                raise invalid_field("file", "Choose a file.")
            title = clean_title(form.get("title"))
            if upload.size is not None and upload.size > MAX_DOCUMENT_BYTES:
                raise file_too_large()
            incoming = await asyncio.to_thread(
                take_in,
                upload.file,
                root=root,
                declared=upload.content_type,
                filename=upload.filename,
                fallback=place.doc_id,
            )
    except MultiPartException as exc:
        raise invalid_field("body", f"The form could not be read: {exc.message}") from None
    return incoming, title


async def upload_document(request: Request) -> Response:
    """Upload or replace: -> `{"data": <document>}` as documents-read lists it."""
    who, place = await _authorized(request, form_upload=True)
    incoming, title = await _incoming(request, place)
    try:
        row = await commit_upload(
            state_of(request), who, place, incoming, title, client_ip(request)
        )
    finally:
        incoming.temp.unlink(missing_ok=True)  # moved into place, or not kept
    return JSONResponse({"data": document_wire(row)})


async def retire_document(request: Request) -> Response:
    """Retire: no longer served nor linked (an upload brings it back)."""
    who, place = await _authorized(request, form_upload=False)
    row = await retire(state_of(request), who, place, client_ip(request))
    return JSONResponse({"data": document_wire(row)})


def document_routes() -> list[BaseRoute]:
    return [
        Route(PREFIX + "{clinicId}/{docId}/{locale}", upload_document, methods=["POST"]),
        Route(PREFIX + "{clinicId}/{docId}/{locale}/retire", retire_document, methods=["POST"]),
    ]
