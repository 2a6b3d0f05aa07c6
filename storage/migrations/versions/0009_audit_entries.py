"""audit entries: append-only, refused UPDATE and DELETE by triggers

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op
from sqlalchemy.dialects import postgresql

import storage.types

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

APPEND_ONLY = "audit_entries is append-only"

POSTGRES_UP = (
    f"""
    CREATE FUNCTION audit_entries_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
        RAISE EXCEPTION '{APPEND_ONLY}' USING ERRCODE = 'insufficient_privilege';
    END
    $$
    """,
    """
    CREATE TRIGGER audit_entries_no_change BEFORE UPDATE OR DELETE ON audit_entries
    FOR EACH ROW EXECUTE FUNCTION audit_entries_append_only()
    """,
    """
    CREATE TRIGGER audit_entries_no_truncate BEFORE TRUNCATE ON audit_entries
    FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_append_only()
    """,
)
POSTGRES_DOWN = (
    "DROP TRIGGER IF EXISTS audit_entries_no_truncate ON audit_entries",
    "DROP TRIGGER IF EXISTS audit_entries_no_change ON audit_entries",
    "DROP FUNCTION IF EXISTS audit_entries_append_only()",
)
SQLITE_UP = tuple(
    f"""
    CREATE TRIGGER audit_entries_no_{event.lower()} BEFORE {event} ON audit_entries
    BEGIN SELECT RAISE(ABORT, '{APPEND_ONLY}'); END
    """
    for event in ("UPDATE", "DELETE")
)
SQLITE_DOWN = (
    "DROP TRIGGER IF EXISTS audit_entries_no_update",
    "DROP TRIGGER IF EXISTS audit_entries_no_delete",
)


def _postgres() -> bool:
    return op.get_bind().dialect.name == "postgresql"


def upgrade() -> None:
    op.create_table(
        "audit_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("at", storage.types.UTCDateTime(), nullable=False),
        sa.Column("uid", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("email", sqlmodel.AutoString(length=320), nullable=False),
        sa.Column("role", sqlmodel.AutoString(length=32), nullable=False),
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("appointment_id", sqlmodel.AutoString(length=64), nullable=True),
        sa.Column("action", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column(
            "detail",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("client_address", sqlmodel.AutoString(length=64), nullable=True),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.create_index("ix_audit_entries_clinic_at", ["clinic_id", "at"], unique=False)
        batch_op.create_index(
            "ix_audit_entries_appointment_at", ["appointment_id", "at"], unique=False
        )
    for statement in POSTGRES_UP if _postgres() else SQLITE_UP:
        op.execute(statement)


def downgrade() -> None:
    for statement in POSTGRES_DOWN if _postgres() else SQLITE_DOWN:
        op.execute(statement)
    with op.batch_alter_table("audit_entries", schema=None) as batch_op:
        batch_op.drop_index("ix_audit_entries_appointment_at")
        batch_op.drop_index("ix_audit_entries_clinic_at")
    op.drop_table("audit_entries")
