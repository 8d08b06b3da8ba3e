"""The game server: HTTP API, websocket sessions, the game service and the bots that play on it.

:func:`create_app` builds the ASGI application; :func:`serve` runs it with uvicorn (the
``hisss serve`` command). The server is the authority of every game: it stores each accepted
step in the append-only log of :mod:`hisss.storage` before acknowledging it, numbers every state
(the version is the length of the log) and publishes new states through one
:class:`~hisss.server.hub.Hub`. The protocol is described in ``docs/protocol.md``.
"""

from hisss.server.app import create_app
from hisss.server.errors import ErrorCode, ProtocolError
from hisss.server.game import PROTOCOL_VERSION, LiveGame
from hisss.server.hub import Hub, LocalHub
from hisss.server.run import ServeError, serve
from hisss.server.service import GameService
from hisss.server.settings import Settings

__all__ = [
    "PROTOCOL_VERSION",
    "ErrorCode",
    "GameService",
    "Hub",
    "LiveGame",
    "LocalHub",
    "ProtocolError",
    "ServeError",
    "Settings",
    "create_app",
    "serve",
]
