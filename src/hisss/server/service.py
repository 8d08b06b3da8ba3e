"""The game service: creating and joining games, checking and storing steps, bots, presence.

Every change to a game goes through :class:`GameService` and follows one path, under the game's
own lock (there is no lock across games): load the live game (from the cache, or rebuilt from the
database), plan the step (which checks it and changes nothing), store it
(:meth:`hisss.storage.Store.append` commits before it returns), and only then apply it to the
live game and publish the new state through the hub. Memory never runs ahead of the database:
while a step is being stored nobody sees it, and if storing fails the cached game is thrown away
and rebuilt from the log. A failure can hide a success (the commit went through, its answer was
lost), so a failed step still kicks the game's driver, which announces the rebuilt state.

Bots move on the server: after every step, :meth:`GameService.kick` makes sure the game has a
*driver* task, which drives the bots' turn loop (:class:`hisss.bots.turns.BotTurns`, as
:meth:`LiveGame.server_step <hisss.server.game.LiveGame.server_step>`): it takes the server's own
steps (the starter at once; each draw and placement of a bot seat with a delay, thought on a
worker thread) until a person is to act or the game ends. A bot's choice draws on the game's seed
and the turn, so a game rebuilt after a restart makes the same; on start the service kicks every
running game, so bot turns pending at a crash resume by themselves.

Several processes can serve the same database (with a hub shared through Redis, see
:mod:`hisss.server.redis_hub`). Each keeps its own cached copies, which may fall behind: the
database refuses any step or seat change planned on an out-of-date copy
(:class:`~hisss.storage.SequenceConflictError`), and the copy then catches up from the log
(:meth:`GameService.refresh`), delivering every state it missed, in order, to its local clients.
News from another process triggers the same catching up, from the steps the news carries when
they follow the cached copy (no read of the database).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from typing import Any

from hisss.bots import LEVEL_NAMES, make_level
from hisss.bots.expert import answers_quickly
from hisss.bots.turns import Turn, next_decision
from hisss.core import Action, HisssError
from hisss.record import GameRecord, SeatKind
from hisss.server import logs, setup
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.game import LiveGame, LogError
from hisss.server.hub import Hub, Step, following
from hisss.server.lobby import is_listed, listing
from hisss.server.metrics import Metrics
from hisss.server.protocol import Message
from hisss.server.quotas import Quotas, think_at_pace
from hisss.server.settings import Settings
from hisss.server.setup import CreatedGame, GameSpec, clean_name, new_token, token_hash
from hisss.storage import (
    EntryKind,
    GameStatus,
    LogEntry,
    NewGame,
    SeatChange,
    SeatTakenError,
    SequenceConflictError,
    StorageError,
    Store,
    StoredGame,
)

log = logging.getLogger("hisss.server")

#: Seconds before a bot driver stopped by a database failure tries again.
RETRY = 5.0


def _check_person(live: LiveGame, seat: int) -> None:
    if live.seats[seat].kind is not SeatKind.PERSON:
        raise ProtocolError(
            ErrorCode.SEAT_IS_BOT, "a bot plays your seat now: send take_seat to play it again"
        )


class GameService:
    """See the module docstring."""

    def __init__(
        self, store: Store, hub: Hub, settings: Settings, metrics: Metrics | None = None
    ) -> None:
        self.store = store
        self.hub = hub
        self.settings = settings
        self.metrics = metrics if metrics is not None else Metrics()
        self.metrics.watch(store, hub, self)
        self._live: OrderedDict[str, LiveGame] = OrderedDict()
        self._locks: weakref.WeakValueDictionary[str, asyncio.Lock] = weakref.WeakValueDictionary()
        self._drivers: dict[str, asyncio.Task[None]] = {}
        self._stopping = False
        hub.attach(self._news)
        self.quotas = Quotas(settings)  # connections, spectators, hints

    # ------------------------------------------------------------------ life

    async def start(self) -> None:
        """Resume the games that were running: their drivers take any pending bot steps."""
        for game_id in await self.store.game_ids(GameStatus.RUNNING):
            self.kick(game_id)

    async def stop(self) -> None:
        """Stop every driver (the games stay stored as they are)."""
        self._stopping = True
        tasks = list(self._drivers.values())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._drivers.clear()

    @property
    def bots_playing(self) -> int:
        """The games in which the server takes steps of its own now (``GET /healthz``)."""
        return len(self._drivers)

    # ------------------------------------------------------------------ loading

    def _lock(self, game_id: str) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _load(self, game_id: str) -> LiveGame:
        live = self._live.get(game_id)
        if live is not None:
            self._live.move_to_end(game_id)
            return live
        stored = await self.store.get_game(game_id)
        if stored is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {game_id!r}")
        return await self._rebuild(stored)

    async def _rebuild(self, stored: StoredGame) -> LiveGame:
        entries = await self.store.actions(stored.id)
        # Entries past the game's version were stored after the game row was read.
        live = LiveGame(stored, [e for e in entries if e.seq <= stored.version])
        self._live[stored.id] = live
        self._trim()
        return live

    def _trim(self) -> None:
        while len(self._live) > self.settings.cache_size:
            for game_id in self._live:
                lock = self._locks.get(game_id)
                if lock is None or not lock.locked():
                    del self._live[game_id]
                    break
            else:
                return

    async def _news(self, game_id: str, what: str, steps: list[Step]) -> None:
        """The hub heard from another process that ``game_id`` changed (``steps``: see
        :meth:`refresh`)."""
        if what == "presence":
            live = self._live.get(game_id)
            if live is not None:
                self.hub.deliver(game_id, self.view(live))
            return
        await self.refresh(game_id, steps)

    async def refresh(self, game_id: str, steps: Sequence[Step] = ()) -> None:
        """Bring the cached game up to date (another process changed it), delivering each state
        it missed to this process's subscribers; then kick its driver. The ``steps`` that news
        carried spare reading the database when they follow the cached copy without a gap."""
        async with self._lock(game_id):
            live = self._live.get(game_id)
            if live is None:
                if not self.hub.subscribers(game_id):
                    return
                live = await self._load(game_id)
                self.hub.deliver(game_id, self.view(live))
            else:
                await self._catch_up(live, following(live.version, steps))
        self.kick(game_id)

    async def _catch_up(self, live: LiveGame, entries: list[LogEntry] | None = None) -> LiveGame:
        """Apply ``entries`` (the steps after ``live``'s version, when news carried them), else
        the log entries stored after it, delivering each new state locally; rebuild the game when
        a change is not in the log (a seat taken). Call with the game's lock held; returns the
        up-to-date game."""
        stored = None
        if entries is None:
            stored = await self.store.get_game(live.id)
            if stored is None:
                self.evict(live.id)
                raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {live.id!r}")
            entries = []
            if stored.version > live.version:
                logged = await self.store.actions(live.id, after=live.version)
                entries = [entry for entry in logged if entry.seq <= stored.version]
        try:
            for entry in entries:
                live.apply(entry)
                self.hub.deliver(live.id, self.view(live))
        except (LogError, ProtocolError, HisssError):
            self.evict(live.id)
            live = await self._load(live.id)
            self.hub.deliver(live.id, self.view(live))
            return live
        if stored is not None and (live.version != stored.version or not live.has_seats_of(stored)):
            live = await self._rebuild(stored)
            self.hub.deliver(live.id, self.view(live))
        return live

    def evict(self, game_id: str) -> None:
        """Forget the cached live game; it is rebuilt from the database when next needed."""
        self._live.pop(game_id, None)

    async def find(self, key: object) -> LiveGame:
        """The live game with id or code ``key``; raises ``unknown_game``."""
        if not isinstance(key, str) or not 0 < len(key) <= 64:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, "a game id or code is short text")
        live = self._live.get(key)
        if live is not None:
            return live
        stored = await self.store.get_game(key)
        if stored is None:
            raise ProtocolError(ErrorCode.UNKNOWN_GAME, f"there is no game {key!r}")
        live = self._live.get(stored.id)  # ``key`` was the code of a cached game
        if live is not None:
            return live
        async with self._lock(stored.id):
            return await self._load(stored.id)

    # ------------------------------------------------------------------ views

    def view(self, live: LiveGame) -> Message:
        """The ``state`` message of a game, with presence."""
        return live.view(self.hub.presence(live.id, live.players))

    def summary(self, live: LiveGame) -> dict[str, Any]:
        """A game's summary, with presence."""
        return live.summary(self.hub.presence(live.id, live.players))

    async def list_games(self, status: GameStatus, limit: int) -> list[dict[str, Any]]:
        """The lobby's list of public games of ``status``, the most recently changed first
        (see :mod:`hisss.server.lobby`)."""
        games = await self.store.list_games(status, limit, public=True)
        now = datetime.now(UTC)
        out = []
        for game in games:
            presence = self.hub.presence(game.id, game.players)
            if is_listed(game, presence, now, self.settings.idle_seconds):
                out.append(listing(game, presence))
        return out

    async def publish(self, live: LiveGame, entry: LogEntry | None = None) -> None:
        """Send the game's current state to everyone following it; ``entry`` is the stored step
        that made it, which the news to other processes carries."""
        await self.hub.publish(live.id, self.view(live), None if entry is None else entry.values())

    # ------------------------------------------------------------------ creating and joining

    async def create_game(self, spec: GameSpec) -> CreatedGame:
        """Store a new game; each reserved person seat gets a token (on one device, one for all)."""
        shared = new_token() if spec.device else None
        tokens = {
            i: shared or new_token()
            for i, seat in enumerate(spec.seats)
            if seat.kind is SeatKind.PERSON and not seat.open
        }
        return await self._create(spec, {i: token_hash(t) for i, t in tokens.items()}, tokens)

    async def _create(
        self, spec: GameSpec, hashes: dict[int, str], tokens: dict[int, str]
    ) -> CreatedGame:
        any_open = any(s.open for s in spec.seats)
        stored = await self.store.create_game(
            NewGame(
                rules=spec.rules.to_mapping(),
                deck=spec.deck.to_mapping(),
                seed=secrets.randbits(63),
                seats=spec.seats,
                status=GameStatus.OPEN if any_open else GameStatus.RUNNING,
                title=spec.title,
                token_hashes=hashes,
                public=spec.public,
                pace=spec.pace,
            )
        )
        log.info("game %s (%s) created with %d seats", stored.id, stored.code, stored.players)
        self._live[stored.id] = LiveGame(stored, [])  # cached: nobody reads it back at once
        self._trim()
        if stored.status is GameStatus.RUNNING:
            self.kick(stored.id)
        return CreatedGame(stored, tokens)

    async def join(
        self, key: object, name: object, seat: int | None = None
    ) -> tuple[LiveGame, int, str]:
        """Take an open person seat (the first one unless ``seat``, from 0, is given).

        Returns the game, the seat and its new token. Raises ``no_open_seat`` or ``seat_taken``.
        """
        live = await self.find(key)
        game_id = live.id
        async with self._lock(game_id):
            live = await self._load(game_id)
            open_seats = [i for i, s in enumerate(live.seats) if s.open]
            if seat is None:
                if not open_seats:
                    raise ProtocolError(ErrorCode.NO_OPEN_SEAT, "every seat of this game is taken")
                seat = open_seats[0]
            elif not 0 <= seat < live.players or seat not in open_seats:
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN, f"seat {seat + 1} is not open for joining"
                )
            player = clean_name(name, f"Player {seat + 1}")
            token = new_token()
            try:
                stored = await self.store.claim_seat(game_id, seat, player, token_hash(token))
            except SeatTakenError:
                self.evict(game_id)
                raise ProtocolError(
                    ErrorCode.SEAT_TAKEN, f"seat {seat + 1} was just taken by someone else"
                ) from None
            live = await self._rebuild(stored)
            log.info("game %s: seat %d joined", game_id, seat + 1)
            if live.status is GameStatus.RUNNING:
                self.kick(game_id)  # before publishing, which may fail: the seat is taken
            await self.publish(live)
        return live, seat, token

    def authenticate(self, live: LiveGame, token: object) -> tuple[int, ...]:
        """The seats (from 0) whose token ``token`` is (:func:`~hisss.server.setup.token_seats`)."""
        return setup.token_seats(live.token_hashes, token)

    # ------------------------------------------------------------------ steps

    async def draw(self, game_id: str, seat: int, version: int) -> LiveGame:
        """The person of ``seat`` draws the next card."""

        def plan(live: LiveGame) -> LogEntry:
            _check_person(live, seat)
            return live.plan_draw(seat)

        return await self._step(game_id, version, plan)

    async def play(self, game_id: str, seat: int, version: int, action: object) -> LiveGame:
        """The person of ``seat`` places the drawn card as ``action`` (notation)."""

        def plan(live: LiveGame) -> LogEntry:
            _check_person(live, seat)
            return live.plan_play(seat, action)

        return await self._step(game_id, version, plan)

    async def hand_over(
        self, game_id: str, by: int, seat: int, level: object, version: int | None = None
    ) -> LiveGame:
        """Seat ``by`` hands the away person seat ``seat`` to a bot of ``level`` (a negative
        ``version`` or ``None``: not checked)."""
        if not isinstance(level, str) or level.strip().lower() not in LEVEL_NAMES:
            raise ProtocolError(
                ErrorCode.BAD_LEVEL, f"unknown level {level!r} (levels: {', '.join(LEVEL_NAMES)})"
            )
        chosen = level.strip().lower()

        def plan(live: LiveGame) -> LogEntry:
            if not 0 <= seat < live.players:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"there is no seat {seat + 1}")
            if seat == by:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "you cannot hand your own seat to a bot")
            _check_person(live, by)
            entry = live.plan_hand_over(seat, chosen, by)
            here = self.hub.presence(live.id, live.players)[seat]
            limit = self.settings.away_seconds if here.arrived else self.settings.unseen_seconds
            if here.connected or (here.away_seconds or 0.0) < limit:
                raise ProtocolError(
                    ErrorCode.SEAT_NOT_AWAY,
                    f"seat {seat + 1} can be handed to a bot after {limit:g} s away "
                    + ("(it is connected)" if here.connected else f"({here.away_seconds:g} s)"),
                )
            return entry

        return await self._step(game_id, version, plan)

    async def rematch(self, game_id: str, seats: tuple[int, ...]) -> LiveGame:
        """The holder of ``seats`` (a device's all) asks for a rematch; once every person seat
        has, it is made (the same people, tokens and bots, each moved one seat round, and a new
        deal) and the state names its code."""
        for _seat in seats:
            live = await self._step(game_id, None, lambda live: live.plan_rematch(seats))
            if set(seats) <= live.rematch_votes:
                break
        async with self._lock(game_id):
            live = await self._load(game_id)
            if not live.rematch_agreed():
                return live
            seating = setup.rematch_seating(live.seats, live.token_hashes)
            spec = GameSpec(live.rules, live.deck, seating, live.title, live.public, live.pace)
            tokens = setup.rematch_tokens(live.token_hashes, len(live.seats))
            created = await self._create(spec, tokens, {})
            await self._commit(live, live.plan_rematch_made(created.game.code))
            log.info("game %s: rematch %s", game_id, created.game.code)
        return live

    async def hint(self, game_id: str, seat: int, address: str = "?") -> tuple[Action, bool]:
        """The expert's placement of ``seat``'s card, and whether it is careful's quick one."""
        self.quotas.check_hint(game_id, seat, address)
        live = await self._load(game_id)
        position = live.hint_position(seat)
        quick = answers_quickly(position)
        expert, seed = make_level("expert"), live.game.seed
        async with self.quotas.thinking:
            return await asyncio.to_thread(next_decision, expert, position, seed), quick

    async def take_back(self, game_id: str, seat: int) -> LiveGame:
        """The holder of ``seat`` takes it back from the bot that played it."""
        return await self._step(game_id, None, lambda live: live.plan_take_back(seat))

    async def _step(
        self, game_id: str, version: int | None, plan: Callable[[LiveGame], LogEntry]
    ) -> LiveGame:
        began = time.perf_counter()
        try:
            async with self._lock(game_id):
                live = await self._load(game_id)
                if version is not None and version >= 0 and version != live.version:
                    raise ProtocolError(
                        ErrorCode.STALE_VERSION,
                        f"your action was based on version {version}, the game is at "
                        f"{live.version}: here is the fresh state",
                        resync=True,
                    )
                await self._commit(live, plan(live))
        except ProtocolError:
            raise  # a refusal: nothing changed
        except BaseException:
            # The database may have stored the step all the same (its answer lost with the
            # connection), and a bot may be due now.
            self.kick(game_id)
            raise
        if live.server_step() is not None or self._live.get(game_id) is not live:
            self.kick(game_id)  # a bot's turn, or the game dropped: else no driver is needed
        self.metrics.step_seconds.observe(time.perf_counter() - began)
        return live

    async def _commit(self, live: LiveGame, entry: LogEntry) -> None:
        """Store ``entry``, then apply it to the live game and publish; see the module docstring.

        The live game changes only once the entry is committed: whoever looks at it meanwhile (a
        new connection, a lobby request) sees the last stored version, never a step the
        database may still refuse.
        """
        status, result = live.outcome(entry)
        change = None
        if entry.kind is EntryKind.BOT and entry.seat is not None:
            change = SeatChange(entry.seat, SeatKind.BOT, entry.action, live.seats[entry.seat].open)
        elif entry.kind is EntryKind.PERSON and entry.seat is not None:
            change = SeatChange(entry.seat, SeatKind.PERSON, None)
        began = time.perf_counter()
        try:
            await self.store.append(
                live.id,
                entry,
                status=status if status is not live.status else None,
                result=result,
                seat_change=change,
            )
        except SequenceConflictError:
            # Another process (or a lost answer) stored something first: catch up, so this
            # process's clients see every state that was stored meanwhile.
            try:
                await self._catch_up(live)
            except Exception:
                self.evict(live.id)
                raise
            raise ProtocolError(
                ErrorCode.CONFLICT,
                "another action was stored first: here is the fresh state",
                resync=True,
            ) from None
        except BaseException:
            self.evict(live.id)
            raise
        self.metrics.stored(entry.kind, time.perf_counter() - began)
        try:
            live.apply(entry)
        except BaseException:
            self.evict(live.id)  # the log has the entry: a rebuild replays it
            raise
        if status is GameStatus.FINISHED:
            log.info("game %s finished after %d steps", live.id, live.version)
        await self.publish(live, entry)

    # ------------------------------------------------------------------ bots

    def kick(self, game_id: str) -> None:
        """Make sure the game's driver runs if the server has steps of its own to take."""
        if self._stopping or game_id in self._drivers:
            return
        self._drivers[game_id] = asyncio.get_running_loop().create_task(
            self._drive(game_id), name=f"hisss-driver-{game_id}"
        )

    async def _drive(self, game_id: str) -> None:
        """The game's driver task: :meth:`_bot_steps`, tried again after a failure that may pass."""
        logs.game_id.set(game_id)  # its log lines name the game, not the request that kicked it
        logs.request_id.set(None)
        me = asyncio.current_task()
        try:
            await self._bot_steps(game_id, me)
        except StorageError as exc:  # a cancelled driver (no Exception) stops at once
            log.error("game %s: the database failed: %s; retrying in %g s", game_id, exc, RETRY)
            self._retry(game_id)
        except (HisssError, ProtocolError) as exc:
            # A game the rules cannot go on with: retrying would fail the same way.
            log.error("game %s: the bot driver stopped: %s", game_id, exc)
        except Exception:
            # Most likely the database, for a moment (a lost connection): try again later.
            log.exception("game %s: the bot driver failed; retrying in %g s", game_id, RETRY)
            self._retry(game_id)
        finally:
            if self._drivers.get(game_id) is me:
                del self._drivers[game_id]

    async def _bot_steps(self, game_id: str, me: asyncio.Task[Any] | None) -> None:
        """Drive the game's bots' turn loop until it ends, when ``me`` leaves under the lock."""
        announce = True
        while True:
            async with self._lock(game_id):
                rebuilt = game_id not in self._live
                live = await self._load(game_id)
                if rebuilt and announce:
                    # The cache was dropped after a failure: the log may hold a step nobody has
                    # heard of (stored, but its answer lost).
                    await self.publish(live)
                announce = False
                step = live.server_step()
                if step is None:
                    if self._drivers.get(game_id) is me:
                        del self._drivers[game_id]
                    return
                if step.seat is None:  # a card the game draws itself: at once
                    await self._commit_unless_taken(live, live.plan_starter())
                    continue
                version, delay = live.version, self.settings.step_delay(live.pace)
                thinking = live.state.copy() if isinstance(step, Turn) else None
            choice = await think_at_pace(step, thinking, delay)
            await self._bot_step(game_id, version, step.seat, choice)

    async def _bot_step(self, game_id: str, version: int, seat: int, choice: Action | None) -> None:
        """Store a bot seat's draw (no ``choice``) or placement planned at ``version``, if due."""
        async with self._lock(game_id):
            live = await self._load(game_id)
            if live.version != version:
                return  # the game moved on meanwhile (a seat was taken back)
            entry = live.plan_draw(seat) if choice is None else live.plan_bot_play(seat, choice)
            if await self._commit_unless_taken(live, entry) and choice is not None:
                self.metrics.bot_moves.labels(live.seats[seat].level or "medium").inc()

    async def _commit_unless_taken(self, live: LiveGame, entry: LogEntry) -> bool:
        """Commit a step of the driver's; False when another process stored that step first."""
        try:
            await self._commit(live, entry)
        except ProtocolError as exc:
            if exc.code is not ErrorCode.CONFLICT:
                raise
            return False
        return True

    def _retry(self, game_id: str) -> None:
        self.evict(game_id)
        if not self._stopping:
            asyncio.get_running_loop().call_later(RETRY, self.kick, game_id)

    # ------------------------------------------------------------------ presence

    async def seats_connected(self, live: LiveGame, seats: tuple[int, ...]) -> None:
        """A session now holds ``seats``: tell the others."""
        for seat in seats:
            self.hub.connected(live.id, seat)
        # The newest copy: ``live`` may have been rebuilt since the session looked it up.
        await self.publish(self._live.get(live.id, live))

    async def seat_disconnected(self, game_id: str, seat: int) -> None:
        """A session holding ``seat`` ended: tell the others."""
        self.hub.disconnected(game_id, seat)
        live = self._live.get(game_id)
        if live is not None:
            await self.publish(live)

    async def record(self, key: str, partial: bool = False, seat: int | None = None) -> GameRecord:
        """A finished game's record (``partial``: so far; :meth:`LiveGame.record` for ``seat``)."""
        live = await self.find(key)
        if live.status is GameStatus.OPEN:
            raise ProtocolError(ErrorCode.NOT_STARTED, "the game is waiting for players to join")
        if live.status is not GameStatus.FINISHED and not partial:
            raise ProtocolError(
                ErrorCode.NOT_FINISHED, "the game is not over: its record is available at the end"
            )
        return live.record(seat)
