"""Clinic documents in file storage: a local directory by default (FILES_DIR), with the
stored-file metadata of docs/product.md ("Records and their fields") in the `stored_files`
table.

Layout on disk: <FILES_DIR>/<clinicId>/<docId>/<locale>/<generation>/<name>. The path
segments are checked against the same pattern as every other id, so no request can leave the
directory. Each generation has its own place, so a replacement is written beside the file it
replaces and the row's commit alone decides which one is served (realtime/document_admin.py).
"""

import base64
import hashlib
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

from storage.db import AsyncSession
from storage.demo import DEMO_CLINIC_ID
from storage.demo_documents import DOCUMENTS
from storage.models import StoredFile
from storage.repo_catalog import get_clinic
from storage.repo_files import get_file, store_file
from storage.types import iso, utcnow

BUCKET = "clinic-documents"
SEGMENT = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
CACHE_CONTROL = "private, max-age=300"


def full_path(clinic_id: str, doc_id: str, locale: str) -> str | None:
    if all(SEGMENT.fullmatch(part) for part in (clinic_id, doc_id, locale)):
        return f"{clinic_id}/{doc_id}/{locale}"
    return None


def content_disposition(name: str) -> str:
    ascii_name = name.encode("ascii", "replace").decode().replace("?", "_").replace('"', "")
    return f"attachment; filename=\"{ascii_name}\"; filename*=UTF-8''{quote(name)}"


async def save(
    session: AsyncSession,
    root: Path,
    *,
    clinic_id: str,
    doc_id: str,
    locale: str,
    name: str,
    content: bytes,
    content_type: str,
    custom_metadata: dict[str, str] | None = None,
) -> StoredFile:
    path = full_path(clinic_id, doc_id, locale)
    if path is None or "/" in name or name.startswith("."):
        raise ValueError("invalid document path")
    now = utcnow()
    row = await get_file(session, path=path)
    new = row is None
    if row is None:
        row = StoredFile(
            full_path=path,
            bucket=BUCKET,
            name=name,
            size=len(content),
            time_created=now,
            updated=now,
            md5_hash="",
            content_type=content_type,
        )
    else:
        row.generation += 1
        row.updated = now
    row.name, row.size, row.content_type = name, len(content), content_type
    row.md5_hash = base64.b64encode(hashlib.md5(content).digest()).decode()
    row.cache_control = CACHE_CONTROL
    row.content_disposition = content_disposition(name)
    row.content_language = locale
    row.custom_metadata = custom_metadata
    target = file_on_disk(root, row)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(content)
    await store_file(session, row=row, new=new)
    return row


def metadata(row: StoredFile) -> dict[str, Any]:
    """The stored file metadata of docs/product.md, in Firebase Storage's field names."""
    return {
        "bucket": row.bucket,
        "generation": str(row.generation),
        "metageneration": str(row.metageneration),
        "fullPath": row.full_path,
        "name": row.name,
        "size": row.size,
        "timeCreated": iso(row.time_created),
        "updated": iso(row.updated),
        "md5Hash": row.md5_hash,
        "cacheControl": row.cache_control,
        "contentDisposition": row.content_disposition,
        "contentEncoding": row.content_encoding,
        "contentLanguage": row.content_language,
        "contentType": row.content_type,
        "customMetadata": row.custom_metadata or {},
    }


def file_on_disk(root: Path, row: StoredFile) -> Path:
    return generation_dir(root, row.full_path, row.generation) / row.name


def generation_dir(root: Path, path: str, generation: int) -> Path:
    return root / path / str(generation)


async def store_demo_documents(session: AsyncSession, root: Path) -> None:
    """Write the demo clinic's documents where missing (in the database or on disk)."""
    if await get_clinic(session, clinic_id=DEMO_CLINIC_ID) is None:
        return
    for doc_id, by_locale in DOCUMENTS.items():
        for locale, (name, text) in by_locale.items():
            path = full_path(DEMO_CLINIC_ID, doc_id, locale)
            assert path is not None
            row = await get_file(session, path=path)
            if row is None or not file_on_disk(root, row).exists():
                await save(
                    session,
                    root,
                    clinic_id=DEMO_CLINIC_ID,
                    doc_id=doc_id,
                    locale=locale,
                    name=name,
                    content=text.encode("utf-8"),
                    content_type="text/plain; charset=utf-8",
                )
