"""Schema 1: games, their seats, their append-only logs, uploaded records and the meta table.

Written out as it was, not read from the models, so that it stays schema 1 whatever the models
become.

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "meta",
        sa.Column("key", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("code", sa.String(12), nullable=False, unique=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("rules", sa.JSON(), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("title", sa.String(80), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("result", sa.JSON(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    )
    op.create_index("ix_games_status", "games", ["status"])
    op.create_index("ix_games_updated_at", "games", ["updated_at"])
    op.create_table(
        "seats",
        sa.Column(
            "game_id",
            sa.String(32),
            sa.ForeignKey("games.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("name", sa.String(40), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("open", sa.Boolean(), nullable=False),
        sa.Column("token_hash", sa.String(64), nullable=True),
    )
    op.create_table(
        "actions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "game_id", sa.String(32), sa.ForeignKey("games.id", ondelete="CASCADE"), nullable=False
        ),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(12), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("action", sa.String(64), nullable=True),
        sa.Column("card", sa.String(32), nullable=True),
        sa.Column("by_seat", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),
    )
    op.create_index("ix_actions_game_id", "actions", ["game_id"])
    op.create_table(
        "replays",
        sa.Column("id", sa.String(32), primary_key=True),
        sa.Column("record", sa.Text(), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("turns", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    )
