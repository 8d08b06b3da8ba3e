"""The game service on SQLite and PostgreSQL: whole games against bots, the log as the truth,
stale and double steps, restarts, two servers on one database, away players, many games."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest

from hisss.bots import Bot, make_level
from hisss.bots.turns import End, Turn, next_decision
from hisss.core import RAINBOW, Action, Rules, State
from hisss.record import GameRecord, Phase, Seat, SeatKind, replay, replay_game
from hisss.server import GameService, LiveGame, LocalHub, ProtocolError, Settings
from hisss.server import service as service_module
from hisss.server.setup import GameSpec, build_spec
from hisss.sim.play import play_game
from hisss.storage import EntryKind, GameStatus, StorageError, Store
from hisss.tui.match import Match
from support.tui import bot_choice
from support.waiting import wait_until_async
from support.web import settled


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@asynccontextmanager
async def running(
    database: str, clock: Callable[[], float] = time.monotonic, **options: Any
) -> AsyncIterator[GameService]:
    settings = Settings(database=database, **{"bot_delay": 0.0, **options})
    store = await Store.open(database)
    service = GameService(store, LocalHub(clock), settings)
    await service.start()
    try:
        yield service
    finally:
        await service.stop()
        await store.close()


def spec(*seats: Seat, rules: str = "classic", deck: str = "rainbow") -> GameSpec:
    return build_spec(rules, {}, deck, seats)


PERSON = Seat.person("Ala")


async def version_at_least(service: GameService, game_id: str, version: int) -> LiveGame | None:
    """The live game once it has reached ``version``, else None."""
    live = await service.find(game_id)
    return live if live.version >= version else None


async def my_turn(service: GameService, game_id: str, seat: int) -> str:
    """Wait for the bots; the phase when ``seat`` is to act or the game is over."""
    await settled(service)
    live = await service.find(game_id)
    assert live.phase == "over" or live.to_move == seat, live.view()
    return live.phase


async def play_to_the_end(service: GameService, game_id: str, seat: int, rng: random.Random) -> int:
    steps = 0
    while (phase := await my_turn(service, game_id, seat)) != "over":
        live = await service.find(game_id)
        if phase == "draw":
            await service.draw(game_id, seat, live.version)
        else:
            await service.play(
                game_id, seat, live.version, str(rng.choice(live.state.legal_actions()))
            )
        steps += 1
    return steps


async def test_a_game_against_bots_is_played_and_stored(database: str) -> None:
    async with running(database) as service:
        created = await service.create_game(
            build_spec(
                "classic",
                {},
                "rainbow",
                [PERSON, Seat.bot("", "hard"), Seat.bot("", "easy")],
            )
        )
        game_id = created.game.id
        assert set(created.tokens) == {0}
        steps = await play_to_the_end(service, game_id, 0, random.Random(3))
        assert steps > 10
        live = await service.find(game_id)
        final_view = service.view(live)
        record = live.record()
        stored = await service.store.get_game(game_id)
        assert stored is not None and stored.status is GameStatus.FINISHED
        assert stored.result == live.result()
        entries = await service.store.actions(game_id)
        assert len(entries) == live.version == stored.version
        assert [e.seq for e in entries] == list(range(1, live.version + 1))
        assert {e.kind for e in entries} == {"starter", "draw", "play"}
        assert sum(e.kind == "play" for e in entries) == 49
    # The record replays, and the game rebuilt from the log is the same game.
    assert record.seed is not None
    final = replay(GameRecord.from_json(record.to_json()))
    assert final.is_terminal()
    async with running(database) as again:
        rebuilt = await again.find(game_id)
        assert again.view(rebuilt)["table"] == final_view["table"]
        assert rebuilt.view()["pits"] == final_view["pits"]
        assert rebuilt.result() == final_view["result"]


async def test_the_cache_can_be_dropped_at_any_moment(database: str) -> None:
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.bot("", "medium")))
        game_id = created.game.id
        rng = random.Random(5)
        for _ in range(12):
            phase = await my_turn(service, game_id, 0)
            live = await service.find(game_id)
            before = live.view()
            service.evict(game_id)
            rebuilt = await service.find(game_id)
            assert rebuilt is not live and rebuilt.view() == before
            if phase == "draw":
                await service.draw(game_id, 0, rebuilt.version)
            else:
                await service.play(
                    game_id, 0, rebuilt.version, str(rng.choice(rebuilt.state.legal_actions()))
                )


async def test_stale_repeated_and_refused_steps_change_nothing(database: str) -> None:
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        live = await service.find(game_id)
        version = live.version
        await service.draw(game_id, 0, version)
        cases = [
            (service.draw(game_id, 0, version), "stale_version"),  # the same message twice
            (service.draw(game_id, 0, version + 1), "wrong_phase"),
            (service.draw(game_id, 1, version + 1), "not_your_turn"),
            (service.play(game_id, 1, version + 1, "new"), "not_your_turn"),
            (service.play(game_id, 0, version + 1, "9R"), "illegal_action"),
            (service.play(game_id, 0, version + 1, "left"), "bad_action"),
        ]
        for call, code in cases:
            with pytest.raises(ProtocolError) as info:
                await call
            assert info.value.code == code, info.value.message
        assert (await service.find(game_id)).version == version + 1
        assert len(await service.store.actions(game_id)) == version + 1


async def test_concurrent_double_submission_stores_one_step(database: str) -> None:
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        version = (await service.find(game_id)).version
        outcomes = await asyncio.gather(
            *(service.draw(game_id, 0, version) for _ in range(5)), return_exceptions=True
        )
        errors = [o for o in outcomes if isinstance(o, ProtocolError)]
        assert len(errors) == 4 and {e.code for e in errors} == {"stale_version"}
        assert len(await service.store.actions(game_id)) == version + 1


async def test_bot_turns_resume_after_a_restart(database: str) -> None:
    # A server whose bots are slow is stopped while a bot's turn is due ...
    async with running(database, bot_delay=60) as service:
        created = await service.create_game(
            spec(PERSON, Seat.bot("", "medium"), Seat.bot("", "easy"))
        )
        game_id = created.game.id
        live = await wait_until_async(  # the starter is stored in the background
            lambda: version_at_least(service, game_id, 1), what="the starter to be stored"
        )
        assert live.version == 1
        live = await service.draw(game_id, 0, 1)
        live = await service.play(game_id, 0, 2, str(live.state.legal_actions()[0]))
        assert live.to_move == 1
        stopped_at = live.version
    # ... and a new server on the same database lets the bots play on by themselves.
    async with running(database) as service:
        live = await my_turn_after_restart(service, game_id)
        assert live.version == stopped_at + 4 and live.to_move == 0
    assert_bots_chose_by_seed_and_turn(live)


def assert_bots_chose_by_seed_and_turn(live: LiveGame) -> None:
    """Every bot placement of ``live`` is the turn loop's decision for the game's seed and that
    turn, made again from the replayed position: it depends on the stored game alone."""
    record = live.game.record()
    bot_turns = 0
    for number, turn in enumerate(record.turns):
        seat = live.seats[turn.player]
        if not seat.is_bot:
            continue
        game = replay_game(record, turns=number)
        if game.phase is Phase.DRAW:
            game.draw()
        level = seat.level
        assert level is not None
        assert next_decision(make_level(level), game.state, live.game.seed) == turn.action
        bot_turns += 1
    assert bot_turns >= 2


class First(Bot):
    """Plays the first legal action: the person of seat 1, as a bot for simulation."""

    name = "first"

    def choose(self, state: State, rng: random.Random) -> Action:
        return state.legal_actions()[0]


async def test_the_server_the_terminal_and_simulation_play_one_bots_game_alike(
    database: str,
) -> None:
    # Three drivers of the one bots' turn loop: the server's (each step stored, the choice made
    # on a worker thread), the terminal's match and simulation's make the same moves for a seed,
    # the person of seat 1 playing the first legal action each time.
    levels = ("medium", "easy")
    async with running(database) as service:
        created = await service.create_game(
            spec(PERSON, *(Seat.bot("", level) for level in levels))
        )
        game_id = created.game.id
        while (phase := await my_turn(service, game_id, 0)) != "over":
            live = await service.find(game_id)
            if phase == "draw":
                await service.draw(game_id, 0, live.version)
            else:
                first = str(live.state.legal_actions()[0])
                await service.play(game_id, 0, live.version, first)
        live = await service.find(game_id)
    seed = live.game.seed
    assert seed is not None
    bots = [First(), *(make_level(level) for level in levels)]
    simulated = play_game(Rules(), RAINBOW, bots, random.Random(seed), seed=seed, record=True)
    assert simulated.record is not None
    seats = (PERSON, *(Seat.bot(f"bot:{level}", level) for level in levels))
    match = Match(seats, Rules(), RAINBOW, seed)
    while not match.is_over():
        step = match.next_step()
        if isinstance(step, Turn):
            match.place(bot_choice(match))
        else:  # a bot's draw, or the person's turn: draw, then the first legal action
            match.draw()
            if isinstance(step, End):
                match.place(match.game.state.legal_actions()[0])

    def moves(record: GameRecord) -> list[tuple[int, str, str]]:
        return [(turn.player, str(turn.card), str(turn.action)) for turn in record.turns]

    served = moves(live.game.record())
    assert len(served) > 40 and {seat for seat, _, _ in served} == {0, 1, 2}
    assert moves(simulated.record) == served == moves(match.record())


async def my_turn_after_restart(service: GameService, game_id: str) -> LiveGame:
    await settled(service)
    return await service.find(game_id)


async def test_two_servers_on_one_database_never_diverge(database: str) -> None:
    async with running(database) as one, running(database) as two:
        created = await one.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(one, game_id, 0)
        seen = (await two.find(game_id)).version  # the second server caches the game too
        await one.draw(game_id, 0, seen)
        with pytest.raises(ProtocolError) as info:
            await two.draw(game_id, 0, seen)  # its cache is behind: the database refuses
        assert info.value.code == "conflict" and info.value.resync
        fresh = await two.find(game_id)
        assert fresh.version == seen + 1 and fresh.phase == "place"
        assert len(await two.store.actions(game_id)) == seen + 1


async def test_an_away_seat_is_handed_to_a_bot_and_taken_back(database: str) -> None:
    clock = Clock()
    async with running(database, clock, away_seconds=60, unseen_seconds=60) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        service.hub.connected(game_id, 0)
        with pytest.raises(ProtocolError) as info:
            await service.hand_over(game_id, 0, 1, "hard")
        assert info.value.code == "seat_not_away"
        clock.now += 61
        for by, seat, level, code in [
            (0, 0, "hard", "bad_message"),  # one's own seat
            (0, 1, "genius", "bad_level"),
            (1, 0, "hard", "seat_not_away"),  # seat 1 is connected
        ]:
            with pytest.raises(ProtocolError) as info:
                await service.hand_over(game_id, by, seat, level)
            assert info.value.code == code
        live = await service.hand_over(game_id, 0, 1, "hard")
        assert live.seats[1].kind == "bot" and live.last_event == {
            "seq": live.version,
            "kind": "bot",
            "seat": 2,
            "level": "hard",
            "by": 1,
        }
        with pytest.raises(ProtocolError) as info:
            await service.hand_over(game_id, 0, 1, "easy")
        assert info.value.code == "not_a_person"
        # Seat 1 plays; the bot answers for seat 2.
        version = (await service.find(game_id)).version
        live = await service.draw(game_id, 0, version)
        await service.play(game_id, 0, version + 1, str(live.state.legal_actions()[0]))
        await my_turn(service, game_id, 0)
        assert (await service.find(game_id)).version == version + 4
        # The player comes back and takes the seat again.
        live = await service.take_back(game_id, 1)
        assert live.seats[1].kind == "person" and live.seats[1].level is None
        with pytest.raises(ProtocolError) as info:
            await service.take_back(game_id, 1)
        assert info.value.code == "not_a_person"
        stored = await service.store.get_game(game_id)
        assert stored is not None and stored.seats[1].kind == "person"
        assert [e.kind for e in await service.store.actions(game_id)].count(EntryKind.BOT) == 1


async def test_joining_open_seats(database: str) -> None:
    async with running(database) as service:
        created = await service.create_game(
            spec(PERSON, Seat.person("", open=True), Seat.person("", open=True))
        )
        game_id = created.game.id
        assert created.game.status is GameStatus.OPEN
        with pytest.raises(ProtocolError) as info:
            await service.draw(game_id, 0, 0)
        assert info.value.code == "not_started"
        results = await asyncio.gather(
            *(service.join(game_id, f"P{i}", 1) for i in range(3)), return_exceptions=True
        )
        assert sum(not isinstance(r, BaseException) for r in results) == 1
        assert {r.code for r in results if isinstance(r, ProtocolError)} == {"seat_taken"}
        live, seat, token = await service.join(created.game.code, "Olek")
        assert seat == 2 and service.authenticate(live, token) == (2,)
        with pytest.raises(ProtocolError) as info:
            await service.join(game_id, "Late")
        assert info.value.code == "no_open_seat"
        await settled(service)
        live = await service.find(game_id)
        assert live.status is GameStatus.RUNNING and live.phase == "draw" and live.version == 1


async def test_many_games_run_at_once(database: str) -> None:
    async with running(database) as service:
        games = [
            (await service.create_game(spec(PERSON, Seat.bot("", "medium")))).game.id
            for _ in range(6)
        ]
        started = time.perf_counter()
        steps = await asyncio.gather(
            *(play_to_the_end(service, g, 0, random.Random(i)) for i, g in enumerate(games))
        )
        elapsed = time.perf_counter() - started
        assert all(s > 0 for s in steps)
        for game_id in games:
            assert (await service.find(game_id)).status is GameStatus.FINISHED
        print(f"{len(games)} games, {sum(steps)} person steps in {elapsed:.2f} s")


@pytest.mark.parametrize(
    ("preset", "options", "deck", "seats", "code"),
    [
        ("chess", {}, "rainbow", [PERSON, PERSON], "bad_rules"),
        ("classic", {"scoring": "fastest"}, "rainbow", [PERSON, PERSON], "bad_rules"),
        ("classic", {"preset": "pl"}, "rainbow", [PERSON, PERSON], "bad_rules"),
        ("classic", {}, "tarot", [PERSON, PERSON], "bad_deck"),
        ("classic", {}, "rainbow", [PERSON], "bad_seats"),
        ("classic", {}, "rainbow", [PERSON] * 6, "bad_seats"),
        ("classic", {}, "rainbow", [Seat("", SeatKind.BOT), Seat("", SeatKind.BOT)], "bad_seats"),
        ("classic", {}, "rainbow", [PERSON, Seat.bot("", "god")], "bad_level"),
        ("classic", {}, "rainbow", [PERSON, Seat("", "dog")], "bad_seats"),  # type: ignore[arg-type]
        ("classic", {}, "rainbow", [PERSON, Seat.person("x" * 41)], "bad_seats"),
        ("classic", {}, "rainbow", [PERSON, Seat.person("a\x00b")], "bad_seats"),
        ("classic", {}, "rainbow", [PERSON, Seat("", SeatKind.BOT, None, True)], "bad_seats"),
        ("classic", {}, "rainbow", [PERSON, Seat("", SeatKind.PERSON, "easy")], "bad_seats"),
    ],
)
def test_bad_game_setups_are_refused(
    preset: str, options: dict[str, object], deck: str, seats: list[Seat], code: str
) -> None:
    with pytest.raises(ProtocolError) as info:
        build_spec(preset, options, deck, seats)
    assert info.value.code == code


def test_six_players_with_the_option() -> None:
    built = build_spec("pl", {"six_players": True}, "double", [PERSON] * 6, "  Big   game ")
    assert len(built.seats) == 6 and built.title == "Big game"
    assert [
        s.name for s in build_spec("classic", {}, "rainbow", [PERSON, Seat("", SeatKind.BOT)]).seats
    ] == [
        "Ala",
        "Bot 2 (medium)",
    ]


async def test_a_seat_nobody_joins_can_go_to_a_bot(database: str) -> None:
    clock = Clock()
    async with running(database, clock, away_seconds=5, unseen_seconds=30) as service:
        created = await service.create_game(
            spec(PERSON, Seat.person("Olek"), Seat.person("", open=True))
        )
        game_id = created.game.id
        service.hub.connected(game_id, 0)  # the time away counts from the first arrival
        with pytest.raises(ProtocolError) as info:
            await service.hand_over(game_id, 0, 2, "easy")
        assert info.value.code == "seat_not_away"
        clock.now += 31
        with pytest.raises(ProtocolError) as info:
            await service.hand_over(game_id, 0, 1, "easy")  # reserved, not open
        assert info.value.code == "not_started"
        live = await service.hand_over(game_id, 0, 2, "easy")
        assert live.status is GameStatus.RUNNING and not live.seats[2].open
        await settled(service)
        assert (await service.find(game_id)).phase == "draw"
        stored = await service.store.get_game(game_id)
        assert stored is not None and stored.status is GameStatus.RUNNING
        assert (stored.seats[2].kind, stored.seats[2].open) == ("bot", False)
        service.evict(game_id)
        assert (await service.find(game_id)).seats[2].kind == "bot"


class Recorder:
    """A hub subscriber that keeps what it is sent."""

    def __init__(self) -> None:
        self.messages: list[dict[str, Any]] = []

    def deliver(self, message: dict[str, Any]) -> None:
        self.messages.append(message)


async def test_nothing_is_announced_that_was_not_stored(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        recorder = Recorder()
        service.hub.subscribe(game_id, recorder)
        real_append = service.store.append

        async def broken(*args: Any, **kwargs: Any) -> Any:
            raise StorageError("the disk is full")

        monkeypatch.setattr(service.store, "append", broken)
        with pytest.raises(StorageError):
            await service.draw(game_id, 0, 1)
        await settled(service)
        # At most the stored state again (rebuilt from the log after the failure).
        assert all(m["version"] == 1 and m["drawn"] is None for m in recorder.messages)
        live = await service.find(game_id)
        assert live.version == 1 and live.phase == "draw", "the cache was rebuilt from the log"
        monkeypatch.setattr(service.store, "append", real_append)
        del recorder.messages[:]
        await service.draw(game_id, 0, 1)
        assert [m["version"] for m in recorder.messages] == [2]
        assert len(await service.store.actions(game_id)) == 2


async def test_bots_try_again_after_a_database_failure(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(service_module, "RETRY", 0.05)
    async with running(database) as service:
        real_append = service.store.append
        failures: list[object] = []

        async def flaky(*args: Any, **kwargs: Any) -> Any:
            if not failures:
                failures.append(args)
                raise StorageError("the connection was lost")
            return await real_append(*args, **kwargs)

        monkeypatch.setattr(service.store, "append", flaky)
        created = await service.create_game(spec(PERSON, Seat.bot("", "easy")))
        await wait_until_async(
            lambda: version_at_least(service, created.game.id, 1),
            what="the bot driver to store the starter at its second try",
        )
        await settled(service)
        live = await service.find(created.game.id)
        assert failures and live.version == 1 and live.phase == "draw"


async def test_a_step_is_seen_by_nobody_while_it_is_being_stored(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Views read while the database commits show the last stored version, never the step on
    its way (which may still fail)."""
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        real_append = service.store.append
        entered, gate = asyncio.Event(), asyncio.Event()
        fail = True

        async def held(*args: Any, **kwargs: Any) -> Any:
            entered.set()
            await gate.wait()
            if fail:
                raise StorageError("the disk is full")
            return await real_append(*args, **kwargs)

        monkeypatch.setattr(service.store, "append", held)
        for outcome in ("fails", "stored"):
            fail = outcome == "fails"
            entered.clear()
            gate.clear()
            step = asyncio.create_task(service.draw(game_id, 0, 1))
            await entered.wait()
            seen = service.view(await service.find(game_id))
            assert (seen["version"], seen["phase"], seen["drawn"]) == (1, "draw", None), outcome
            assert (await service.find(created.game.code)).record().cards[1:] == ()
            gate.set()
            if fail:
                with pytest.raises(StorageError):
                    await step
            else:
                await step
        live = await service.find(game_id)
        assert live.version == 2 and live.phase == "place"


