"""an index for expire-holds: appointments by the end of their hold

expire-holds now finds its candidates by the appointment's `hold_expires_at` (a newer hold of
the same counselor may have released the claim itself already: realtime/jobs.py).

Revision ID: 0014
Revises: 0013
Create Date: 2026-11-27
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

WHERE = sa.text("hold_expires_at IS NOT NULL")


def upgrade() -> None:
    op.create_index(
        "ix_appointments_hold_expires_at",
        "appointments",
        ["hold_expires_at"],
        sqlite_where=WHERE,
        postgresql_where=WHERE,
    )


def downgrade() -> None:
    op.drop_index("ix_appointments_hold_expires_at", table_name="appointments")
