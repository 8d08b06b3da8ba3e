"""The HTTP API: the lobby (create, join, list games), game summaries, records and replays.

Every answer is JSON; a refusal is ``{"error": {"code": ..., "message": ...}}`` with the HTTP
status of its code (:class:`hisss.server.errors.ErrorCode`). The schema is served at
``/openapi.json``; ``docs/protocol.md`` describes each endpoint with examples.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from hisss.bots import LEVEL_NAMES, levels_for
from hisss.bots.levels import LEVEL_HELP
from hisss.core import BUILTIN_DECKS, PRESETS, Rules
from hisss.i18n import LANGUAGES, web_catalog
from hisss.record import GameRecord, Seat, SeatKind
from hisss.server import replays
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.game import PROTOCOL_VERSION, seat_view
from hisss.server.hands import for_seats
from hisss.server.service import GameService
from hisss.server.settings import PACES, Settings
from hisss.server.setup import MAX_NAME, build_spec
from hisss.storage import GameStatus


class ErrorDetail(BaseModel):
    """A refusal: a stable ``code`` and a sentence; some codes add fields (``field``, ``turn``)."""

    model_config = ConfigDict(extra="allow")

    code: str
    message: str


class ErrorAnswer(BaseModel):
    """The body of every refused request."""

    error: ErrorDetail


#: Every status a refusal can have, documented in the schema with the error body.
ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorAnswer, "description": "refused: see the error code"}
    for status in sorted({code.status for code in ErrorCode} | {405})
}

router = APIRouter(prefix="/api", responses=ERROR_RESPONSES)

GameKey = Annotated[str, Path(max_length=64, description="The game's id or its short code.")]
#: The longest token read from an ``Authorization`` header (a seat token has 32 characters).
MAX_TOKEN_CHARS = 256

#: The levels whose bots play the hand variant (any hand size: they play them all).
HAND_LEVELS = frozenset(levels_for(Rules(hand_size=1)))

ReplayKey = Annotated[str, Path(max_length=64, description="The replay's id.")]
LanguageKey = Annotated[
    str, Path(max_length=16, description="A language code: " + ", ".join(LANGUAGES) + ".")
]


class SeatRequest(BaseModel):
    """A seat of a new game."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["person", "bot"]
    name: str | None = Field(default=None, max_length=200)
    level: str | None = Field(
        default=None, max_length=32, description="bots: " + ", ".join(LEVEL_NAMES)
    )
    open: bool = Field(
        default=False,
        description="persons: leave the seat open for anyone to join from the lobby, instead "
        "of reserving it for the holder of its link",
    )


class CreateGameRequest(BaseModel):
    """A new game: a rules preset with changed options, a deck and 2 to 6 seats."""

    model_config = ConfigDict(extra="forbid", strict=True)

    rules: str = Field(default="classic", max_length=32, description="classic or pl")
    set: dict[str, bool | int | str] = Field(
        default_factory=dict, description="rule options changed from the preset"
    )
    deck: str = Field(default="rainbow", max_length=32)
    seats: list[SeatRequest] = Field(min_length=1, max_length=8)
    title: str | None = Field(default=None, max_length=200)
    public: bool = Field(
        default=False, description="list the game in the lobby (else only its links find it)"
    )
    pace: Literal["fast", "normal", "slow"] = Field(
        default="normal", description="how fast the bots play"
    )
    device: bool = Field(
        default=False,
        description="pass-and-play: every person seat is played on this one device, all held "
        "by one token",
    )


class JoinRequest(BaseModel):
    """Taking an open seat."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str | None = Field(default=None, max_length=200)
    seat: int | None = Field(
        default=None, ge=1, le=6, description="a seat number; default: the first open seat"
    )


def _service(request: Request) -> GameService:
    service: GameService = request.app.state.service
    return service


def _settings(request: Request) -> Settings:
    settings: Settings = request.app.state.settings
    return settings


def play_link(code: str, seat: int, token: str) -> str:
    """The link that opens the table for a seat (the token stays in the fragment, which
    browsers never send to the server)."""
    return f"/g/{code}#seat={seat}&token={token}"


@router.get("/options", summary="What a game can be made of")
async def options(request: Request) -> dict[str, Any]:
    """Rules presets with their options, decks, bot levels, the protocol version and limits."""
    settings = _settings(request)
    return {
        "protocol": PROTOCOL_VERSION,
        "presets": {name: rules.to_mapping() for name, rules in PRESETS.items()},
        "rule_options": Rules().to_mapping(),
        "decks": {name: {"size": deck.size} for name, deck in BUILTIN_DECKS.items()},
        # "hands": whether the level's bot plays the hand variant (a game with hands refuses
        # the others).
        "levels": [
            {"name": name, "help": LEVEL_HELP[name], "hands": name in HAND_LEVELS}
            for name in LEVEL_NAMES
        ],
        "players": {"min": 2, "max": 5, "max_with_six_players": 6},
        "away_seconds": settings.away_seconds,
        "unseen_seconds": settings.unseen_seconds,
        "idle_seconds": settings.idle_seconds,
        "paces": {pace: round(settings.step_delay(pace) * 2, 3) for pace in PACES},
        "limits": {
            "max_message_bytes": settings.max_message_bytes,
            "max_body_bytes": settings.max_body_bytes,
            "max_record_bytes": settings.max_record_bytes,
            "rate_per_second": settings.rate_per_second,
            "rate_burst": settings.rate_burst,
            "http_burst": settings.http_burst,
            "http_rate_per_second": settings.http_rate_per_second,
            "lookup_burst": settings.lookup_burst,
            "lookup_rate_per_second": settings.lookup_rate_per_second,
            "hint_burst": settings.hint_burst,
            "hint_rate_per_second": settings.hint_rate_per_second,
            "sync_burst": settings.sync_burst,
            "sync_rate_per_second": settings.sync_rate_per_second,
            "max_connections_per_address": settings.max_connections_per_address,
            "max_spectators": settings.max_spectators,
            "max_name_graphemes": MAX_NAME,
        },
    }


@cache
def catalog_answer(language: str) -> tuple[bytes, str]:
    """The body of a language's catalog and its entity tag (a digest of the body)."""
    body = json.dumps(web_catalog(language), ensure_ascii=False, separators=(",", ":"))
    data = body.encode("utf-8")
    return data, '"' + hashlib.sha256(data).hexdigest()[:32] + '"'


