"""Schema 3: the log's index on the game alone goes; the unique (game, seq) index, game first,
serves every look-up by game, and the second index was one more page written with every step.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.execute("DROP INDEX IF EXISTS ix_actions_game_id")
