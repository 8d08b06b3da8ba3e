"""The HTTP API fuzzed with schemathesis from its own OpenAPI schema, in process: whatever a client
sends, the server never fails (no 5xx), every answer conforms to the schema, every refusal is a
clear error and a refused request changes nothing.

Each operation is fuzzed twice (schemathesis's generation modes). Positive examples follow the
schema (they may still break a rule the schema cannot say, or name a game that does not exist);
negative examples break it (wrong types, missing and unknown fields, bodies that are not objects,
values out of range, keys that are too long) and must each be refused with a 4xx and the error
body ``{"error": {"code": ..., "message": ...}}`` of its code's status. Only a request whose one
fault is an undeclared query parameter may succeed: those are ignored, as HTTP servers do. About
half of the examples of the ``{key}`` routes have their key swapped for a real one (a running, an
open and a finished game, an uploaded replay, by id or code) or a forged one (a real key with a
character changed, a game's id on a replay route), and their step number for one near a game's
length, so that the routes answer more than "not found": joining a running or a full game,
taking an open seat, the record of an unfinished game, steps within and past the end.

After every refused request the stored state is compared with the state before it: the number of
games and replays, and the rows of the real games (status, version, seats with their token hashes,
log) and of the replay. A request that succeeds may change only what it is for: a created game, an
uploaded replay, a taken seat; a ``GET`` changes nothing. The requests go through one in-process
server (a ``TestClient`` with its lifespan), without the HTTP rate limit, so every request reaches
the API.
"""

from __future__ import annotations

import sqlite3
from collections import Counter
from collections.abc import Iterator
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.checks import positive_data_acceptance
from schemathesis.core.parameters import ParameterLocation
from schemathesis.core.result import Err
from schemathesis.specs.openapi.checks import has_only_additional_properties_in_non_body_parameters

from hisss.server import ErrorCode, Settings, create_app
from support.web import answer_when, play_out

GOLDEN = Path(__file__).resolve().parent / "golden" / "classic-2p-rainbow.json"

#: Some 3,800 requests: a long run (see ``support/markers.py``).
pytestmark = pytest.mark.slow

#: Examples per operation and generation mode: 11 operations with inputs fuzzed both ways (the
#: lobby's one query parameter has 100 valid values) and 2 without (one request each), some 3,800
#: requests.
EXAMPLES = 175

FUZZING = settings(
    max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck), database=None
)


@dataclass(frozen=True)
class Snapshot:
    """What a refused request must leave alone, read from the database."""

    games: int
    replays: int
    #: The rows of each real game (by id) and of the replay: status, version, seats, log.
    rows: dict[str, Any]


@dataclass(frozen=True)
class World:
    """The server under fuzzing and the real things in it."""

    client: TestClient
    database: Path
    running: dict[str, Any]
    waiting: dict[str, Any]
    finished: dict[str, Any]
    replay: dict[str, Any]
    #: Real and forged keys for the ``/api/games/{key}`` and ``/api/replays/{key}`` routes.
    game_keys: tuple[str, ...]
    replay_keys: tuple[str, ...]

    def snapshot(self) -> Snapshot:
        """The stored state now (a connection of its own, read-only)."""
        uri = f"file:{self.database}?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, isolation_level=None)) as db:
            rows: dict[str, Any] = {}
            for game in (self.running, self.waiting, self.finished):
                rows[game["id"]] = (
                    db.execute(
                        "SELECT status, version, title, result FROM games WHERE id = ?",
                        (game["id"],),
                    ).fetchall(),
                    db.execute(
                        "SELECT seat, kind, name, level, open, token_hash FROM seats"
                        " WHERE game_id = ? ORDER BY seat",
                        (game["id"],),
                    ).fetchall(),
                    db.execute(
                        "SELECT seq, kind, seat, action, card FROM actions"
                        " WHERE game_id = ? ORDER BY seq",
                        (game["id"],),
                    ).fetchall(),
                )
            rows[self.replay["id"]] = db.execute(
                "SELECT record, players, turns FROM replays WHERE id = ?", (self.replay["id"],)
            ).fetchall()
            return Snapshot(
                games=db.execute("SELECT count(*) FROM games").fetchone()[0],
                replays=db.execute("SELECT count(*) FROM replays").fetchone()[0],
                rows=rows,
            )

    def settled(self) -> None:
        """Wait until the open game, once its last seat is taken, has its starter stored."""
        answer_when(
            self.client,
            f"/api/games/{self.waiting['id']}",
            lambda summary: summary["phase"] != "starting",
            what="the open game's starter to be stored",
        )

    def summary(self, key: str) -> dict[str, Any]:
        """A game's summary, through the API."""
        response = self.client.get(f"/api/games/{key}")
        assert response.status_code == 200, response.text
        summary: dict[str, Any] = response.json()
        return summary


