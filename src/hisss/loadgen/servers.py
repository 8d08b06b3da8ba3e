"""The servers a load test starts: ``hisss serve`` on 127.0.0.1 in a subprocess of its own
(:class:`LocalServer`, running this module), on its own half of the CPUs where there are two or
more (:func:`split_cpus`), with the CPU time it used read from ``/proc``."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from hisss.core import HisssError

#: The line a started server prints once it listens.
READY = re.compile(r"Hisss is ready: open (http://127\.0\.0\.1:\d+/)")

#: The keys of the JSON summary, in order.


class LoadTestError(HisssError):
    """The load test could not run (the server did not start, a bad address)."""


def process_cpu_seconds(pid: int) -> float | None:
    """The user and system CPU seconds of process ``pid`` from Linux's ``/proc``; ``None``
    elsewhere or when the process is gone.

    >>> process_cpu_seconds(os.getpid()) > 0 if Path("/proc/self/stat").exists() else True
    True
    """
    try:
        text = Path(f"/proc/{pid}/stat").read_text(encoding="ascii")
    except OSError:
        return None
    # The command name (field 2) may hold spaces: the fields that follow come after its ")".
    fields = text.rpartition(")")[2].split()
    utime, stime = int(fields[11]), int(fields[12])  # fields 14 and 15 of proc(5)
    return (utime + stime) / os.sysconf("SC_CLK_TCK")


class LocalServer:
    """This module run as a server subprocess on 127.0.0.1 with a database URL."""

    def __init__(
        self,
        database: str,
        directory: Path,
        cpus: tuple[int, ...] | None = None,
        *,
        redis: str | None = None,
        name: str = "server",
    ) -> None:
        self.database = database
        self.directory = directory
        #: The CPUs the server runs on (``None``: any).
        self.cpus = cpus
        #: The Redis it shares its games' news through with other servers (``None``: none).
        self.redis = redis
        self.name = name
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""

    def start(self, timeout: float = 60) -> str:
        """Start the server; its address once it is ready. Raises :class:`LoadTestError`."""
        out = self.directory / f"{self.name}.out"
        command = [sys.executable, "-m", "hisss.loadgen.servers", self.database]
        if self.cpus:
            command += ["--cpus", ",".join(map(str, self.cpus))]
        if self.redis:
            command += ["--redis", self.redis]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with out.open("wb") as stdout:
            self.proc = subprocess.Popen(command, stdout=stdout, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            found = READY.search(out.read_text(encoding="utf-8", errors="replace"))
            if found:
                self.url = found.group(1)
                return self.url
            if self.proc.poll() is not None:
                break
            time.sleep(0.05)
        self.stop()
        tail = out.read_text(encoding="utf-8", errors="replace")[-2000:]
        raise LoadTestError(f"the server did not start:\n{tail}")

    def cpu_seconds(self) -> float | None:
        """The CPU time (user and system, every thread) the server process has used so far;
        ``None`` where the system does not show it (no ``/proc``)."""
        if self.proc is None:
            return None
        return process_cpu_seconds(self.proc.pid)

    def stop(self) -> None:
        """Stop the server (SIGTERM, then SIGKILL after 30 s)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=30)


def split_cpus() -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The CPUs for a started server and for the load generator: the first half of the CPUs
    this process may use, and the rest. ``None`` with fewer than two, or where the system does
    not let a program choose its CPUs.

    The load generator does about half as much work as the server. On the same CPUs the two
    take turns on them and the server's figures include the generator's disturbance; on CPUs of
    their own the figures are more nearly the server's alone (on a two-CPU virtual machine, in
    ten runs paired with runs on shared CPUs, the server's CPU per step was lower in eight, by
    7 % on average).

    >>> split = split_cpus()
    >>> split is None or (set(split[0]).isdisjoint(split[1]) and len(split[0]) >= 1)
    True
    """
    getaffinity = getattr(os, "sched_getaffinity", None)
    if getaffinity is None:
        return None
    cpus = sorted(getaffinity(0))
    if len(cpus) < 2:
        return None
    half = len(cpus) // 2
    return tuple(cpus[:half]), tuple(cpus[half:])


@contextlib.contextmanager
def running_on(cpus: tuple[int, ...]) -> Iterator[None]:
    """Run the calling thread (and the threads it starts meanwhile) on ``cpus``, then as
    before."""
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, cpus)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def _serve_main(argv: list[str]) -> None:
    """The server subprocess: ``hisss serve`` on any free port of 127.0.0.1, tuned for load."""
    import logging  # noqa: PLC0415

    from hisss.server.run import serve  # noqa: PLC0415
    from hisss.server.settings import Settings  # noqa: PLC0415

    options = dict(zip(argv[1::2], argv[2::2], strict=True))
    if "--cpus" in options:  # the CPUs of its own (see split_cpus), before any thread starts
        os.sched_setaffinity(0, [int(cpu) for cpu in options["--cpus"].split(",")])
    logging.basicConfig(level=logging.WARNING)
    settings = Settings(
        database=argv[0],
        redis=options.get("--redis"),
        bot_delay=0.0,
        http_rate_per_second=0.0,
        lookup_rate_per_second=0.0,
        # Every client of the load test comes from one address.
        max_connections_per_address=1_000_000,
    )
    serve(settings, "127.0.0.1", 0)


if __name__ == "__main__":
    _serve_main(sys.argv[1:])
