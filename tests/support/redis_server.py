"""A throw-away Redis server for the tests: ``redis-server`` on a free port of 127.0.0.1, nothing
saved to disk, stopped at the end.

The binary comes from the Debian package ``redis-server``. Set ``HISSS_TEST_REDIS_URL``
(``redis://host:port``) to use a server that already runs instead.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from support.markers import require
from support.pg import free_port
from support.waiting import WaitTimeoutError, wait_until

MISSING = (
    "the Redis tests need redis-server and found none on the PATH: install it with "
    "`apt-get install -y redis-server` (Debian), or set HISSS_TEST_REDIS_URL to a running server"
)


class RedisMissingError(RuntimeError):
    """No redis-server on this machine."""


@dataclass
class RedisServer:
    """A running server at ``url`` (``redis://127.0.0.1:PORT``)."""

    url: str
    proc: subprocess.Popen[bytes] | None = None
    directory: Path | None = None

    def stop(self) -> None:
        """Stop the server and remove its directory."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
        if self.directory is not None:
            shutil.rmtree(self.directory, ignore_errors=True)
            self.directory = None


def start() -> RedisServer:
    """Start a server (or use ``HISSS_TEST_REDIS_URL``); raises :class:`RedisMissingError`."""
    external = os.environ.get("HISSS_TEST_REDIS_URL")
    if external:
        return RedisServer(url=external.rstrip("/"))
    binary = shutil.which("redis-server")
    if binary is None:
        raise RedisMissingError(MISSING)
    require("redis", "a Redis server")
    directory = Path(tempfile.mkdtemp(prefix="hisss-redis-"))
    port = free_port()
    command = [
        binary,
        "--port",
        str(port),
        "--bind",
        "127.0.0.1",
        "--save",
        "",
        "--appendonly",
        "no",
        "--daemonize",
        "no",
        "--dir",
        str(directory),
    ]
    with (directory / "log").open("wb") as log:
        proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    server = RedisServer(url=f"redis://127.0.0.1:{port}", proc=proc, directory=directory)
    try:
        wait_until(
            lambda: proc.poll() is not None or _answers(port),
            what="redis-server to answer PING",
            timeout=20,
        )
    except WaitTimeoutError as exc:
        why = str(exc)
    else:
        if proc.poll() is None:
            return server
        why = f"exit status {proc.returncode}"
    text = (directory / "log").read_text(errors="replace")
    server.stop()
    raise RuntimeError(f"redis-server did not start ({why}):\n{text}")


def _answers(port: int) -> bool:
    """True when a server on ``port`` answers PING."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False
