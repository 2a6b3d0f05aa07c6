"""What an uploaded clinic document may be (docs/security.md, "Uploaded documents").

The type is read from the bytes, never taken from the client: PDF, PNG and JPEG by their
signature (`puremagic`), plain text when the whole file is UTF-8 without control characters.
Executables (Windows MZ, ELF, Mach-O), scripts with a shebang and markup a browser would run
(HTML, SVG, XML) are refused by name, whatever the file claims. The client's declared type and
the file name's extension must agree with what the bytes are. A refusal names the field
`file` and carries a `details.codes.file` key the client words in the person's language.
"""

import codecs
import unicodedata
from dataclasses import dataclass
from typing import BinaryIO

import puremagic

from realtime.bodies import BodyTooLarge
from realtime.contract import MAX_DOCUMENT_BYTES
from realtime.errors import FunctionError
from realtime.files import content_disposition
from realtime.text import is_control

HEAD_BYTES = 8192  # what the signature and markup checks read
CHUNK_BYTES = 1 << 16
MAX_NAME_CHARS = 120
MAX_TITLE_CHARS = 120
# The stored_files.content_disposition column's length.
MAX_DISPOSITION_CHARS = 300
# Text documents keep line breaks, tabs and form feeds; every other control character means
# the file is not plain text.
TEXT_KEEPS = frozenset("\n\r\t\f\ufeff")
EXECUTABLE_SIGNATURES = (
    b"MZ",  # Windows PE
    b"\x7fELF",
    b"\xfe\xed\xfa\xce",  # Mach-O, 32 and 64 bits, both byte orders, and fat binaries
    b"\xfe\xed\xfa\xcf",
    b"\xce\xfa\xed\xfe",
    b"\xcf\xfa\xed\xfe",
    b"\xca\xfe\xba\xbe",
    b"#!",
)
MARKUP = (b"<html", b"<script", b"<svg", b"<?xml", b"<!doctype", b"<iframe", b"<body", b"<head")
# A file name keeps none of these: path separators, what Windows forbids, control characters.
NAME_REFUSES = frozenset('<>:"/\\|?*')

# Refusal codes (client words them: staff.json "documents.errors").
TOO_LARGE = "tooLarge"
EMPTY = "empty"
TYPE = "type"
EXECUTABLE = "executable"
MISMATCH = "mismatch"
MESSAGES = {
    TOO_LARGE: f"The file is larger than {MAX_DOCUMENT_BYTES // (1024 * 1024)} MB.",
    EMPTY: "The file is empty.",
    TYPE: "Only PDF, PNG, JPEG and plain UTF-8 text files are accepted.",
    EXECUTABLE: "Programs, scripts, web pages and SVG images are not accepted.",
    MISMATCH: "The file's content does not match its type or name.",
}


@dataclass(frozen=True)
class Kind:
    media_type: str  # as stored and served
    extensions: tuple[str, ...]  # the first is added to a name without one
    declared: tuple[str, ...]  # Content-Types a client may declare for it


PDF = Kind("application/pdf", (".pdf",), ("application/pdf",))
PNG = Kind("image/png", (".png",), ("image/png",))
JPEG = Kind("image/jpeg", (".jpg", ".jpeg"), ("image/jpeg", "image/jpg", "image/pjpeg"))
TEXT = Kind("text/plain; charset=utf-8", (".txt",), ("text/plain",))
BY_SIGNATURE = {"application/pdf": PDF, "image/png": PNG, "image/jpeg": JPEG}
# A declared type that says nothing (a browser that does not know the extension).
UNDECLARED = frozenset({"", "application/octet-stream"})


def refusal(code: str, field: str = "file") -> FunctionError:
    message = MESSAGES[code]
    return FunctionError(
        "INVALID_ARGUMENT", message, {"fields": {field: message}, "codes": {field: code}}
    )


def file_too_large() -> BodyTooLarge:
    """The refusal of a file over MAX_DOCUMENT_BYTES (HTTP 413, naming `file`)."""
    return BodyTooLarge(MESSAGES[TOO_LARGE], "file", TOO_LARGE)


