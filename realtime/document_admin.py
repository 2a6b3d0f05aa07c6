"""Clinic documents administered by the clinic's administrators: upload (or replace) and
retire (docs/protocol.md, "Clinic administration" / "Clinic documents").

Nothing is half-saved. An upload is checked (realtime/document_content.py) and copied into
a temporary file under FILES_DIR (same file system, so it can be moved, not copied, into
place). Inside the write transaction, holding the clinic's lock, it is moved to the place of
its new generation (a directory of its own: the file it replaces stays where it is), the row
and the audit entry are written, and the transaction commits. If anything fails before the
commit is done, the moved file is removed and the row, the old file and the log are as they
were. The replaced generation's file is removed only after the commit.
"""

import asyncio
import base64
import hashlib
import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, BinaryIO

from realtime import audit
from realtime.changes import Change, changing
from realtime.contract import LOCALES
from realtime.document_content import CHUNK_BYTES, Kind, check_declared, safe_name, sniff
from realtime.errors import FunctionError, invalid_field
from realtime.files import (
    BUCKET,
    CACHE_CONTROL,
    SEGMENT,
    content_disposition,
    file_on_disk,
    full_path,
    generation_dir,
)
from realtime.identity import Identity
from realtime.state import AppState
from storage.db import AsyncSession
from storage.models import StoredFile
from storage.repo_files import get_file, lock_clinic_files, store_file
from storage.types import iso, utcnow

INCOMING = ".incoming"  # under FILES_DIR: uploads not yet committed
NO_SUCH_DOCUMENT = "No such document."
RETIRED_MESSAGE = "This document is no longer available."


@dataclass(frozen=True)
class Place:
    """Which document: the clinic (already authorized), the document id and the language."""

    clinic_id: str
    doc_id: str
    locale: str

    @property
    def path(self) -> str:
        path = full_path(self.clinic_id, self.doc_id, self.locale)
        assert path is not None  # every part was checked
        return path


def place_of(clinic_id: str, doc_id: object, locale: object) -> Place:
    """The document a request names, or INVALID_ARGUMENT naming `docId` or `locale`."""
    if not isinstance(doc_id, str) or not SEGMENT.fullmatch(doc_id):
        raise invalid_field("docId", "docId must be 1 to 64 letters, digits, '-' or '_'.")
    if locale not in LOCALES:
        raise invalid_field("locale", f"locale must be one of {', '.join(LOCALES)}.")
    assert isinstance(locale, str)
    return Place(clinic_id, doc_id, locale)


@dataclass(frozen=True)
class Incoming:
    """A checked upload waiting in a temporary file to be committed."""

    temp: Path
    kind: Kind
    name: str
    size: int
    md5: str  # base64, as the metadata gives it


def take_in(
    stream: BinaryIO, *, root: Path, declared: str | None, filename: str | None, fallback: str
) -> Incoming:
    """Check the upload's bytes and copy them into a temporary file under `root` (blocking:
    run in a thread). Refused: nothing is left behind."""
    kind = sniff(stream)
    check_declared(kind, declared, filename or "")
    incoming = root / INCOMING
    incoming.mkdir(parents=True, exist_ok=True)
    handle, name = tempfile.mkstemp(dir=incoming)
    temp = Path(name)
    digest = hashlib.md5()
    size = 0
    try:
        with os.fdopen(handle, "wb") as out:
            stream.seek(0)
            while chunk := stream.read(CHUNK_BYTES):
                digest.update(chunk)
                size += len(chunk)
                out.write(chunk)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return Incoming(
        temp=temp,
        kind=kind,
        name=safe_name(filename, kind, fallback),
        size=size,
        md5=base64.b64encode(digest.digest()).decode(),
    )


