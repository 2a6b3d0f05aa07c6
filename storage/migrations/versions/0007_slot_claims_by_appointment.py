"""slot claims by appointment (the hold time cap)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-26
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("slot_claims", schema=None) as batch_op:
        batch_op.create_index(
            "ix_slot_claims_appointment_created", ["appointment_id", "created"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("slot_claims", schema=None) as batch_op:
        batch_op.drop_index("ix_slot_claims_appointment_created")
