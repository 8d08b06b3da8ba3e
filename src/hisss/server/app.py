"""The ASGI application: HTTP API, websocket endpoint, the front end's files and the guards.

:func:`create_app` builds a FastAPI application for a :class:`~hisss.server.settings.Settings`.
Its lifespan opens the database (unless a :class:`~hisss.storage.Store` is handed in) and the
hub (a :class:`~hisss.server.redis_hub.RedisHub` when ``settings.redis`` is set), starts the
:class:`~hisss.server.service.GameService` (which resumes the bots of running games) and stops it
again. A small ASGI guard in front of everything refuses request bodies over the size limits and
state-changing requests from the web pages of other sites or beyond a rate per client address,
and adds security headers (the front end loads nothing from anywhere but this server).

Answers are compressed (gzip) for clients that accept it. The front end's files are served under
a versioned address, ``/static/<version>/...``, where the version is a digest of all of them: a
browser may keep them for a year, and a new release changes every address. The page itself names
the versioned addresses and is checked again on every visit.

``GET /metrics`` serves the server's metrics in the Prometheus text format
(:mod:`hisss.server.metrics`), unless ``Settings.metrics`` keeps them private or off. Every
refusal is counted there, and every request and websocket connection gets an id for the log
lines (:mod:`hisss.server.logs`), sent back in the ``X-Request-ID`` header of HTTP answers.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import math
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Any

from fastapi import FastAPI, Request, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from hisss import __version__
from hisss.core import Rules, parse_snake, score
from hisss.i18n import LANGUAGES, explain_everywhere, get_catalog
from hisss.server import pwa
from hisss.server.api import catalog_answer, error_response, router
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.hub import Hub, LocalHub
from hisss.server.limits import ClientBuckets
from hisss.server.logs import new_request_id, request_id
from hisss.server.metrics import CONTENT_TYPE, LOCAL_ADDRESSES, Metrics
from hisss.server.redis_hub import RedisHub
from hisss.server.service import GameService
from hisss.server.session import Session
from hisss.server.settings import Settings
from hisss.storage import StorageError, Store

log = logging.getLogger("hisss.server")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The Content-Security-Policy of every answer: nothing from other sites.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
    "img-src 'self' data:; font-src 'self'; connect-src 'self'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)
_SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


#: How long a browser keeps a file of the front end under its versioned address: a year.
LONG_CACHE = "public, max-age=31536000, immutable"


def _files(folder: Traversable, prefix: str = "") -> list[tuple[str, Traversable]]:
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            found += _files(entry, f"{prefix}{entry.name}/")
        else:
            found.append((prefix + entry.name, entry))
    return found


@cache
def static_version() -> str:
    """A digest of every file of the front end (their names and contents): the version in
    their addresses."""
    digest = hashlib.sha256()
    for name, entry in _files(resources.files("hisss.server").joinpath("static")):
        digest.update(name.encode() + b"\0" + entry.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


@cache
def index_html() -> str:
    """The front end's page, from the package's data, naming its files' versioned addresses."""
    page = resources.files("hisss.server").joinpath("static/index.html").read_text("utf-8")
    return page.replace('="/static/', f'="/static/{static_version()}/')


def preload() -> None:
    """Read now every file a game needs later: the catalogs, the words of a result, the front
    end's page. Read lazily, the first game to end after the server ran out of open files
    (a flood of connections) failed on its last move."""
    for language in LANGUAGES:
        get_catalog(language)
        catalog_answer(language)
    three = parse_snake("H:red M:red-orange T:orange")
    explain_everywhere(score([[three], []], Rules()), Rules(), ["1", "2"])
    index_html()


