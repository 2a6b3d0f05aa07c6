"""staff roles (counselor, clinic_admin) and the second factor (TOTP, recovery codes)

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("staff_members", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("counselor_id", sqlmodel.AutoString(length=64), nullable=True)
        )
        batch_op.add_column(sa.Column("totp_secret", sqlmodel.AutoString(length=64), nullable=True))
        batch_op.add_column(
            sa.Column("totp_confirmed_at", storage.types.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(sa.Column("totp_last_step", sa.Integer(), nullable=True))
        batch_op.create_foreign_key(
            "fk_staff_members_counselor_id", "counselors", ["counselor_id"], ["id"]
        )
    # The one staff role there was could do everything a clinic's staff may do.
    op.execute("UPDATE staff_members SET role = 'clinic_admin' WHERE role = 'clinic_staff'")

    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("second_factor_at", storage.types.UTCDateTime(), nullable=True)
        )

    op.create_table(
        "staff_recovery_codes",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("staff_id", sa.Integer(), nullable=False),
        sa.Column("code_hash", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("used_at", storage.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["staff_id"], ["staff_members.id"]),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("staff_recovery_codes", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_staff_recovery_codes_staff_id"), ["staff_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("staff_recovery_codes", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_staff_recovery_codes_staff_id"))
    op.drop_table("staff_recovery_codes")
    with op.batch_alter_table("auth_sessions", schema=None) as batch_op:
        batch_op.drop_column("second_factor_at")
    op.execute("UPDATE staff_members SET role = 'clinic_staff'")
    with op.batch_alter_table("staff_members", schema=None) as batch_op:
        batch_op.drop_constraint("fk_staff_members_counselor_id", type_="foreignkey")
        batch_op.drop_column("totp_last_step")
        batch_op.drop_column("totp_confirmed_at")
        batch_op.drop_column("totp_secret")
        batch_op.drop_column("counselor_id")
