"""Hostile clients against a real server, all at once, while a friendly client watches.

:func:`attack` runs, for ``seconds``, from addresses of their own on the loopback network
(127.0.0.2 and up; Linux routes all of 127.0.0.0/8 to this machine):

- slow headers: connections that send one header line every two seconds and never finish;
- a crowd: hundreds of websockets from one address, each saying hello as a spectator;
- a flood that fills the cap: slow-header connections from eight more addresses;
- non-readers: spectators of a running game that never read what the server sends;
- a hint flood: ten connections of one seat asking for hints twenty times a second;
- forged forwarded headers: new games asked for from 127.0.0.1 (as through a local tunnel)
  with a different ``X-Forwarded-For`` each;
- a foreign ``Host``: a page of another domain (DNS rebinding) asking for ``/metrics``.

Meanwhile, from 127.0.0.1, ``/healthz`` is asked five times a second and a person plays a game
against a bot. The figures (:class:`Figures`) say what each side got, for the tests and for
comparing two versions of the server.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import statistics
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import InvalidHandshake

#: A friendly client's address, and the first of the hostile ones.
FRIEND = "127.0.0.1"


def _address(n: int) -> str:
    return f"127.0.0.{n}"


@dataclass
class Figures:
    """What the friendly and the hostile clients saw."""

    healthz: list[float] = field(default_factory=list)
    healthz_failed: int = 0
    quiet_healthz: list[float] = field(default_factory=list)
    #: Times of the steps of the friendly game (monotonic), and the versions acknowledged.
    steps: list[float] = field(default_factory=list)
    acked_version: int = 0
    stored_version: int = 0
    game_error: str = ""
    rss_mb: list[float] = field(default_factory=list)
    open_files: list[int] = field(default_factory=list)
    slow_refused: int = 0
    #: Seconds each accepted slow-header connection stayed open (``None``: still open).
    slow_held: list[float | None] = field(default_factory=list)
    crowd_accepted: int = 0
    crowd_refused: int = 0
    filler_refused: int = 0
    filler_closed: int = 0
    filler_total: int = 0
    nonreaders_open_at_end: int = 0
    nonreaders: int = 0
    hints_answered: int = 0
    hints_refused: int = 0
    forged_created: int = 0
    forged_refused: int = 0
    #: Seconds the forged requests took (the limit refills meanwhile: one a second).
    forged_seconds: float = 0.0
    foreign_statuses: list[int] = field(default_factory=list)

    def summary(self) -> dict[str, Any]:
        """The figures in a few numbers."""
        gaps = [b - a for a, b in zip(self.steps, self.steps[1:], strict=False)]
        return {
            "healthz_ms_median": _ms(statistics.median(self.healthz)) if self.healthz else None,
            "healthz_ms_max": _ms(max(self.healthz)) if self.healthz else None,
            "healthz_failed": self.healthz_failed,
            "quiet_healthz_ms_median": _ms(statistics.median(self.quiet_healthz))
            if self.quiet_healthz
            else None,
            "game_steps": len(self.steps),
            "game_step_ms_median": _ms(statistics.median(gaps)) if gaps else None,
            "game_longest_pause_ms": _ms(max(gaps)) if gaps else None,
            "game_error": self.game_error,
            "acked_version": self.acked_version,
            "stored_version": self.stored_version,
            "rss_mb_max": max(self.rss_mb) if self.rss_mb else None,
            "open_files_max": max(self.open_files) if self.open_files else None,
            "open_files_end": self.open_files[-1] if self.open_files else None,
            "slow_refused": self.slow_refused,
            "slow_held_max_s": max((h for h in self.slow_held if h is not None), default=None),
            "slow_still_open": sum(1 for h in self.slow_held if h is None),
            "crowd_accepted": self.crowd_accepted,
            "crowd_refused": self.crowd_refused,
            "filler_total": self.filler_total,
            "filler_refused": self.filler_refused,
            "filler_closed": self.filler_closed,
            "nonreaders": self.nonreaders,
            "nonreaders_open_at_end": self.nonreaders_open_at_end,
            "hints_answered": self.hints_answered,
            "hints_refused": self.hints_refused,
            "forged_created": self.forged_created,
            "forged_refused": self.forged_refused,
            "forged_seconds": round(self.forged_seconds, 1),
            "foreign_statuses": sorted(set(self.foreign_statuses)),
        }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# ---------------------------------------------------------------------- plumbing


async def _open(port: int, source: str, rcvbuf: int | None = None) -> tuple[Any, Any]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    try:
        sock.setblocking(False)
        sock.bind((source, 0))
        await asyncio.wait_for(
            asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port)), 10
        )
        return await asyncio.open_connection(sock=sock, limit=4096)
    except BaseException:
        sock.close()
        raise


def _http(port: int, method: str, path: str, body: object = None, **headers: str) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}{path}",
        data=data,
        method=method,
        headers={"Content-Type": "application/json", **headers},
    )
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=10) as answer:
        return json.loads(answer.read().decode())


async def _status(port: int, source: str, request: bytes, timeout: float = 10) -> int:
    """The status of one raw HTTP request sent from ``source`` (0: no answer)."""
    try:
        reader, writer = await _open(port, source)
    except (OSError, TimeoutError):
        return 0
    try:
        writer.write(request)
        line = await asyncio.wait_for(reader.readline(), timeout)
        return int(line.split()[1]) if line.startswith(b"HTTP/") else 0
    except (OSError, TimeoutError, ValueError, IndexError):
        return 0
    finally:
        writer.close()


def _upgrade(path: str, host: str = "localhost") -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def _frame(text: str) -> bytes:
    """A masked text frame, as a client sends it."""
    data = text.encode()
    mask = os.urandom(4)
    size = len(data)
    head = bytes([0x81, 0x80 | size]) if size < 126 else bytes([0x81, 0xFE]) + size.to_bytes(2)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


async def _spectator(port: int, source: str, path: str, rcvbuf: int | None = None) -> Any:
    """A websocket that said hello as a spectator, or ``None`` when the server refused it."""
    try:
        reader, writer = await _open(port, source, rcvbuf)
    except (OSError, TimeoutError):
        return None
    writer.write(_upgrade(path))
    try:
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
    except (OSError, TimeoutError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
        writer.close()
        return None
    if not head.startswith(b"HTTP/1.1 101"):
        writer.close()
        return None
    writer.write(_frame(json.dumps({"type": "hello", "role": "spectator"})))
    return reader, writer


async def _closed_within(reader: Any, seconds: float) -> bool:
    """True when the server ends the connection within ``seconds`` (what it sent is read)."""
    try:
        async with asyncio.timeout(seconds):
            while await reader.read(65536):
                pass
    except TimeoutError:
        return False
    except OSError:
        return True
    return True


# ---------------------------------------------------------------------- the friends


async def _healthz(port: int, figures: list[float], stop: asyncio.Event, out: Figures) -> None:
    request = b"GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
    while not stop.is_set():
        began = time.monotonic()
        status = await _status(port, FRIEND, request, timeout=10)
        if status == 200:
            figures.append(time.monotonic() - began)
        else:
            out.healthz_failed += 1
        await asyncio.sleep(0.2)


async def _play(port: int, game: dict[str, Any], stop: asyncio.Event, out: Figures) -> None:
    """Play seat 1 of ``game`` (against a bot) as fast as it goes, until ``stop``."""
    token = game["seats"][0]["token"]
    try:
        async with connect(
            f"ws://127.0.0.1:{port}{game['websocket']}", open_timeout=10, max_size=None
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            seen = -1
            while not stop.is_set():
                try:
                    message = json.loads(await asyncio.wait_for(ws.recv(), 1.0))
                except TimeoutError:
                    continue
                if message["type"] != "state" or message["version"] <= seen:
                    continue
                seen = message["version"]
                out.steps.append(time.monotonic())
                out.acked_version = seen
                if message["phase"] == "over":
                    await ws.send(json.dumps({"type": "rematch"}))
                    return
                if message["to_move"] != 1:
                    continue
                step: dict[str, Any] = {"type": "draw", "version": seen}
                if message["phase"] == "place":
                    step = {**step, "type": "play", "action": message["legal"][0]}
                await asyncio.sleep(0.05)
                await ws.send(json.dumps(step))
    except Exception as exc:
        out.game_error = f"{type(exc).__name__}: {exc}"


async def _watch_process(pid: int, stop: asyncio.Event, out: Figures) -> None:
    status = Path(f"/proc/{pid}/status")
    while not stop.is_set():
        with contextlib.suppress(OSError, ValueError):
            for line in status.read_text().splitlines():
                if line.startswith("VmRSS:"):
                    out.rss_mb.append(round(int(line.split()[1]) / 1024, 1))
            out.open_files.append(len(os.listdir(f"/proc/{pid}/fd")))
        await asyncio.sleep(0.5)


# ---------------------------------------------------------------------- the attackers


async def _slow_headers(port: int, source: str, count: int, seconds: float) -> list[Any]:
    """``count`` connections sending a header line every two seconds for ``seconds``; each
    is reported as ``("refused", None)``, or ``("held", s)`` with the seconds it was held."""

    async def one() -> tuple[str, float | None]:
        try:
            reader, writer = await _open(port, source)
        except (OSError, TimeoutError):
            return "refused", None
        began = time.monotonic()
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n")
        try:
            for n in range(int(seconds / 2)):
                try:
                    data = await asyncio.wait_for(reader.read(200), 2.0)
                except TimeoutError:
                    writer.write(f"X-Slow-{n}: 1\r\n".encode())
                    await writer.drain()
                    continue
                if data.startswith(b"HTTP/1.1 503"):
                    return "refused", None
                return "held", time.monotonic() - began  # closed by the server
        except OSError:
            return "held", time.monotonic() - began
        finally:
            writer.close()
        return "held", None

    return await asyncio.gather(*(one() for _ in range(count)))


async def _crowd(port: int, path: str, count: int, hold: float, out: Figures) -> None:
    sockets = await asyncio.gather(*(_spectator(port, _address(4), path) for _ in range(count)))
    kept = [s for s in sockets if s is not None]
    # A websocket accepted and then closed with "busy" counts as refused.
    await asyncio.sleep(1.0)
    for reader, _writer in kept:
        if await _closed_within(reader, 0.05):
            out.crowd_refused += 1
        else:
            out.crowd_accepted += 1
    out.crowd_refused += count - len(kept)
    await asyncio.sleep(hold)
    for _reader, writer in kept:
        writer.close()


async def _nonreaders(port: int, path: str, count: int, hold: float, out: Figures) -> None:
    sockets = await asyncio.gather(
        *(_spectator(port, _address(3), path, rcvbuf=4096) for _ in range(count))
    )
    kept = [s for s in sockets if s is not None]
    out.nonreaders = len(kept)
    await asyncio.sleep(hold)
    still = await asyncio.gather(*(_closed_within(reader, 2.0) for reader, _w in kept))
    out.nonreaders_open_at_end = sum(1 for closed in still if not closed)
    for _reader, writer in kept:
        writer.close()


async def _seat_link(url: str, token: str) -> Any:
    """A connection that said hello for the seat of ``token``, or ``None`` after five tries (in
    a crowd, a new connection may be turned away)."""
    for _attempt in range(5):
        try:
            ws = await connect(url, open_timeout=10, max_size=None, local_addr=(_address(5), 0))
        except (OSError, TimeoutError, InvalidHandshake):
            await asyncio.sleep(0.5)
            continue
        await ws.send(json.dumps({"type": "hello", "token": token}))
        return ws
    return None


async def _draw_to_place(ws: Any) -> None:
    """The seat of ``ws`` draws, so that it has a card to place and may ask for hints."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == "state" and message["phase"] == "draw":
            await ws.send(json.dumps({"type": "draw", "version": message["version"]}))
        if message["type"] == "state" and message["phase"] == "place":
            break


