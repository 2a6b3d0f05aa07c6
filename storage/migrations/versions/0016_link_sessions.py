"""auth_sessions.link_purpose, link_appointment_id, expires_at: sessions of signed mail links

A booking mail's signed link (realtime/link_tokens.py) opens a session scoped to one
appointment and one purpose (booking, reschedule, cancel), which ends at `expires_at`
(realtime/link_scope.py). Sessions of an e-mail sign-in leave the three empty.

Revision ID: 0016
Revises: 0014
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0016"
# 0015 (OIDC staff sign-in) is on another branch: whoever merges second makes this "0015".
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("auth_sessions") as batch:
        batch.add_column(sa.Column("link_purpose", sqlmodel.AutoString(length=16), nullable=True))
        batch.add_column(
            sa.Column("link_appointment_id", sqlmodel.AutoString(length=64), nullable=True)
        )
        batch.add_column(sa.Column("expires_at", storage.types.UTCDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("auth_sessions") as batch:
        batch.drop_column("expires_at")
        batch.drop_column("link_appointment_id")
        batch.drop_column("link_purpose")
