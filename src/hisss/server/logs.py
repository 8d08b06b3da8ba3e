"""The server's log lines: plain text, or JSON lines that name the request and the game.

Two context variables follow the work being done: :data:`request_id`, set for each HTTP request
and each websocket connection (the client's ``X-Request-ID`` when it sends a usable one, else a
new one, sent back in the answer's ``X-Request-ID``), and :data:`game_id`, set while a connection
or a bot driver works on one game. :class:`JsonFormatter` writes each record as one JSON object
with both; :func:`configure` sets up the root logger, which uvicorn's loggers also reach.

>>> import logging
>>> token = game_id.set("aaa78e8f")
>>> record = logging.LogRecord("hisss.server", logging.INFO, "", 0, "game %s over", ("x",), None)
>>> line = JsonFormatter().format(record)
>>> game_id.reset(token)
>>> sorted(json.loads(line)), json.loads(line)["game"], json.loads(line)["message"]
(['game', 'level', 'logger', 'message', 'request', 'time'], 'aaa78e8f', 'game x over')
"""

from __future__ import annotations

import json
import logging
import re
import secrets
import sys
import time
from contextvars import ContextVar
from datetime import UTC, datetime

from hisss.core import ConfigError
from hisss.server.settings import LOG_FORMATS

#: The request or websocket connection being served (``None`` outside one).
request_id: ContextVar[str | None] = ContextVar("hisss_request_id", default=None)
#: The game being worked on (``None`` when none is known).
game_id: ContextVar[str | None] = ContextVar("hisss_game_id", default=None)

#: What a client's ``X-Request-ID`` may be to be used as the request's id.
_USABLE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")

#: The format of text lines (uvicorn's own loggers keep theirs).
TEXT_FORMAT = "%(levelname)s:     %(name)s - %(message)s"


def new_request_id(given: str | None = None) -> str:
    """The id of a request: ``given`` (the client's ``X-Request-ID``) if it is short and plain,
    else 16 new hex digits.

    >>> new_request_id("abc-123"), len(new_request_id("no spaces, please")), len(new_request_id())
    ('abc-123', 16, 16)
    """
    if given is not None and _USABLE_ID.fullmatch(given):
        return given
    return secrets.token_hex(8)


class JsonFormatter(logging.Formatter):
    """A record as one line of JSON: time (UTC), level, logger, message, request and game ids,
    and the traceback of an exception."""

    def format(self, record: logging.LogRecord) -> str:
        line = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
            "request": request_id.get(),
            "game": game_id.get(),
        }
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


class FloodFilter(logging.Filter):
    """Let through at most ``burst`` lines of a kind at once, then ``rate`` a second: a client
    refused again and again must not fill the log (one client once wrote 8,000 lines in 20 s).
    A line let through after some were left out says how many. Kinds are the access log's
    refusals (statuses 400 and up) and the server's warnings, by their message's template;
    other lines pass."""

    def __init__(self, burst: int = 20, rate: float = 1.0) -> None:
        super().__init__()
        self.burst = burst
        self.rate = rate
        self._kinds: dict[str, list[float]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.name == "uvicorn.access":
            args = record.args
            status = args[4] if isinstance(args, tuple) and len(args) > 4 else 0
            if not isinstance(status, int) or status < 400:
                return True
            kind = f"access {status}"
        elif record.levelno >= logging.WARNING:
            kind = f"{record.name} {record.msg}"
        else:
            return True
        now = time.monotonic()
        tokens, stamp, left_out = self._kinds.get(kind, (float(self.burst), now, 0.0))
        tokens = min(float(self.burst), tokens + (now - stamp) * self.rate)
        if tokens < 1:
            self._kinds[kind] = [tokens, now, left_out + 1]
            return False
        if left_out:
            record.msg = f"{record.msg} ({int(left_out)} more such lines left out)"
        self._kinds[kind] = [tokens - 1, now, 0.0]
        if len(self._kinds) > 1000:
            self._kinds.clear()
        return True


#: A ``token`` in a query string, as a client may still send it (it is refused).
_QUERY_TOKEN = re.compile(r"(?i)((?:^|[?&;])(?:token|access_token)=)[^&;#\s]*")


class SecretFilter(logging.Filter):
    """Hide the value of a ``token`` parameter in the access log's addresses: a token is
    refused in an address, but the line that logs the refusal must not keep it."""

    def filter(self, record: logging.LogRecord) -> bool:
        args = record.args
        if isinstance(args, tuple) and len(args) > 2 and isinstance(args[2], str):
            hidden = _QUERY_TOKEN.sub(r"\1[hidden]", args[2])
            if hidden != args[2]:
                record.args = (*args[:2], hidden, *args[3:])
        return True


def limit_floods() -> None:
    """Put a :class:`FloodFilter` on uvicorn's loggers, and a :class:`SecretFilter` on its
    access log (after uvicorn has set them up)."""
    flood = FloodFilter()
    for name in ("uvicorn.access", "uvicorn.error"):
        logger = logging.getLogger(name)
        for old in [f for f in logger.filters if isinstance(f, (FloodFilter, SecretFilter))]:
            logger.removeFilter(old)
        if name == "uvicorn.access":
            logger.addFilter(SecretFilter())
        logger.addFilter(flood)


def configure(log_format: str, level: int = logging.INFO) -> None:
    """Send every log record to stderr, as text or as JSON lines (``log_format``)."""
    if log_format not in LOG_FORMATS:
        raise ConfigError(f"log format {log_format!r}: expected one of {', '.join(LOG_FORMATS)}")
    handler = logging.StreamHandler(sys.stderr)
    formatter = JsonFormatter() if log_format == "json" else logging.Formatter(TEXT_FORMAT)
    handler.setFormatter(formatter)
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)