def create(client: TestClient, *seats: dict[str, Any]) -> dict[str, Any]:
    """A new game with these seats, as the API answers its creation."""
    response = client.post("/api/games", json={"seats": list(seats)})
    assert response.status_code == 201, response.text
    game: dict[str, Any] = response.json()
    return game


def forged(key: str) -> str:
    """The key with its last character changed: the key of nothing."""
    return key[:-1] + ("0" if key[-1] != "0" else "1")


@pytest.fixture(scope="module")
def world(tmp_path_factory: pytest.TempPathFactory) -> Iterator[World]:
    database = tmp_path_factory.mktemp("fuzz") / "fuzz.db"
    app = create_app(
        Settings(
            database=f"sqlite+pysqlite:///{database}",
            bot_delay=0.0,
            http_rate_per_second=0.0,
            lookup_rate_per_second=0.0,
        )
    )
    with TestClient(app, raise_server_exceptions=False) as client:
        # A running game waiting for its person (seat 1) to draw, an open game with two open
        # seats, a finished game and an uploaded replay, so that some keys are real.
        running = create(client, {"kind": "person"}, {"kind": "bot", "level": "easy"})
        answer_when(
            client,
            f"/api/games/{running['id']}",
            lambda summary: summary["to_move"] == 1,
            what="the running game to come to its person",
        )
        waiting = create(
            client,
            {"kind": "person"},
            {"kind": "person", "open": True},
            {"kind": "person", "open": True},
        )
        finished = create(client, {"kind": "person"}, {"kind": "bot", "level": "easy"})
        play_out(client, finished)
        answer_when(
            client,
            f"/api/games/{finished['id']}",
            lambda summary: summary["status"] == "finished",
            what="the played game to be stored as finished",
        )
        uploaded = client.post(
            "/api/replays",
            content=GOLDEN.read_bytes(),
            headers={"content-type": "application/json"},
        )
        assert uploaded.status_code == 201, uploaded.text
        replay: dict[str, Any] = uploaded.json()
        games = (running, waiting, finished)
        game_keys = (
            *(game["id"] for game in games),
            *(game["code"] for game in games),
            running["code"].lower(),
            forged(running["id"]),
            forged(finished["code"]),
            replay["id"],
        )
        replay_keys = (replay["id"], forged(replay["id"]), replay["id"].upper(), finished["id"])
        yield World(client, database, running, waiting, finished, replay, game_keys, replay_keys)


def operations() -> list[Any]:
    """Every operation of the API's schema (read from an app that is not started)."""
    app: Any = create_app(Settings(database="sqlite+pysqlite:///:memory:"))
    loaded = schemathesis.openapi.from_dict(app.app.openapi())
    found: list[Any] = []
    for result in loaded.get_all_operations():
        assert not isinstance(result, Err), result
        found.append(result.ok())
    return found


OPERATIONS = operations()
#: The operations that take something a client can get wrong (a path, a query or a body).
NEGATABLE = [op for op in OPERATIONS if op.path_parameters or op.query or op.body]


def send(client: TestClient, case: Any) -> Any:
    """Send the case through the test client; its answer."""
    kwargs = case.as_transport_kwargs(base_url="http://testserver")
    for unused in ("verify", "cert", "allow_redirects"):
        kwargs.pop(unused, None)
    if not kwargs.get("cookies"):
        kwargs.pop("cookies", None)
    if isinstance(kwargs.get("data"), bytes | str):  # raw bytes, not a form
        kwargs["content"] = kwargs.pop("data")
    return client.request(**kwargs)


def swap(case: Any, changes: dict[str, Any]) -> None:
    """Put each given value in the case's path, unless that would make a wrong path a valid one
    (schemathesis re-validates a changed case and updates its metadata)."""
    for name, value in changes.items():
        if value is None or name not in case.path_parameters:
            continue
        generated = dict(case.path_parameters)
        wrong = case.meta.is_negative_at(ParameterLocation.PATH)
        case.path_parameters = {**generated, name: value}
        if case.meta.is_negative_at(ParameterLocation.PATH) != wrong:
            case.path_parameters = generated


