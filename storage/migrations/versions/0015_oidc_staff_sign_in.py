"""staff sign-in through a clinic's OpenID Connect provider: the providers clinic_admins set,
sign-ins under way, sessions checked at the provider, and a member's subject there

Revision ID: 0015
Revises: 0014
Create Date: 2026-11-28
"""

from collections.abc import Sequence

import sqlalchemy as sa
import sqlmodel
from alembic import op

import storage.types

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    # Plain ADD COLUMN: SQLite's batch mode would copy and drop a table others reference.
    op.add_column(
        "staff_members", sa.Column("oidc_issuer", sqlmodel.AutoString(length=500), nullable=True)
    )
    op.add_column(
        "staff_members", sa.Column("oidc_subject", sqlmodel.AutoString(length=255), nullable=True)
    )
    op.create_index(
        "ix_staff_members_oidc_subject",
        "staff_members",
        ["oidc_issuer", "oidc_subject"],
        unique=True,
    )
    op.create_table(
        "clinic_identity_providers",
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("name", sqlmodel.AutoString(length=80), nullable=False),
        sa.Column("issuer", sqlmodel.AutoString(length=500), nullable=False),
        sa.Column("client_id", sqlmodel.AutoString(length=255), nullable=False),
        sa.Column("client_secret_sealed", sqlmodel.AutoString(length=1000), nullable=True),
        sa.Column("mfa_acr", storage.types.JSONDocument, nullable=False),
        sa.Column("updated", storage.types.UTCDateTime(), nullable=False),
        sa.Column("updated_by", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["clinic_id"], ["clinics.id"]),
        sa.PrimaryKeyConstraint("clinic_id"),
    )
    op.create_table(
        "oidc_logins",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("state_hash", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("browser_hash", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("nonce", sqlmodel.AutoString(length=128), nullable=False),
        sa.Column("code_verifier", sqlmodel.AutoString(length=128), nullable=False),
        sa.Column("next_path", sqlmodel.AutoString(length=500), nullable=True),
        sa.Column("created", storage.types.UTCDateTime(), nullable=False),
        sa.Column("expires_at", storage.types.UTCDateTime(), nullable=False),
        sa.Column("used_at", storage.types.UTCDateTime(), nullable=True),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("state_hash"),
    )
    op.create_index("ix_oidc_logins_expires_at", "oidc_logins", ["expires_at"])
    op.create_table(
        "oidc_sessions",
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("clinic_id", sqlmodel.AutoString(length=64), nullable=False),
        sa.Column("issuer", sqlmodel.AutoString(length=500), nullable=False),
        sa.Column("subject", sqlmodel.AutoString(length=255), nullable=False),
        sa.Column("refresh_token_sealed", sqlmodel.AutoString(length=8000), nullable=True),
        sa.Column("expires_at", storage.types.UTCDateTime(), nullable=False),
        sa.Column("next_check_at", storage.types.UTCDateTime(), nullable=False),
        sa.Column("checked_at", storage.types.UTCDateTime(), nullable=True),
        sa.ForeignKeyConstraint(["session_id"], ["auth_sessions.id"]),
        sa.PrimaryKeyConstraint("session_id"),
    )
    op.create_index("ix_oidc_sessions_next_check_at", "oidc_sessions", ["next_check_at"])


def downgrade() -> None:
    op.drop_table("oidc_sessions")
    op.drop_table("oidc_logins")
    op.drop_table("clinic_identity_providers")
    op.drop_index("ix_staff_members_oidc_subject", table_name="staff_members")
    with op.batch_alter_table("staff_members") as batch:
        batch.drop_column("oidc_subject")
        batch.drop_column("oidc_issuer")