async def _hint_flood(port: int, game: dict[str, Any], seconds: float, out: Figures) -> None:
    token = game["seats"][0]["token"]
    url = f"ws://127.0.0.1:{port}{game['websocket']}"
    links = [ws for _ in range(10) if (ws := await _seat_link(url, token)) is not None]
    if not links:
        out.game_error = "the hint flood could not connect"
        return
    await _draw_to_place(links[0])

    async def flood(ws: Any) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            await ws.send(json.dumps({"type": "hint"}))
            await asyncio.sleep(0.05)

    async def listen(ws: Any) -> None:
        with contextlib.suppress(TimeoutError, Exception):
            async with asyncio.timeout(seconds + 3):
                async for raw in ws:
                    message = json.loads(raw)
                    if message["type"] == "hint":
                        out.hints_answered += 1
                    elif message["type"] == "error" and message["code"] == "rate_limited":
                        out.hints_refused += 1

    await asyncio.gather(*(flood(ws) for ws in links), *(listen(ws) for ws in links))
    for ws in links:
        await ws.close()


async def _forged(port: int, out: Figures) -> None:
    began = time.monotonic()
    for n in range(60):
        body = json.dumps({"seats": [{"kind": "person"}, {"kind": "bot"}]}).encode()
        request = (
            f"POST /api/games HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nX-Forwarded-For: 198.51.100.{n}\r\n"
            f"Content-Length: {len(body)}\r\n\r\n"
        ).encode() + body
        status = await _status(port, FRIEND, request)  # a local tunnel: no proxy header of its own
        if status == 201:
            out.forged_created += 1
        elif status == 429:
            out.forged_refused += 1
    out.forged_seconds = time.monotonic() - began


