"""after the booking: cancellation policy, reminders, waitlist, erasure and retention

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0012"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (constant defaults): SQLite's batch mode would copy and drop tables that
    # other rows reference.
    columns: dict[str, list[sa.Column[object]]] = {
        "services": [
            sa.Column("free_cancel_hours", sa.Integer(), nullable=False, server_default="48"),
            sa.Column("late_refund_percent", sa.Integer(), nullable=False, server_default="0"),
        ],
        "clinics": [
            sa.Column("contact_phone", sqlmodel.AutoString(length=32), nullable=True),
            sa.Column(
                "reminder_offsets",
                storage.types.JSONDocument,
                nullable=False,
                server_default=sa.text("'[10080, 1440, 120]'"),
            ),
            sa.Column("retention_days", sa.Integer(), nullable=False, server_default="1826"),
        ],
        "users": [sa.Column("erased_at", storage.types.UTCDateTime(), nullable=True)],
        "appointments": [
            sa.Column("submitted_at", storage.types.UTCDateTime(), nullable=True),
            sa.Column("copied_from", sqlmodel.AutoString(length=64), nullable=True),
            sa.Column("waitlist", storage.types.JSONDocument, nullable=True),
        ],
    }
    for table, added in columns.items():
        for column in added:
            op.add_column(table, column)
    op.create_table(
        "reminders",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("appointment_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("offset_minutes", sa.Integer(), nullable=False),
        sa.Column("start", storage.types.UTCDateTime(), nullable=False),
        sa.Column("sent_at", storage.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["appointment_id"], ["appointments.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_index(
        "uq_reminders_appointment_offset_start",
        "reminders",
        ["appointment_id", "offset_minutes", "start"],
        unique=True,
    )
    op.create_table(
        "waitlist_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("appointment_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("service_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("counselor_id", sqlmodel.AutoString(length=64), nullable=True),
        sa.Column("first_day", sqlmodel.AutoString(length=10), nullable=False),
        sa.Column("last_day", sqlmodel.AutoString(length=10), nullable=False),
        sa.Column("status", sqlmodel.AutoString(length=16), nullable=False),
        sa.Column("created", storage.types.UTCDateTime(), nullable=False),
        sa.Column("offer_start", storage.types.UTCDateTime(), nullable=True),
        sa.Column("offer_counselor_id", sqlmodel.AutoString(length=64), nullable=True),
        sa.Column("offer_until", storage.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["appointment_id"], ["appointments.id"]),
        sa.ForeignKeyConstraint(["clinic_id"], ["clinics.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("appointment_id"),
    )
    op.create_index(
        "ix_waitlist_clinic_status_created",
        "waitlist_entries",
        ["clinic_id", "status", "created"],
    )


def downgrade() -> None:
    op.drop_index("ix_waitlist_clinic_status_created", table_name="waitlist_entries")
    op.drop_table("waitlist_entries")
    op.drop_index("uq_reminders_appointment_offset_start", table_name="reminders")
    op.drop_table("reminders")
    with op.batch_alter_table("appointments") as batch:
        batch.drop_column("waitlist")
        batch.drop_column("copied_from")
        batch.drop_column("submitted_at")
    with op.batch_alter_table("users") as batch:
        batch.drop_column("erased_at")
    with op.batch_alter_table("clinics") as batch:
        batch.drop_column("retention_days")
        batch.drop_column("reminder_offsets")
        batch.drop_column("contact_phone")
    with op.batch_alter_table("services") as batch:
        batch.drop_column("late_refund_percent")
        batch.drop_column("free_cancel_hours")
