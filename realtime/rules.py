"""Who may read and write which live document: one table, like Firestore security rules.

Every subscribe and update goes through `authorize`; callable functions check the same
predicates through `require_*`. A document that does not exist answers exactly like one
the caller may not see, so ids cannot be probed.
"""

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from realtime.errors import FunctionError, no_access
from realtime.identity import Identity


@dataclass(frozen=True)
class DocMeta:
    """What a rule may know of a stored document besides its path."""

    owner_uid: str | None
    clinic_id: str | None


Rule = Callable[[Identity, dict[str, str], DocMeta | None], bool]


def own_user(who: Identity, params: dict[str, str], _doc: DocMeta | None) -> bool:
    return who.uid == params["uid"]


def owner(who: Identity, _params: dict[str, str], doc: DocMeta | None) -> bool:
    return doc is not None and doc.owner_uid == who.uid


def owner_or_clinic_staff(who: Identity, params: dict[str, str], doc: DocMeta | None) -> bool:
    return owner(who, params, doc) or (doc is not None and who.is_staff_of(doc.clinic_id))


def signed_in(_who: Identity, _params: dict[str, str], _doc: DocMeta | None) -> bool:
    return True


def staff_of_clinic(who: Identity, params: dict[str, str], _doc: DocMeta | None) -> bool:
    return who.is_staff_of(params["clinicId"])


def nobody(_who: Identity, _params: dict[str, str], _doc: DocMeta | None) -> bool:
    return False


@dataclass(frozen=True)
class PathRule:
    pattern: str
    read: Rule
    write: Rule

    @property
    def collection(self) -> str:
        return self.pattern.split("/", 1)[0]


SEGMENT = r"[A-Za-z0-9_-]{1,64}"

RULES: tuple[PathRule, ...] = (
    PathRule("users/{uid}", read=own_user, write=own_user),
    # Staff read appointments through staff-appointment-read (audited), never by following.
    PathRule("appointments/{id}", read=owner, write=owner),
    PathRule("vacancies/{clinicId}/{serviceId}/{month}", read=signed_in, write=nobody),
    PathRule("clinics/{clinicId}/bookings", read=staff_of_clinic, write=nobody),
    PathRule("clinics/{clinicId}/presence", read=staff_of_clinic, write=nobody),
)


def _compile(pattern: str) -> re.Pattern[str]:
    """A whole-path regex: used with fullmatch only (`$` would accept a trailing newline)."""
    regex = re.sub(r"\{(\w+)\}", lambda m: f"(?P<{m.group(1)}>{SEGMENT})", pattern)
    return re.compile(regex)


_COMPILED = tuple((_compile(rule.pattern), rule) for rule in RULES)


@dataclass(frozen=True)
class Match:
    path: str
    rule: PathRule
    params: dict[str, str]


def match(path: object) -> Match:
    """The rule for a document path, or INVALID_ARGUMENT for a path no rule knows."""
    if isinstance(path, str):
        for regex, rule in _COMPILED:
            found = regex.fullmatch(path)
            if found:
                return Match(path=path, rule=rule, params=found.groupdict())
    message = "Unknown document path."
    raise FunctionError("INVALID_ARGUMENT", message, {"path": path, "fields": {"path": message}})


def authorize(
    who: Identity | None, found: Match, doc: DocMeta | None, access: Literal["read", "write"]
) -> None:
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    rule = found.rule.read if access == "read" else found.rule.write
    if not rule(who, found.params, doc):
        raise no_access()


def require_identity(who: Identity | None) -> Identity:
    if who is None:
        raise FunctionError("UNAUTHENTICATED", "Sign in to continue.")
    return who
