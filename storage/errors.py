"""The database's errors, as the code above storage tells them apart (realtime/errors.py,
realtime/payments/apply.py): the driver's and SQLAlchemy's classes are named only here."""

import asyncpg
import sqlalchemy.exc

# A constraint (unique, exclusion, foreign key) refused a write.
Conflict = sqlalchemy.exc.IntegrityError

# Exceptions through which the database may report an error of its own or being unreachable.
DATABASE_ERRORS: tuple[type[Exception], ...] = (
    sqlalchemy.exc.SQLAlchemyError,
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
)


# The pool timed out, the connection closed, or asyncpg left it mid-operation.
CONNECTION_LOST = (
    sqlalchemy.exc.TimeoutError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.InternalClientError,
)


def connection_lost(exc: BaseException) -> bool:
    """The pool timed out, or the connection closed or was invalidated under the statement
    (the caller also checks OSError and the SQLSTATE, which need no class of ours)."""
    if isinstance(exc, CONNECTION_LOST):
        return True
    return isinstance(exc, sqlalchemy.exc.DBAPIError) and exc.connection_invalidated
