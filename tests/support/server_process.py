"""Run the real server, ``hisss serve``, in a subprocess for end-to-end tests.

:class:`ServerProcess` starts ``python -m hisss.cli serve --port 0`` on 127.0.0.1 with a given
database, waits for its "Hisss is ready: open http://127.0.0.1:PORT/" line, and stops it (SIGTERM)
or kills it (SIGKILL). Its output goes to files, so a chatty server never blocks on a full pipe,
and :meth:`ServerProcess.output` gives both streams for checks (no token in the logs).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from types import TracebackType
from typing import Any

from support.markers import require
from support.waiting import WaitTimeoutError, wait_until

READY = re.compile(r"Hisss is ready: open (http://127\.0\.0\.1:(\d+)/)")


class ServerProcess:
    """One run of ``hisss serve``; a context manager that stops it at the end."""

    def __init__(
        self,
        database: str,
        directory: Path,
        *,
        bot_delay: float = 0.0,
        args: tuple[str, ...] = (),
        name: str = "serve",
        command: list[str] | None = None,
    ) -> None:
        self.database = database
        #: Another command that prints the same ready line (e.g. the load test's server).
        self.command = command
        self.directory = directory
        self.bot_delay = bot_delay
        #: More options of ``hisss serve`` (a later ``--port`` wins over ``--port 0``).
        self.args = args
        #: The prefix of the output files, for several servers sharing ``directory``.
        self.name = name
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.runs = 0
        self.started_in = 0.0

    @property
    def ws_url(self) -> str:
        """The server's address for websockets."""
        return self.url.replace("http://", "ws://", 1).rstrip("/")

    def start(self, timeout: float = 30) -> ServerProcess:
        """Start the server and wait until it says it is ready."""
        require("system", "a server process")
        self.runs += 1
        out = self.directory / f"{self.name}-{self.runs}.out"
        err = self.directory / f"{self.name}-{self.runs}.err"
        command = [
            sys.executable,
            "-m",
            "hisss.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--database",
            self.database,
            "--bot-delay",
            str(self.bot_delay),
            *self.args,
        ]
        if self.command is not None:
            command = self.command
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        began = time.monotonic()
        with out.open("wb") as stdout, err.open("wb") as stderr:
            proc = self.proc = subprocess.Popen(command, stdout=stdout, stderr=stderr, env=env)
        try:
            found = wait_until(
                lambda: (
                    READY.search(out.read_text(encoding="utf-8", errors="replace"))
                    or proc.poll() is not None
                ),
                what="the server to say it is ready",
                timeout=timeout,
            )
        except WaitTimeoutError as exc:
            why = str(exc)
        else:
            if isinstance(found, re.Match):
                self.url = found.group(1)
                self.started_in = time.monotonic() - began
                return self
            why = f"exit status {proc.returncode}"
        self.kill()
        raise AssertionError(f"the server did not start ({why}):\n{self.output()}")

    def kill(self) -> None:
        """SIGKILL: the server gets no chance to tidy up."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> int:
        """SIGTERM, a clean shutdown; returns the exit status."""
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.proc.returncode

    def output(self) -> str:
        """Everything every run of the server wrote, stdout and stderr."""
        parts = []
        for path in sorted(self.directory.glob(f"{self.name}-*")):
            parts.append(f"--- {path.name}\n{path.read_text(encoding='utf-8', errors='replace')}")
        return "\n".join(parts)

    def request(self, method: str, path: str, body: object = None) -> Any:
        """An HTTP request to the server; the decoded JSON answer (errors raise)."""
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.url.rstrip("/") + path,
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=30) as answer:
            text = answer.read().decode()
        return json.loads(text)

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
