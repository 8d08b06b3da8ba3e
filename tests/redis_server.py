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
import time
from dataclasses import dataclass
from pathlib import Path

from pg import free_port

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
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1) as sock:
                sock.sendall(b"PING\r\n")
                if sock.recv(16).startswith(b"+PONG"):
                    return server
        except OSError:
            time.sleep(0.05)
    text = (directory / "log").read_text(errors="replace")
    server.stop()
    raise RuntimeError(f"redis-server did not start:\n{text}")