class VersionedFiles(StaticFiles):
    """The front end's files under their versioned address, kept by browsers for a year."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = LONG_CACHE
        return response


class CurrentFiles(StaticFiles):
    """The same files under their plain address, checked again before each use."""

    def file_response(self, *args: Any, **kwargs: Any) -> Response:
        response = super().file_response(*args, **kwargs)
        response.headers["Cache-Control"] = "no-cache"
        return response


class Guard:
    """Body size limits, origin checks and a rate limit per client address for state-changing
    requests, security headers."""

    def __init__(self, app: ASGIApp, settings: Settings, metrics: Metrics) -> None:
        self.app = app
        self.settings = settings
        self.metrics = metrics
        self.buckets = ClientBuckets(settings.http_burst, settings.http_rate_per_second)
        self.lookups = ClientBuckets(settings.lookup_burst, settings.lookup_rate_per_second)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        identity = new_request_id(headers.get("x-request-id"))
        request_id.set(identity)
        if scope["type"] == "websocket":
            await self.app(scope, receive, send)
            return
        own_headers = [*_SECURITY_HEADERS, (b"x-request-id", identity.encode())]
        refusal = self._check(scope, headers, own_headers)
        if refusal is not None:
            await self._refuse(send, *refusal)
            return
        body = await self._read_body(scope, headers, receive, send, own_headers)
        if body is None:
            return
        delivered = False

        async def buffered() -> Message:
            nonlocal delivered
            if not delivered:
                delivered = True
                return {"type": "http.request", "body": bytes(body), "more_body": False}
            return await receive()

        async def secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = list(message.get("headers", [])) + own_headers
            await send(message)

        await self.app(scope, buffered, secured)

    def _check(
        self, scope: Scope, headers: dict[str, str], own_headers: list[tuple[bytes, bytes]]
    ) -> tuple[ProtocolError, list[tuple[bytes, bytes]]] | None:
        """The refusal of a request from another site or over its address's rate (the error and
        the headers to send with it), or ``None`` when it may go on."""
        method = scope["method"]
        if method not in ("GET", "HEAD", "OPTIONS") and not self.settings.origin_allowed(
            headers.get("origin"), headers.get("host")
        ):
            return (
                ProtocolError(ErrorCode.FORBIDDEN_ORIGIN, "requests from other sites are refused"),
                own_headers,
            )
        client = scope.get("client")
        address = client[0] if client else "?"
        if (
            method == "GET"
            and self.settings.lookup_rate_per_second > 0
            and scope["path"].startswith("/api/")
            and not self.lookups.take(address)
        ):
            wait = math.ceil(1 / self.settings.lookup_rate_per_second)
            return (
                ProtocolError(
                    ErrorCode.RATE_LIMITED, "too many look-ups from your address: wait a little"
                ),
                [*own_headers, (b"retry-after", str(wait).encode())],
            )
        if (
            method == "POST"
            and self.settings.http_rate_per_second > 0
            and not self.buckets.take(address)
        ):
            # The time one more request takes to be allowed, in whole seconds.
            wait = math.ceil(1 / self.settings.http_rate_per_second)
            return (
                ProtocolError(
                    ErrorCode.RATE_LIMITED, "too many requests from your address: wait a little"
                ),
                [*own_headers, (b"retry-after", str(wait).encode())],
            )
        return None

    async def _read_body(
        self,
        scope: Scope,
        headers: dict[str, str],
        receive: Receive,
        send: Send,
        own_headers: list[tuple[bytes, bytes]],
    ) -> bytearray | None:
        """The whole request body, or ``None`` when the client went away or the request was
        refused (too large, or too slow to arrive)."""
        limit = (
            self.settings.max_record_bytes
            if scope["path"] == "/api/replays"
            else self.settings.max_body_bytes
        )
        declared = headers.get("content-length")
        too_large = ProtocolError(
            ErrorCode.TOO_LARGE, f"the request body is larger than {limit} bytes"
        )
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await self._refuse(send, too_large, own_headers)
            return None
        # The whole body is read here, counted as it arrives (a chunked body declares no
        # length), before the application sees any of it, within a deadline (a client that
        # sends a byte now and then would hold its connection and a task for ever).
        body = bytearray()
        more = True
        try:
            async with asyncio.timeout(self.settings.body_timeout):
                while more:
                    message = await receive()
                    if message["type"] != "http.request":
                        return None  # the client went away
                    body += message.get("body", b"")
                    if len(body) > limit:
                        await self._refuse(send, too_large, own_headers)
                        return None
                    more = bool(message.get("more_body", False))
        except TimeoutError:
            late = ProtocolError(
                ErrorCode.TOO_SLOW,
                f"the request body did not arrive within {self.settings.body_timeout:g} seconds",
            )
            await self._refuse(send, late, [*own_headers, (b"connection", b"close")])
            return None
        return body

    async def _refuse(
        self, send: Send, error: ProtocolError, headers: list[tuple[bytes, bytes]]
    ) -> None:
        self.metrics.error(error.code, "http")
        response = error_response(error)
        await send(
            {
                "type": "http.response.start",
                "status": response.status_code,
                "headers": response.raw_headers + headers,
            }
        )
        await send({"type": "http.response.body", "body": response.body})


def create_app(settings: Settings, store: Store | None = None, hub: Hub | None = None) -> Any:
    """The ASGI application (the guard around FastAPI); ``app.state`` of the FastAPI app holds
    ``settings`` and ``metrics``, and ``store`` and ``service`` while it runs."""
    metrics = Metrics()
    app = FastAPI(
        title="Hisss",
        version=__version__,
        description="The Hisss game server: lobby, games, records and replays. The websocket "
        "protocol of /ws/games/{id} is described in docs/protocol.md.",
        lifespan=_lifespan(settings, metrics, store, hub),
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = settings
    app.state.metrics = metrics
    app.include_router(router)
    _add_error_handlers(app, metrics)
    _add_pages(app)
    _add_monitoring(app, settings, metrics)
    _add_game_socket(app, settings)
    return _guarded(app, settings, metrics)


def _lifespan(
    settings: Settings, metrics: Metrics, store: Store | None, hub: Hub | None
) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """The lifespan of the application: it opens the database (unless ``store`` is handed in)
    and the hub (unless ``hub`` is), and runs the game service between them."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        own = store is None
        opened = (
            await Store.open(settings.database, settings.database_timeout)
            if store is None
            else store
        )
        # A hub handed in is started and stopped by its owner (``hisss serve``).
        own_hub: Hub | None = None
        used = hub
        if used is None:
            used = own_hub = RedisHub(settings.redis) if settings.redis else LocalHub()
            try:
                await own_hub.start()
            except BaseException:
                if own:
                    await opened.close()
                raise
        preload()
        service = GameService(opened, used, settings, metrics)
        app.state.store = opened
        app.state.service = service
        await service.start()
        try:
            yield
        finally:
            await service.stop()
            if own_hub is not None:
                await own_hub.stop()
            if own:
                await opened.close()

    return lifespan