def path_changes(world: World, operation: Any) -> st.SearchStrategy[dict[str, Any]]:
    """For each path parameter, None (keep the generated value) about half of the time, else a
    real or forged key, or a step number near the length of a game."""
    if not operation.path_parameters:
        return st.just({})
    pool = world.replay_keys if operation.path.startswith("/api/replays/") else world.game_keys
    return st.fixed_dictionaries(
        {
            "key": st.one_of(st.none(), st.sampled_from(pool)),
            "number": st.one_of(st.none(), st.integers(0, 60)),
        }
    )


def assert_clear_error(case: Any, response: Any) -> None:
    """A refusal: the error body, a known code, the code's status (405: a method not taken)."""
    assert 400 <= response.status_code < 500, (case.as_curl_command(), response.text)
    body = response.json()
    assert set(body) == {"error"}, body
    error = body["error"]
    assert error["code"] in set(ErrorCode), body
    assert isinstance(error["message"], str) and error["message"], body
    expected = 405 if response.status_code == 405 else ErrorCode(error["code"]).status
    assert response.status_code == expected, body


def assert_changes(world: World, case: Any, response: Any, before: Snapshot) -> None:
    """A refusal or a ``GET`` changed nothing; a success changed only what it is for."""
    operation = case.operation
    if response.status_code >= 400 or operation.method == "get":
        after = world.snapshot()
        assert after == before, ("the request changed the stored state", case.as_curl_command())
        return
    if operation.path == "/api/games/{key}/join":
        world.settled()
    after = world.snapshot()
    grown = {"/api/games": "games", "/api/replays": "replays"}.get(operation.path)
    for counted in ("games", "replays"):
        change = 1 if counted == grown else 0
        assert getattr(after, counted) == getattr(before, counted) + change, (counted, case)
    joined = world.waiting["id"] if operation.path == "/api/games/{key}/join" else None
    assert {k: v for k, v in after.rows.items() if k != joined} == {
        k: v for k, v in before.rows.items() if k != joined
    }, ("the request changed another game", case.as_curl_command())
    if joined is not None:
        assert after.rows[joined] != before.rows[joined], "a seat was taken and nothing changed"


@pytest.mark.parametrize("operation", OPERATIONS, ids=lambda op: f"{op.method} {op.path}")
def test_valid_requests_never_fail_and_are_answered_by_the_schema(
    operation: Any, world: World
) -> None:
    sent = Counter[str]()

    @FUZZING
    @given(operation.as_strategy(GenerationMode.POSITIVE), path_changes(world, operation))
    def check(case: Any, changes: dict[str, Any]) -> None:
        swap(case, changes)
        before = world.snapshot()
        response = send(world.client, case)
        sent[str(response.status_code)] += 1
        assert response.status_code < 500, (case.as_curl_command(), response.text)
        if response.status_code >= 400:
            assert_clear_error(case, response)
        assert_changes(world, case, response, before)
        # A request the schema allows may still break a rule the schema cannot say (2 to 5
        # seats, 6 with an option) or name no game: refusing it is right, so that check is left
        # out.
        case.validate_response(response, excluded_checks=[positive_data_acceptance])

    check()
    if operation in NEGATABLE:  # an operation without inputs has few distinct requests
        assert sum(sent.values()) >= EXAMPLES // 2, sent


@pytest.mark.parametrize("operation", NEGATABLE, ids=lambda op: f"{op.method} {op.path}")
def test_malformed_requests_are_refused_with_a_clear_error_and_change_nothing(
    operation: Any, world: World
) -> None:
    sent = Counter[str]()

    @FUZZING
    @given(operation.as_strategy(GenerationMode.NEGATIVE), path_changes(world, operation))
    def check(case: Any, changes: dict[str, Any]) -> None:
        swap(case, changes)
        before = world.snapshot()
        response = send(world.client, case)
        assert response.status_code < 500, (case.as_curl_command(), response.text)
        # A request whose only fault is a query parameter the API does not declare is not
        # malformed: such parameters are ignored, as HTTP servers do, so it may succeed.
        malformed = case.meta.generation.mode.is_negative and not (
            has_only_additional_properties_in_non_body_parameters(case)
        )
        sent["malformed" if malformed else "not malformed"] += 1
        if malformed or response.status_code >= 400:
            assert_clear_error(case, response)
        assert_changes(world, case, response, before)
        case.validate_response(response)

    check()
    assert sent["malformed"] >= EXAMPLES // 5, sent
