"""The database tables, as SQLAlchemy 2 declarative models.

* ``meta``: key/value rows; ``schema_version`` says which layout the database has.
* ``games``: one row per game: its public short code, status, rules and deck (as the record format
  writes them), the secret seed of its shuffle, a title, the version (the length of its log), the
  result once finished, whether the lobby lists it (``public``) and the pace of its bots.
* ``seats``: one row per seat of a game: person or bot (with its level), the name shown, whether it
  is still open for someone to join, and the SHA-256 of the seat's secret token (never the token).
* ``actions``: the append-only log of a game, numbered from 1; ``(game_id, seq)`` is unique, so the
  same step can never be stored twice. ``kind`` is an :class:`~hisss.storage.EntryKind`;
  ``action`` holds a placement in the project's notation (``3R:orange``) or a bot level, ``card``
  the card drawn or placed.
* ``replays``: uploaded game records, kept as their JSON text.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    """The declarative base of the tables of this module."""


class MetaRow(Base):
    """A key/value fact about the database itself."""

    __tablename__ = "meta"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(256))


class GameRow(Base):
    """A game."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    code: Mapped[str] = mapped_column(String(12), unique=True)
    status: Mapped[str] = mapped_column(String(16), index=True)
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    deck: Mapped[dict[str, Any]] = mapped_column(JSON)
    seed: Mapped[int] = mapped_column(BigInteger)
    players: Mapped[int] = mapped_column(Integer)
    title: Mapped[str] = mapped_column(String(800), default="")
    version: Mapped[int] = mapped_column(Integer, default=0)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    pace: Mapped[str] = mapped_column(String(8), default="normal")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)


class SeatRow(Base):
    """A seat of a game (``seat`` counts from 0)."""

    __tablename__ = "seats"

    game_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True
    )
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(8))
    name: Mapped[str] = mapped_column(String(400))
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    open: Mapped[bool] = mapped_column(Boolean, default=False)
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class ActionRow(Base):
    """One entry of a game's append-only log."""

    __tablename__ = "actions"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="uq_actions_game_seq"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    # No index of its own: the unique (game_id, seq) index serves every look-up by game (its
    # first column), and a second index was one more page written with every step.
    game_id: Mapped[str] = mapped_column(String(32), ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(12))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    action: Mapped[str | None] = mapped_column(String(64), nullable=True)
    card: Mapped[str | None] = mapped_column(String(32), nullable=True)
    by_seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class ReplayRow(Base):
    """An uploaded game record."""

    __tablename__ = "replays"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    record: Mapped[str] = mapped_column(Text)
    players: Mapped[int] = mapped_column(Integer)
    turns: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
