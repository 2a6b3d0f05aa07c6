"""clinic_identity_providers.enabled: a clinic_admin may turn the clinic's provider off

Turned off, the provider is kept as set (issuer, client id, sealed secret) but nobody signs
in through it, and the clinic's staff sign in by e-mail link again (realtime/oidc/config.py).
Rows set before this revision are on.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN (as 0015): no table copy on SQLite.
    op.add_column(
        "clinic_identity_providers",
        sa.Column("enabled", sa.Boolean(), nullable=False, server_default=sa.true()),
    )


def downgrade() -> None:
    with op.batch_alter_table("clinic_identity_providers") as batch:
        batch.drop_column("enabled")