def _add_error_handlers(app: FastAPI, metrics: Metrics) -> None:
    """Every failure of a request becomes an error answer with a stable code, and is counted."""

    def refused(error: ProtocolError, status: int | None = None) -> JSONResponse:
        metrics.error(error.code, "http")
        return error_response(error, status)

    @app.exception_handler(ProtocolError)
    async def protocol_error(_request: Request, exc: ProtocolError) -> JSONResponse:
        return refused(exc)

    @app.exception_handler(RequestValidationError)
    async def validation_error(_request: Request, exc: RequestValidationError) -> JSONResponse:
        return refused(_invalid_request(exc))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> JSONResponse:
        if exc.status_code == 404:
            return refused(ProtocolError(ErrorCode.NOT_FOUND, "there is no such page"))
        if exc.status_code == 405:
            return refused(
                ProtocolError(ErrorCode.BAD_MESSAGE, "this path does not take that method"),
                status=405,
            )
        return refused(
            ProtocolError(ErrorCode.BAD_MESSAGE, str(exc.detail)), status=exc.status_code
        )

    @app.exception_handler(StorageError)
    async def storage_error(_request: Request, exc: StorageError) -> JSONResponse:
        log.error("storage failed: %s", exc)
        return refused(ProtocolError(ErrorCode.SERVER_ERROR, "the database failed"))

    @app.exception_handler(Exception)
    async def server_error(_request: Request, _exc: Exception) -> JSONResponse:
        # Starlette logs the exception with its traceback after this answer has gone out.
        return refused(ProtocolError(ErrorCode.SERVER_ERROR, "the server failed on this request"))


def _invalid_request(exc: RequestValidationError) -> ProtocolError:
    """The error that answers a request FastAPI could not validate: bad JSON, a body that is
    not an object, or up to five fields that are wrong."""
    problems = []
    for error in exc.errors()[:5]:
        loc = tuple(error.get("loc", ()))
        if error.get("type") == "json_invalid":
            reason = str((error.get("ctx") or {}).get("error", "")).strip()
            return ProtocolError(
                ErrorCode.BAD_JSON,
                "the request body is not valid JSON"
                + (f": {reason}" if reason else "")
                + (f" (at character {loc[1]})" if len(loc) > 1 else ""),
            )
        if loc == ("body",):
            return ProtocolError(
                ErrorCode.BAD_MESSAGE,
                "the request body must be a JSON object (Content-Type: application/json)",
            )
        where = ".".join(str(p) for p in loc if p != "body")
        problems.append(f"{where}: {error.get('msg', 'invalid')}" if where else error["msg"])
    return ProtocolError(ErrorCode.BAD_MESSAGE, "; ".join(problems))


