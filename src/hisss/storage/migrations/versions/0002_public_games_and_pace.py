"""Schema 2: whether the lobby lists a game, and its bots' pace. The games of schema 1 were all
listed, and stay so.

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "games", sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.true())
    )
    op.add_column("games", sa.Column("pace", sa.String(8), nullable=False, server_default="normal"))
