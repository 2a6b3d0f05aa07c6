"""Callable functions, one module per area. Importing this package registers them all."""

from realtime.functions import appointment, catalog, unimplemented

__all__ = ["appointment", "catalog", "unimplemented"]
