"""How deeply a received JSON value may nest (docs/protocol.md "Transport limits").

No payload of the protocol nests deeper than a handful of levels; a deeper one is refused
before any code walks it recursively (validation, error details, logging).
"""

from typing import Any

MAX_DEPTH = 32
TOO_DEEP = "The payload is nested too deeply."


def too_deep(value: object, limit: int = MAX_DEPTH) -> bool:
    """True when objects/arrays nest more than `limit` levels (walked without recursion)."""
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth >= limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False
