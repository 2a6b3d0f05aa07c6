"""uvicorn's logging without query strings: a sign-in link's token is in its query
(`/login-confirmation?token=...`), so no request line of the log keeps one; nor the key of a
calendar feed's address, which is in its path."""

import copy
import logging
from typing import Any

from uvicorn.config import LOGGING_CONFIG

from realtime.calendar.keys import redact


def without_query(value: object) -> object:
    """A request path with its query string cut off, and a calendar feed's key masked (it is
    the feed's only credential: realtime/calendar/keys.py); anything else unchanged."""
    if isinstance(value, str) and value.startswith("/"):
        return redact(value.split("?", 1)[0])
    return value


class DropQueryStrings(logging.Filter):
    """Rewrites the path argument of uvicorn's access and WebSocket log lines."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(without_query(arg) for arg in record.args)
        return True


def log_config() -> dict[str, Any]:
    """uvicorn's default logging configuration with DropQueryStrings on every handler."""
    config: dict[str, Any] = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["drop_query_strings"] = {"()": DropQueryStrings}
    for handler in config["handlers"].values():
        handler.setdefault("filters", []).append("drop_query_strings")
    return config
