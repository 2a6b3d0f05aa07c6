"""Logging of the server process: one line per record, whatever the record quotes.

A message may quote text from outside (a mail subject, a function name); a CR or LF in it
would start a line that looks like the server's own. The formatter writes every control
character of the message as an escape (realtime/text.py's rule); a traceback keeps its line
breaks but nothing else.
"""

import logging
from types import TracebackType

from realtime.text import escape

FORMAT = "%(levelname)s %(name)s %(message)s"
_LINE_BREAK = frozenset("\n")

ExcInfo = tuple[type[BaseException], BaseException, TracebackType | None] | tuple[None, None, None]


class EscapingFormatter(logging.Formatter):
    def formatMessage(self, record: logging.LogRecord) -> str:
        return escape(super().formatMessage(record))

    def formatException(self, ei: ExcInfo) -> str:
        return escape(super().formatException(ei), keep=_LINE_BREAK)

    def formatStack(self, stack_info: str) -> str:
        return escape(super().formatStack(stack_info), keep=_LINE_BREAK)


def configure_logging(level: str) -> None:
    """The root logger at `level`, writing escaped lines to stderr."""
    handler = logging.StreamHandler()
    handler.setFormatter(EscapingFormatter(FORMAT))
    logging.basicConfig(level=level.upper(), handlers=[handler])
