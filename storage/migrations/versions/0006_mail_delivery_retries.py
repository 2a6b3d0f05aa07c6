"""mail delivery retries

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("mail_outbox", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("next_attempt_at", storage.types.UTCDateTime(), nullable=True)
        )
        batch_op.add_column(sa.Column("claimed_until", storage.types.UTCDateTime(), nullable=True))
        batch_op.add_column(sa.Column("last_error", sqlmodel.AutoString(length=500), nullable=True))
        batch_op.create_index(
            "ix_mail_outbox_delivery_due", ["delivery", "next_attempt_at"], unique=False
        )
    # Mails left waiting or failed before this revision were never retried: the delivery
    # job (realtime/mail/delivery.py) takes them from now on.
    op.execute(
        "UPDATE mail_outbox SET next_attempt_at = sent_at WHERE delivery IN ('queued', 'failed')"
    )


def downgrade() -> None:
    with op.batch_alter_table("mail_outbox", schema=None) as batch_op:
        batch_op.drop_index("ix_mail_outbox_delivery_due")
        batch_op.drop_column("last_error")
        batch_op.drop_column("claimed_until")
        batch_op.drop_column("next_attempt_at")