def _signature_kind(head: bytes) -> Kind | None:
    try:
        mime = puremagic.from_string(head, mime=True)
    except puremagic.PureError:
        return None
    return BY_SIGNATURE.get(mime)


def _is_markup(head: bytes) -> bool:
    lowered = head.lower()
    return lowered.lstrip(b"\xef\xbb\xbf \t\r\n\f").startswith(b"<") or any(
        tag in lowered for tag in MARKUP
    )


def _is_text(stream: BinaryIO) -> bool:
    """Whether the whole stream is UTF-8 without control characters (besides line breaks)."""
    decoder = codecs.getincrementaldecoder("utf-8")()
    stream.seek(0)
    try:
        while chunk := stream.read(CHUNK_BYTES):
            text = decoder.decode(chunk)
            if any(is_control(c) and c not in TEXT_KEEPS for c in text):
                return False
        decoder.decode(b"", final=True)
    except UnicodeDecodeError:
        return False
    return True


def sniff(stream: BinaryIO) -> Kind:
    """The kind of document the bytes are, or the refusal naming `file`."""
    stream.seek(0)
    head = stream.read(HEAD_BYTES)
    if not head:
        raise refusal(EMPTY)
    if head.startswith(EXECUTABLE_SIGNATURES):
        raise refusal(EXECUTABLE)
    kind = _signature_kind(head)
    if kind is not None:
        return kind
    if _is_markup(head):
        raise refusal(EXECUTABLE)
    if _is_text(stream):
        return TEXT
    raise refusal(TYPE)


def check_declared(kind: Kind, declared: str | None, name: str) -> None:
    """The client's Content-Type and the name's extension must say what the bytes are."""
    media = (declared or "").split(";", 1)[0].strip().lower()
    if media not in UNDECLARED and media not in kind.declared:
        raise refusal(MISMATCH)
    extension = _extension(name)
    if extension and extension not in kind.extensions:
        raise refusal(MISMATCH)


def _extension(name: str) -> str:
    stem, dot, extension = name.rpartition(".")
    return f".{extension.lower()}" if dot and stem else ""


def safe_name(raw: str | None, kind: Kind, fallback: str) -> str:
    """The file name as stored and offered for download: the last path part, NFC, without
    control or reserved characters, no leading dot, at most MAX_NAME_CHARS, ending in an
    extension of its kind (`fallback` when nothing is left), and short enough that its
    Content-Disposition (percent-encoded: 9 characters a kanji) fits its column."""
    base = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    base = unicodedata.normalize("NFC", base)
    base = "".join(c for c in base if not is_control(c) and c not in NAME_REFUSES)
    base = " ".join(base.split()).strip(" .")
    extension = _extension(base) or kind.extensions[0]
    stem = base[: -len(extension)] if base.lower().endswith(extension) else base
    stem = stem.strip(" .")[: MAX_NAME_CHARS - len(extension)]
    while stem and len(content_disposition(f"{stem}{extension}")) > MAX_DISPOSITION_CHARS:
        stem = stem[:-1].rstrip(" .")
    return f"{stem or fallback}{extension}"


def clean_title(value: object) -> str:
    """The document's title: text, 1..MAX_TITLE_CHARS after trimming, one line."""
    if not isinstance(value, str) or not value.strip():
        raise _title_refusal("Enter a title.", "required")
    title = unicodedata.normalize("NFC", value.strip())
    if any(is_control(c) for c in title):
        raise _title_refusal("The title holds control characters.", "controlCharacters")
    if len(title) > MAX_TITLE_CHARS:
        raise _title_refusal(f"The title is longer than {MAX_TITLE_CHARS} characters.", "tooLong")
    return title


def _title_refusal(message: str, code: str) -> FunctionError:
    return FunctionError(
        "INVALID_ARGUMENT", message, {"fields": {"title": message}, "codes": {"title": code}}
    )