def _matches(if_none_match: str | None, etag: str) -> bool:
    """True when an ``If-None-Match`` header names ``etag`` (or ``*``)."""
    if not if_none_match:
        return False
    tags = [tag.strip().removeprefix("W/") for tag in if_none_match.split(",")]
    return etag in tags or "*" in tags


@router.get(
    "/i18n/{lang}",
    summary="The browser game's texts in one language",
    response_class=Response,
    responses={
        200: {"content": {"application/json": {}}, "description": "the catalog"},
        304: {"description": "not modified: the catalog named by If-None-Match is current"},
    },
)
async def texts(lang: LanguageKey, request: Request) -> Response:
    """Every word, colour name, letter, symbol and card name the browser shows, in the language
    ``lang``, from the same catalog as the terminal game. The answer has an ``ETag``; it must be
    checked again before each use (``Cache-Control: no-cache``), and a request naming the
    current tag in ``If-None-Match`` gets ``304`` with no body."""
    if lang not in LANGUAGES:
        raise ProtocolError(
            ErrorCode.NOT_FOUND,
            f"there is no catalog for the language {lang!r} (languages: {', '.join(LANGUAGES)})",
        )
    body, etag = catalog_answer(lang)
    headers = {"ETag": etag, "Cache-Control": "no-cache"}
    if _matches(request.headers.get("if-none-match"), etag):
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


@router.post("/games", status_code=201, summary="Create a game")
async def create_game(body: CreateGameRequest, request: Request) -> dict[str, Any]:
    """Create a game. Each reserved person seat gets a secret token, returned only here, inside
    the seat's link: share each link with the person who plays that seat."""
    spec = build_spec(
        body.rules,
        dict(body.set),
        body.deck,
        [Seat(s.name or "", SeatKind(s.kind), s.level, s.open) for s in body.seats],
        body.title,
        public=body.public,
        pace=body.pace,
        device=body.device,
    )
    created = await _service(request).create_game(spec)
    game = created.game
    seats = []
    for number, seat in enumerate(game.seats):
        entry = seat_view(number, seat)
        token = created.tokens.get(number)
        if token is not None:
            entry["token"] = token
            entry["link"] = play_link(game.code, number + 1, token)
        elif seat.open:
            entry["link"] = f"/g/{game.code}#join={number + 1}"
        seats.append(entry)
    return {
        "id": game.id,
        "code": game.code,
        "status": game.status.value,
        "public": game.public,
        "pace": game.pace,
        "device": body.device,
        "watch": f"/g/{game.code}",
        "websocket": f"/ws/games/{game.id}",
        "seats": seats,
    }


@router.get("/games", summary="The lobby: public games open, being played and finished")
async def list_games(
    request: Request,
    limit: Annotated[int, Query(ge=1, le=100, description="games per list")] = 20,
) -> dict[str, Any]:
    """Three lists of public games, the most recently changed first in each: waiting for
    players, being played (a game nobody follows leaves this list ``idle_seconds`` after its
    last step) and finished."""
    service = _service(request)
    return {
        status.value: await service.list_games(status, limit)
        for status in (GameStatus.OPEN, GameStatus.RUNNING, GameStatus.FINISHED)
    }


@router.get("/games/{key}", summary="A game's summary")
async def game_summary(key: GameKey, request: Request) -> dict[str, Any]:
    """Status, seats with presence, whose turn it is, the result once over; no secrets."""
    service = _service(request)
    return service.summary(await service.find(key))


@router.get("/games/{key}/state", summary="A game's current state")
async def game_state(key: GameKey, request: Request) -> dict[str, Any]:
    """The same object as the websocket's ``state`` message, as a spectator sees it (in the
    hand variant: the hands' sizes, not their cards)."""
    service = _service(request)
    return for_seats(service.view(await service.find(key)), ())


