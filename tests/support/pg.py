"""A throw-away PostgreSQL server for the tests: ``initdb`` into a temporary directory, ``pg_ctl
start`` on a free port of 127.0.0.1, one fresh database per test, ``pg_ctl stop`` at the end.

The server binaries come from the Debian package ``postgresql`` (``/usr/lib/postgresql/*/bin``).
``initdb`` refuses to run as root, so as root the server runs as the ``postgres`` user. Set
``HISSS_TEST_POSTGRES_URL`` (``postgresql://user:password@host:port``, no database) to use a
server that already runs instead.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from support.markers import require

MISSING = (
    "the PostgreSQL tests need the PostgreSQL server binaries (initdb, pg_ctl) and found none "
    "under /usr/lib/postgresql/*/bin: install them with `apt-get install -y postgresql` (Debian), "
    "or set HISSS_TEST_POSTGRES_URL to a running server"
)


class PostgresMissingError(RuntimeError):
    """No PostgreSQL binaries on this machine."""


def free_port() -> int:
    """A TCP port of 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def find_bin() -> Path:
    """The directory of the newest PostgreSQL server binaries."""
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"),
        key=lambda p: (
            int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0
        ),
    )
    if not found:
        initdb = shutil.which("initdb")
        if initdb is None:
            raise PostgresMissingError(MISSING)
        return Path(initdb).parent
    return Path(found[-1]).parent


@dataclass
class PostgresServer:
    """A running server: ``url`` has no database name; :meth:`database` makes one."""

    url: str
    directory: Path | None = None
    bin: Path | None = None
    user: str | None = None
    counter: int = 0

    def stop(self) -> None:
        """Stop the server fast and remove its files."""
        if self.directory is None or self.bin is None:
            return
        _run(
            [
                str(self.bin / "pg_ctl"),
                "-D",
                str(self.directory / "data"),
                "-m",
                "immediate",
                "stop",
            ],
            self.user,
            check=False,
        )
        shutil.rmtree(self.directory, ignore_errors=True)
        self.directory = None

    def pause(self) -> None:
        """Stop the server at once (``-m immediate``), keeping its files for :meth:`resume`."""
        assert self.directory is not None and self.bin is not None, "not a server started here"
        data = str(self.directory / "data")
        _run([str(self.bin / "pg_ctl"), "-D", data, "-m", "immediate", "-w", "stop"], self.user)

    def freeze(self) -> None:
        """Suspend every process of the server (SIGSTOP): connections stay open and new ones are
        accepted by the kernel, but nothing answers, as with a hung machine. :meth:`thaw` ends
        it."""
        for pid in self._pids():
            os.kill(pid, signal.SIGSTOP)

    def thaw(self) -> None:
        """Let a frozen server run again (SIGCONT)."""
        for pid in self._pids():
            os.kill(pid, signal.SIGCONT)

    def _pids(self) -> list[int]:
        """The postmaster and its children."""
        assert self.directory is not None, "not a server started here"
        main = int((self.directory / "data" / "postmaster.pid").read_text().split()[0])
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                # pid (comm) state ppid ...: comm may hold spaces, so split after its ")".
                fields = stat.read_text().rsplit(")", 1)[1].split()
            except (OSError, IndexError):
                continue  # gone meanwhile
            if int(fields[1]) == main:
                children.append(int(stat.parent.name))
        return [main, *children]

    def resume(self) -> None:
        """Start a paused server again on the same port and files."""
        assert self.directory is not None and self.bin is not None, "not a server started here"
        port = self.url.rsplit(":", 1)[1]
        _pg_ctl_start(self.bin, self.directory, int(port), self.user)


def _run(args: list[str], user: str | None, check: bool = True) -> subprocess.CompletedProcess[str]:
    command = ["runuser", "-u", user, "--", *args] if user else args
    proc = subprocess.run(command, capture_output=True, text=True, check=False, timeout=120)
    if check and proc.returncode != 0:
        raise RuntimeError(
            f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}"
        )
    return proc


def _pg_ctl_start(bin_dir: Path, directory: Path, port: int, user: str | None) -> None:
    """``pg_ctl start`` the cluster in ``directory`` on ``port``; waits until it answers."""
    # The server's own durability is not under test (the tests kill the hisss server, never
    # PostgreSQL), so fsync is off for speed.
    options = (
        f"-p {port} -k {directory} -c listen_addresses=127.0.0.1 "
        "-c fsync=off -c full_page_writes=off"
    )
    _run(
        [
            str(bin_dir / "pg_ctl"),
            "-D",
            str(directory / "data"),
            "-l",
            str(directory / "log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        ],
        user,
    )


def start() -> PostgresServer:
    """Start a server (or use ``HISSS_TEST_POSTGRES_URL``); raises :class:`PostgresMissingError`."""
    external = os.environ.get("HISSS_TEST_POSTGRES_URL")
    if external:
        return PostgresServer(url=external.rstrip("/"))
    bin_dir = find_bin()
    require("postgres", "a PostgreSQL server")
    user = "postgres" if os.geteuid() == 0 else None
    directory = Path(tempfile.mkdtemp(prefix="hisss-pg-"))
    if user:
        shutil.chown(directory, user)
    data = directory / "data"
    _run(
        [
            str(bin_dir / "initdb"),
            "-D",
            str(data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
        user,
    )
    port = free_port()
    _pg_ctl_start(bin_dir, directory, port, user)
    return PostgresServer(
        url=f"postgresql://postgres@127.0.0.1:{port}", directory=directory, bin=bin_dir, user=user
    )


async def create_database(server: PostgresServer) -> str:
    """A new empty database on ``server``; returns its asyncpg URL for SQLAlchemy."""
    import asyncpg  # type: ignore[import-untyped]  # noqa: PLC0415

    server.counter += 1
    name = f"hisss_test_{os.getpid()}_{server.counter}"
    admin = await asyncpg.connect(f"{server.url}/postgres")
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    return f"{server.url.replace('postgresql://', 'postgresql+asyncpg://', 1)}/{name}"