async def test_bots_move_on_after_a_step_whose_answer_was_lost(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database stores a step but its answer is lost (the connection drops during the
    commit): the player gets an error, yet the game goes on with the stored step, and the bot
    whose turn it now is moves without anyone else acting."""
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.bot("", "easy")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        await service.draw(game_id, 0, 1)
        await settled(service)  # no driver runs: the person is to place
        real_append = service.store.append

        async def lost(*args: Any, **kwargs: Any) -> Any:
            await real_append(*args, **kwargs)
            raise ConnectionResetError("the connection was lost during the commit")

        monkeypatch.setattr(service.store, "append", lost)
        live = await service.find(game_id)
        with pytest.raises(ConnectionResetError):
            await service.play(game_id, 0, 2, str(live.state.legal_actions()[0]))
        monkeypatch.setattr(service.store, "append", real_append)
        await my_turn(service, game_id, 0)  # the failed step started the bot's driver
        live = await service.find(game_id)
        assert live.version >= 5, "the bot drew and placed after the stored step"
        assert [e.kind for e in await service.store.actions(game_id)][:5] == [
            "starter",
            "draw",
            "play",
            "draw",
            "play",
        ]


async def test_a_stored_step_whose_answer_was_lost_is_announced(
    database: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above between two people: the other player hears of the stored step without anyone
    acting, so no client waits on an old state."""
    async with running(database) as service:
        created = await service.create_game(spec(PERSON, Seat.person("Olek")))
        game_id = created.game.id
        await my_turn(service, game_id, 0)
        await service.draw(game_id, 0, 1)
        await settled(service)
        recorder = Recorder()
        service.hub.subscribe(game_id, recorder)
        real_append = service.store.append

        async def lost(*args: Any, **kwargs: Any) -> Any:
            await real_append(*args, **kwargs)
            raise ConnectionResetError("the connection was lost during the commit")

        monkeypatch.setattr(service.store, "append", lost)
        live = await service.find(game_id)
        with pytest.raises(ConnectionResetError):
            await service.play(game_id, 0, 2, str(live.state.legal_actions()[0]))
        await settled(service)  # the failed step started the game's driver, which announces it
        assert [(m["version"], m["to_move"]) for m in recorder.messages] == [(3, 2)]


def test_the_steps_news_carries_are_applied_only_when_they_follow() -> None:
    from hisss.server.hub import following  # noqa: PLC0415
    from hisss.storage import LogEntry  # noqa: PLC0415

    entries = [
        LogEntry(4, EntryKind.DRAW, seat=0, card="M:red-red"),
        LogEntry(5, EntryKind.PLAY, seat=0, action="new", card="M:red-red"),
    ]
    steps = [entry.values() for entry in entries]
    assert following(3, steps) == entries
    assert following(4, steps) == entries[1:]  # a step the copy has is left out
    assert following(5, steps) is None  # nothing new
    assert following(2, steps) is None  # a gap: the database must tell
    assert following(3, [{**steps[0], "kind": "fly"}]) is None
    assert following(3, [{"seq": 4}]) is None
