"""Nested dicts addressed by a path of keys: the one copy-on-write setter that the live
documents' writes and the intake's "answers after this update" share."""

from typing import Any


def set_nested(document: dict[str, Any], path: list[str], value: Any) -> dict[str, Any]:
    """A copy of `document` with the field at `path` set (None removes it)."""
    copy = dict(document)
    head, rest = path[0], path[1:]
    if rest:
        inner = copy.get(head)
        copy[head] = set_nested(inner if isinstance(inner, dict) else {}, rest, value)
    elif value is None:
        copy.pop(head, None)
    else:
        copy[head] = value
    return copy