@router.post("/games/{key}/join", summary="Take an open seat")
async def join_game(key: GameKey, body: JoinRequest, request: Request) -> dict[str, Any]:
    """Take an open person seat; returns the seat's secret token, once."""
    seat = body.seat - 1 if body.seat is not None else None
    live, taken, token = await _service(request).join(key, body.name, seat)
    return {
        "id": live.id,
        "code": live.code,
        "seat": taken + 1,
        "token": token,
        "link": play_link(live.code, taken + 1, token),
        "websocket": f"/ws/games/{live.id}",
    }


def _download(record: GameRecord, name: str) -> Response:
    return Response(
        record.to_json() + "\n",
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="{name}"'},
    )


@router.get(
    "/games/{key}/record",
    summary="Download a finished game's record",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "a hisss game record"}},
)
async def game_record(
    key: GameKey,
    request: Request,
    partial: Annotated[
        bool, Query(description="a running game's record so far (no seed, no result)")
    ] = False,
) -> Response:
    """The game record (``docs/record-format.md``), which ``hisss replay`` reads. In a running
    game of the hand variant, a seat shows its token in the ``Authorization: Bearer TOKEN``
    header to get the record so far with its own hand alone; a token in the address is refused
    (addresses are written to access logs)."""
    if "token" in request.query_params:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            "a token never goes in the address: send it as 'Authorization: Bearer TOKEN'",
        )
    token = bearer_token(request.headers.get("authorization"))
    service = _service(request)
    live = await service.find(key)
    seat = service.authenticate(live, token)[0] if token is not None else None
    record = await service.record(live.id, partial, seat)
    return _download(record, f"hisss-{live.code}.json")


def bearer_token(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header (``None`` without the header);
    raises :class:`ProtocolError` for another scheme or an oversized token."""
    if header is None:
        return None
    scheme, _, token = header.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, "the Authorization header must be 'Bearer TOKEN'"
        )
    if len(token) > MAX_TOKEN_CHARS:
        raise ProtocolError(ErrorCode.BAD_TOKEN, "this token does not open any seat")
    return token


@router.get("/games/{key}/steps/{number}", summary="A finished game after N turns")
async def game_step(
    key: GameKey, number: Annotated[int, Path(ge=0, le=100_000)], request: Request
) -> dict[str, Any]:
    """Step through a finished game: the position after turn ``number`` (0: the starter)."""
    return replays.step(await _service(request).record(key), number)


@router.post(
    "/replays",
    status_code=201,
    summary="Upload a game record",
    openapi_extra={
        "requestBody": {
            "required": True,
            "description": "a hisss game record (docs/record-format.md), as JSON text",
            "content": {"application/json": {"schema": {"type": "object"}}},
        }
    },
)
async def upload_replay(request: Request) -> dict[str, Any]:
    """Check the record (every turn against the rules) and store it for replaying."""
    raw = await request.body()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProtocolError(ErrorCode.BAD_RECORD, "the record is not UTF-8 text") from None
    record = replays.check_record(text)
    stored = await _service(request).store.add_replay(
        record.to_json(), record.players, len(record.turns)
    )
    return {"id": stored.id, "link": f"/replay/{stored.id}", **replays.record_summary(record)}


async def _replay(request: Request, key: str) -> GameRecord:
    stored = await _service(request).store.get_replay(key)
    if stored is None:
        raise ProtocolError(ErrorCode.UNKNOWN_REPLAY, f"there is no replay {key!r}")
    return GameRecord.from_json(stored.record)


@router.get("/replays/{key}", summary="An uploaded record's summary")
async def replay_summary(key: ReplayKey, request: Request) -> dict[str, Any]:
    """Seats, rules, deck, number of steps and result."""
    return {"id": key, **replays.record_summary(await _replay(request, key))}


@router.get("/replays/{key}/steps/{number}", summary="An uploaded game after N turns")
async def replay_step(
    key: ReplayKey, number: Annotated[int, Path(ge=0, le=100_000)], request: Request
) -> dict[str, Any]:
    """The position after turn ``number`` (0: the starter alone)."""
    return replays.step(await _replay(request, key), number)


@router.get(
    "/replays/{key}/record",
    summary="Download an uploaded record",
    response_class=Response,
    responses={200: {"content": {"application/json": {}}, "description": "a hisss game record"}},
)
async def replay_record(key: ReplayKey, request: Request) -> Response:
    """The record as stored (re-written in the canonical layout)."""
    return _download(await _replay(request, key), f"hisss-replay-{key[:8]}.json")


class AsciiJSONResponse(JSONResponse):
    """JSON with every character outside ASCII escaped: a refusal may quote the input, and the
    input may hold a lone surrogate (JSON's ``\\ud800``), which UTF-8 cannot encode."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, allow_nan=False, separators=(",", ":")).encode("ascii")


def error_response(error: ProtocolError, status: int | None = None) -> JSONResponse:
    """The HTTP answer for a refusal (with the code's status unless ``status`` is given)."""
    return AsciiJSONResponse({"error": error.to_dict()}, status_code=status or error.status)
