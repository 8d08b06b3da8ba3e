"""Schema 4: room for names and titles counted in letters as people see them (graphemes), where
one letter can take several code points (an emoji sequence, an accent written apart): seat names
up to 400 code points, titles up to 800. The server refuses what is too long long before that.

PostgreSQL checks a column's length; SQLite never does, and altering a column there means copying
its table (with every game's log) while foreign keys are switched off, so on SQLite this revision
changes nothing but the schema version.

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        return
    op.alter_column("seats", "name", type_=sa.String(400), existing_type=sa.String(40))
    op.alter_column("games", "title", type_=sa.String(800), existing_type=sa.String(80))