async def _foreign(port: int, path: str, out: Figures) -> None:
    for request in (
        b"GET /metrics HTTP/1.1\r\nHost: rebound.example\r\nConnection: close\r\n\r\n",
        b"POST /api/games HTTP/1.1\r\nHost: rebound.example:8000\r\nConnection: close\r\n"
        b"Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        _upgrade(path, host="rebound.example"),
    ):
        out.foreign_statuses.append(await _status(port, _address(7), request))


# ---------------------------------------------------------------------- the whole attack


async def attack(port: int, pid: int, seconds: float = 40.0) -> Figures:
    """Attack the server at ``port`` (process ``pid``) for ``seconds``; see the module."""
    out = Figures()
    quiet = asyncio.Event()
    await asyncio.gather(_healthz(port, out.quiet_healthz, quiet, out), _later(quiet, 2.0))
    out.healthz_failed = 0
    bots = await asyncio.to_thread(
        _http, port, "POST", "/api/games", {"seats": [{"kind": "person"}, {"kind": "bot"}]}
    )
    people = await asyncio.to_thread(
        _http, port, "POST", "/api/games", {"seats": [{"kind": "person"}, {"kind": "person"}]}
    )
    stop = asyncio.Event()
    friends = [
        asyncio.create_task(_healthz(port, out.healthz, stop, out)),
        asyncio.create_task(_play(port, bots, stop, out)),
        asyncio.create_task(_watch_process(pid, stop, out)),
    ]
    await asyncio.sleep(1.0)
    path = bots["websocket"]
    slow = asyncio.create_task(_slow_headers(port, _address(2), 60, seconds - 4))
    await asyncio.sleep(1.0)  # the slow ones are in (or refused) before the cap fills
    fillers = [
        asyncio.create_task(_slow_headers(port, _address(10 + n), 30, seconds - 4))
        for n in range(8)
    ]
    await asyncio.gather(
        _crowd(port, path, 300, seconds - 6, out),
        _nonreaders(port, path, 30, seconds - 8, out),
        _hint_flood(port, people, 10.0, out),
        _forged(port, out),
        _foreign(port, path, out),
    )
    for kind, held in await slow:
        if kind == "refused":
            out.slow_refused += 1
        else:
            out.slow_held.append(held)
    for filler in fillers:
        for kind, held in await filler:
            out.filler_total += 1
            out.filler_refused += kind == "refused"
            out.filler_closed += kind == "held" and held is not None
    await asyncio.sleep(3.0)  # the server lets go of what the attackers held
    stop.set()
    await asyncio.gather(*friends)
    with contextlib.suppress(OSError, ValueError):
        out.open_files.append(len(os.listdir(f"/proc/{pid}/fd")))
    state = await asyncio.to_thread(_http, port, "GET", f"/api/games/{bots['id']}/state")
    out.stored_version = int(state["version"])
    return out


async def _later(event: asyncio.Event, seconds: float) -> None:
    await asyncio.sleep(seconds)
    event.set()
