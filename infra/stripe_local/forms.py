"""Stripe's form encoding: `a[b][0][c]=v` pairs into nested dicts and lists.

The SDK encodes nested params with bracketed keys and always indexes arrays
(`line_items[0][quantity]=1`); `key[]=v` (append) is accepted too.
"""

import re
from typing import Any
from urllib.parse import parse_qsl

from infra.stripe_local.errors import StripeError

_KEY = re.compile(r"^([^\[\]]+)((?:\[[^\[\]]*\])*)$")
_PART = re.compile(r"\[([^\[\]]*)\]")

Params = dict[str, Any]


def parse_form(body: bytes | str) -> Params:
    """Decode a form-encoded body (or query string) into nested params."""
    text = body.decode("utf-8") if isinstance(body, bytes) else body
    root: Params = {}
    for raw_key, value in parse_qsl(text, keep_blank_values=True):
        match = _KEY.match(raw_key)
        if match is None:
            raise StripeError(400, f"Invalid parameter name: {raw_key}", param=raw_key)
        path = [match.group(1), *_PART.findall(match.group(2))]
        _insert(root, path, value, raw_key)
    return {key: _listify(value) for key, value in root.items()}


def _insert(node: Params, path: list[str], value: str, raw_key: str) -> None:
    for i, part in enumerate(path[:-1]):
        key = part if part != "" else str(_next_index(node))
        child = node.get(key)
        if child is None:
            child = {}
            node[key] = child
        elif not isinstance(child, dict):
            raise StripeError(
                400, f"Invalid value for {'.'.join(path[: i + 1])}: expected a hash", param=raw_key
            )
        node = child
    last = path[-1] if path[-1] != "" else str(_next_index(node))
    if isinstance(node.get(last), dict):
        raise StripeError(400, f"Invalid hash for {raw_key}", param=raw_key)
    node[last] = value


def _next_index(node: Params) -> int:
    numeric = [int(k) for k in node if k.isdigit()]
    return max(numeric) + 1 if numeric else 0


def _listify(value: Any) -> Any:
    """Dicts whose keys are all array indexes become lists (in index order)."""
    if not isinstance(value, dict):
        return value
    converted = {k: _listify(v) for k, v in value.items()}
    if converted and all(k.isdigit() for k in converted):
        return [converted[k] for k in sorted(converted, key=int)]
    return converted
