"""clinic administration: schedule versions, clinic holidays, service versions, provider
codes, document retirement, staff invitations and removal; an index for the reminders job

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types
from storage.demo import DEMO_CLINIC_ID, DEMO_INSTITUTION, DEMO_PROVIDER_CODE

revision: str = "0013"
down_revision: str | None = "0012"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (constant defaults): SQLite's batch mode would copy and drop tables that
    # other rows reference.
    columns: dict[str, list[sa.Column[object]]] = {
        "counselors": [
            sa.Column("schedule_version", sa.Integer(), nullable=False, server_default="1")
        ],
        "clinics": [
            sa.Column("holidays_version", sa.Integer(), nullable=False, server_default="1")
        ],
        "services": [
            sa.Column("active", sa.Boolean(), nullable=False, server_default=sa.true()),
            sa.Column("version", sa.Integer(), nullable=False, server_default="1"),
        ],
        "staff_members": [
            sa.Column("invited_by", sqlmodel.AutoString(length=64), nullable=True),
            sa.Column("invited_at", storage.types.UTCDateTime(), nullable=True),
            sa.Column("removed_at", storage.types.UTCDateTime(), nullable=True),
        ],
        "stored_files": [
            sa.Column("uploaded_by", sqlmodel.AutoString(length=64), nullable=True),
            sa.Column("retired_at", storage.types.UTCDateTime(), nullable=True),
        ],
    }
    for table, added in columns.items():
        for column in added:
            op.add_column(table, column)
    # The reminders job reads a clinic's active bookings in a time range.
    op.create_index(
        "ix_slot_claims_clinic_kind_start",
        "slot_claims",
        ["clinic_id", "kind", "start"],
        sqlite_where=sa.text("active"),
        postgresql_where=sa.text("active"),
    )
    op.create_table(
        "clinic_holidays",
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("day", sa.Date(), nullable=False),
        sa.Column("name", sqlmodel.AutoString(length=200), nullable=False),
        sa.ForeignKeyConstraint(["clinic_id"], ["clinics.id"]),
        sa.PrimaryKeyConstraint("clinic_id", "day"),
    )
    op.create_table(
        "provider_codes",
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("code", sqlmodel.AutoString(length=4), nullable=False),
        sa.Column("name", sqlmodel.AutoString(length=200), nullable=False),
        sa.Column("active", sa.Boolean(), nullable=False),
        sa.Column("updated", storage.types.UTCDateTime(), nullable=False),
        sa.ForeignKeyConstraint(["clinic_id"], ["clinics.id"]),
        sa.PrimaryKeyConstraint("clinic_id", "code"),
    )
    # The demo clinic's referring institution: a database seeded before this revision gets it
    # here, a new one from storage/demo.py.
    op.execute(
        sa.text(
            "INSERT INTO provider_codes (clinic_id, code, name, active, updated) "
            "SELECT id, :code, :name, :yes, :now FROM clinics WHERE id = :clinic"
        ).bindparams(
            sa.bindparam("now", storage.types.utcnow(), type_=storage.types.UTCDateTime()),
            code=DEMO_PROVIDER_CODE,
            name=DEMO_INSTITUTION,
            yes=True,
            clinic=DEMO_CLINIC_ID,
        )
    )


def downgrade() -> None:
    op.drop_table("provider_codes")
    op.drop_table("clinic_holidays")
    op.drop_index("ix_slot_claims_clinic_kind_start", table_name="slot_claims")
    with op.batch_alter_table("stored_files") as batch:
        batch.drop_column("retired_at")
        batch.drop_column("uploaded_by")
    with op.batch_alter_table("staff_members") as batch:
        batch.drop_column("removed_at")
        batch.drop_column("invited_at")
        batch.drop_column("invited_by")
    with op.batch_alter_table("services") as batch:
        batch.drop_column("version")
        batch.drop_column("active")
    with op.batch_alter_table("clinics") as batch:
        batch.drop_column("holidays_version")
    with op.batch_alter_table("counselors") as batch:
        batch.drop_column("schedule_version")
