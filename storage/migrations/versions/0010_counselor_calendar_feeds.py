"""counselor calendar feeds: the SHA-256 of each counselor's feed key

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "counselor_calendar_feeds",
        sa.Column("counselor_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("key_hash", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("created", storage.types.UTCDateTime(), nullable=False),
        sa.Column("created_by", sqlmodel.AutoString(length=64), nullable=False),
        sa.ForeignKeyConstraint(["counselor_id"], ["counselors.id"]),
        sa.PrimaryKeyConstraint("counselor_id"),
        sa.UniqueConstraint("key_hash"),
    )


def downgrade() -> None:
    op.drop_table("counselor_calendar_feeds")