def _add_pages(app: FastAPI) -> None:
    """The pages of the front end (one page for every address) and its service worker."""

    def page() -> HTMLResponse:
        return HTMLResponse(index_html(), headers={"Cache-Control": "no-cache"})

    @app.get("/", include_in_schema=False)
    async def index() -> HTMLResponse:
        return page()

    @app.get("/g/{code}", include_in_schema=False)
    async def game_page(code: str) -> HTMLResponse:
        return page()

    @app.get("/replay/{replay_id}", include_in_schema=False)
    async def replay_page(replay_id: str) -> HTMLResponse:
        return page()

    @app.get("/sw.js", include_in_schema=False)
    async def service_worker_script() -> Response:
        script = pwa.service_worker(static_version())
        return Response(script, media_type="text/javascript", headers={"Cache-Control": "no-cache"})

    @app.get("/offline", include_in_schema=False)
    async def offline() -> HTMLResponse:
        return HTMLResponse(
            pwa.offline_page(static_version()), headers={"Cache-Control": "no-cache"}
        )


def _add_monitoring(app: FastAPI, settings: Settings, metrics: Metrics) -> None:
    """The health check and, unless the settings keep them off, the metrics."""

    @app.get("/healthz", summary="Is the server up, and does its database answer")
    async def health(request: Request) -> JSONResponse:
        """``ok``, the kind of database and the number of games whose bots the server is playing
        now; status 503 and ``ok: false`` when the database does not answer (for load balancers
        and monitoring)."""
        store: Store = request.app.state.store
        answer = {"database": store.dialect, "bots_playing": request.app.state.service.bots_playing}
        try:
            await store.ping()
        except StorageError as exc:
            log.error("health check: %s", exc)
            return JSONResponse({"ok": False, **answer}, status_code=503)
        return JSONResponse({"ok": True, **answer})

    if settings.metrics != "off":

        @app.get("/metrics", include_in_schema=False)
        async def metrics_page(request: Request) -> Response:
            client = request.client.host if request.client else None
            if settings.metrics == "local" and client not in LOCAL_ADDRESSES:
                raise ProtocolError(ErrorCode.NOT_FOUND, "there is no such page")
            store: Store = request.app.state.store
            try:
                metrics.count_games(await store.count_games())
            except StorageError as exc:  # counted as a database failure; the rest is served
                log.error("metrics: cannot count the games: %s", exc)
            return Response(metrics.render(), media_type=CONTENT_TYPE)


def _add_game_socket(app: FastAPI, settings: Settings) -> None:
    """The websocket of a game, and the front end's files."""

    @app.websocket("/ws/games/{key}")
    async def game_socket(websocket: WebSocket, key: str) -> None:
        service: GameService = websocket.app.state.service
        await Session(websocket, service, settings).run(key)

    app.mount(
        f"/static/{static_version()}",
        VersionedFiles(packages=[("hisss.server", "static")]),
        name="versioned",
    )
    app.mount("/static", CurrentFiles(packages=[("hisss.server", "static")]), name="static")
    app.add_middleware(GZipMiddleware, minimum_size=512)


def _guarded(app: FastAPI, settings: Settings, metrics: Metrics) -> ASGIApp:
    """The application behind its guard, and the host and proxy middleware the settings ask
    for."""
    guarded: ASGIApp = Guard(app, settings, metrics)
    if settings.allowed_hosts is not None:
        # A foreign Host (a page of another domain whose name resolves to this server: DNS
        # rebinding) gets 400 before anything else.
        guarded = TrustedHostMiddleware(
            guarded, allowed_hosts=list(settings.allowed_hosts), www_redirect=False
        )
    if settings.forwarded_allow_ips:
        # The client of a request from a trusted proxy is the rightmost address of its
        # X-Forwarded-For that is not a trusted proxy (uvicorn's rule).
        proxied: Any = ProxyHeadersMiddleware(
            guarded,  # type: ignore[arg-type]
            trusted_hosts=list(settings.forwarded_allow_ips),
        )
        guarded = proxied
    return guarded