def _filled(
    row: StoredFile | None, place: Place, file: Incoming, title: str, uid: str
) -> StoredFile:
    """The row of the new generation (a new row for a new document)."""
    now = utcnow()
    if row is None:
        row = StoredFile(
            full_path=place.path,
            bucket=BUCKET,
            name=file.name,
            size=file.size,
            time_created=now,
            md5_hash=file.md5,
            content_type=file.kind.media_type,
        )
    else:
        row.generation += 1
    row.updated = now
    row.name, row.size, row.md5_hash = file.name, file.size, file.md5
    row.content_type = file.kind.media_type
    row.cache_control = CACHE_CONTROL
    row.content_disposition = content_disposition(file.name)
    row.content_language = place.locale
    row.custom_metadata = {"title": title}
    row.uploaded_by = uid
    row.retired_at = None  # an upload brings a retired document back
    return row


def _detail(row: StoredFile, place: Place) -> dict[str, Any]:
    return {
        "docId": place.doc_id,
        "locale": place.locale,
        "size": row.size,
        "contentType": row.content_type,
        "generation": row.generation,
    }


async def _write(
    session: AsyncSession,
    change: Change,
    row: StoredFile,
    place: Place,
    who: Identity,
    address: str | None,
    *,
    new: bool,
    action: str,
) -> None:
    """The document's row and its audit entry, in the same transaction."""
    await store_file(session, row=row, new=new)
    await audit.record(
        session,
        who,
        change=change,
        clinic_id=place.clinic_id,
        action=action,
        detail=_detail(row, place),
        address=address,
    )


async def commit_upload(
    state: AppState, who: Identity, place: Place, file: Incoming, title: str, address: str | None
) -> StoredFile:
    """Make `file` the document's new generation; its row, file and audit entry together."""
    root = state.settings.files_dir
    moved: Path | None = None
    replaced: int | None = None
    async with changing(state) as change:
        try:
            async with state.db.write() as session:
                await lock_clinic_files(session, clinic_id=place.clinic_id)
                row = await get_file(session, path=place.path)
                replaced = row.generation if row is not None else None
                row = _filled(row, place, file, title, who.uid)
                target = file_on_disk(root, row)
                target.parent.mkdir(parents=True, exist_ok=True)
                await asyncio.to_thread(os.replace, file.temp, target)
                moved = target
                await _write(
                    session,
                    change,
                    row,
                    place,
                    who,
                    address,
                    new=replaced is None,
                    action=audit.DOCUMENT_UPLOAD,
                )
        except BaseException:
            if moved is not None:  # not committed: the new generation never existed
                await asyncio.to_thread(shutil.rmtree, moved.parent, ignore_errors=True)
            raise
    if replaced is not None:
        old = generation_dir(root, place.path, replaced)
        await asyncio.to_thread(shutil.rmtree, old, ignore_errors=True)
    return row


async def retire(state: AppState, who: Identity, place: Place, address: str | None) -> StoredFile:
    """Stop serving the document (its file stays until an upload replaces it); retiring a
    retired document changes nothing and records nothing."""
    async with changing(state) as change, state.db.write() as session:
        await lock_clinic_files(session, clinic_id=place.clinic_id)
        row = await get_file(session, path=place.path)
        if row is None:
            raise FunctionError("NOT_FOUND", NO_SUCH_DOCUMENT)
        if row.retired_at is None:
            row.retired_at = utcnow()
            row.metageneration += 1
            await _write(
                session, change, row, place, who, address, new=False, action=audit.DOCUMENT_RETIRE
            )
    return row


def document_wire(row: StoredFile) -> dict[str, Any]:
    """A document as the administration screen lists it (documents-read, upload, retire)."""
    _clinic, doc_id, locale = row.full_path.split("/")
    return {
        "docId": doc_id,
        "locale": locale,
        "title": (row.custom_metadata or {}).get("title"),
        "name": row.name,
        "contentType": row.content_type,
        "size": row.size,
        "updated": iso(row.updated),
        "generation": row.generation,
        "retiredAt": iso(row.retired_at) if row.retired_at is not None else None,
    }
