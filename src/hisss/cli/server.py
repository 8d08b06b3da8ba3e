"""The commands of the web game: ``serve`` runs the server, ``loadtest`` measures one.

Both import the server, and so the ``web`` extra, only when they run.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from hisss.cli.output import errors, stdout
from hisss.core import ConfigError


@contextmanager
def _web_extra(command: str, install: str) -> Iterator[None]:
    """Imports of the web extra; a missing one ends the command with how to install it."""
    try:
        yield
    except ImportError as exc:
        raise ConfigError(
            f"hisss {command} needs the web extra ({exc.name} is missing): {install}"
        ) from None


def _names(text: str) -> tuple[str, ...]:
    """The comma-separated names of an option."""
    return tuple(name.strip() for name in text.split(",") if name.strip())


def serve_command(
    host: Annotated[
        str, typer.Option("--host", metavar="HOST", help="The address to listen on.")
    ] = "127.0.0.1",
    port: Annotated[
        int, typer.Option("--port", metavar="PORT", min=0, max=65535, help="The port (0: any).")
    ] = 8000,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            help="sqlite:///FILE or postgresql://USER:PASSWORD@HOST/DATABASE (default: hisss.db "
            "in the user's data directory).",
        ),
    ] = None,
    bot_delay: Annotated[
        float,
        typer.Option(
            "--bot-delay",
            metavar="SECONDS",
            min=0,
            help="How long a bot's move (draw and placement) takes at the normal pace; the fast "
            "and slow paces a game may choose take 5/14 and 16/7 of it.",
        ),
    ] = 0.7,
    away_seconds: Annotated[
        float,
        typer.Option(
            "--away-seconds",
            metavar="SECONDS",
            min=0,
            help="How long a player must be gone before the others may hand the seat to a bot.",
        ),
    ] = 60.0,
    unseen_seconds: Annotated[
        float,
        typer.Option(
            "--unseen-seconds",
            metavar="SECONDS",
            min=0,
            help="How long a seat whose player never connected (the link not opened yet) waits "
            "before the others may hand it to a bot.",
        ),
    ] = 600.0,
    idle_seconds: Annotated[
        float,
        typer.Option(
            "--idle-seconds",
            metavar="SECONDS",
            min=0,
            help="How long after its last step a game nobody follows leaves the lobby's list of "
            "games being played.",
        ),
    ] = 900.0,
    database_timeout: Annotated[
        float,
        typer.Option(
            "--database-timeout",
            metavar="SECONDS",
            min=0.1,
            help="How long a wait on the database may last before the request fails.",
        ),
    ] = 10.0,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            help="redis://HOST:PORT/DB: share game updates and presence with the other server "
            "processes of the same PostgreSQL database.",
        ),
    ] = None,
    reuse_port: Annotated[
        bool,
        typer.Option(
            "--reuse-port",
            help="Let several server processes listen on the same port (Linux SO_REUSEPORT).",
        ),
    ] = False,
    metrics: Annotated[
        str,
        typer.Option(
            "--metrics",
            metavar="on|local|off",
            help="GET /metrics (Prometheus): for anyone, for clients on this machine only, or "
            "not served.",
        ),
    ] = "on",
    log_format: Annotated[
        str,
        typer.Option(
            "--log-format",
            metavar="text|json",
            help="Log lines as text, or as JSON objects naming the request and the game.",
        ),
    ] = "text",
    forwarded_allow_ips: Annotated[
        str,
        typer.Option(
            "--forwarded-allow-ips",
            metavar="ADDRESSES",
            help="Proxies (addresses or networks, comma-separated; * for any) whose "
            "X-Forwarded-For and X-Forwarded-Proto are believed (default: none).",
        ),
    ] = "",
    allowed_hosts: Annotated[
        str | None,
        typer.Option(
            "--allowed-hosts",
            metavar="NAMES",
            help="Host names the server answers to, comma-separated (*.example.org for "
            "subdomains, * for any); others get 400 (default: localhost and the --host "
            "address).",
        ),
    ] = None,
    max_connections: Annotated[
        int | None,
        typer.Option(
            "--max-connections",
            metavar="N",
            min=16,
            help="Open connections in all (default: sized from the open-file limit, which the "
            "server raises to its hard limit).",
        ),
    ] = None,
    max_connections_per_address: Annotated[
        int,
        typer.Option(
            "--max-connections-per-address",
            metavar="N",
            min=1,
            help="Open connections (HTTP and websocket) from one client address.",
        ),
    ] = 50,
) -> None:
    """Run the web game: play Hisss in the browser, against bots or with friends online.

    Prints the address to open. Every game is stored in the database as it is played, so
    stopping and starting the server again loses nothing.
    """
    with errors():
        with _web_extra("serve", "pip install 'hisss[web]'"):
            from hisss.server import Settings, serve  # noqa: PLC0415
            from hisss.server.logs import configure  # noqa: PLC0415
            from hisss.storage import database_url, default_database_url  # noqa: PLC0415
        url = database_url(database) if database is not None else default_database_url()
        settings = Settings(
            database=url,
            bot_delay=bot_delay,
            away_seconds=away_seconds,
            unseen_seconds=unseen_seconds,
            idle_seconds=idle_seconds,
            database_timeout=database_timeout,
            redis=redis,
            metrics=metrics,
            log_format=log_format,
            forwarded_allow_ips=_names(forwarded_allow_ips),
            allowed_hosts=None if allowed_hosts is None else _names(allowed_hosts),
            max_connections=max_connections,
            max_connections_per_address=max_connections_per_address,
        )
        configure(settings.log_format)
        try:
            serve(settings, host, port, announce=typer.echo, reuse_port=reuse_port)
        except KeyboardInterrupt:
            typer.echo("stopped", err=True)


def loadtest_command(
    games: Annotated[
        int, typer.Option("--games", metavar="N", min=1, help="Concurrent games.")
    ] = 20,
    seconds: Annotated[
        float,
        typer.Option("--seconds", metavar="S", min=0.1, help="How long to measure them."),
    ] = 10.0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
    url: Annotated[
        str | None,
        typer.Option("--url", metavar="URL", help="A running server (default: start one)."),
    ] = None,
    database: Annotated[
        str | None,
        typer.Option(
            "--database",
            metavar="URL",
            help="The started server's database (default: a temporary SQLite file).",
        ),
    ] = None,
    think: Annotated[
        float,
        typer.Option(
            "--think", metavar="SECONDS", min=0, help="A player's mean pause before each step."
        ),
    ] = 1.0,
    ramp: Annotated[
        float,
        typer.Option(
            "--ramp",
            metavar="SECONDS",
            min=0,
            help="Start the games over this time, before the measured seconds.",
        ),
    ] = 5.0,
    level: Annotated[
        str, typer.Option("--level", metavar="LEVEL", help="The bot that picks the actions.")
    ] = "easy",
    seed: Annotated[int, typer.Option("--seed", help="Seed of the players' choices.")] = 1,
    shared_cpus: Annotated[
        bool,
        typer.Option(
            "--shared-cpus",
            help="Let the started server and the load generator share every CPU (default: "
            "each runs on its own half of them, where there are two or more).",
        ),
    ] = False,
    redis: Annotated[
        str | None,
        typer.Option(
            "--redis",
            metavar="URL",
            help="Start two servers sharing --database (PostgreSQL) and their news through this "
            "Redis, each game's players one on each.",
        ),
    ] = None,
) -> None:
    """Drive N concurrent online games over websockets and report throughput and latency.

    Starts a server on 127.0.0.1 unless --url is given (two with --redis). Reports actions per
    second, the p50 and p99 time from sending a step to receiving the state that holds it (and
    to the other player receiving it: peer_p50_ms, peer_p99_ms), errors, and lost actions
    (acknowledged steps missing from the stored games).
    """
    with errors():
        with _web_extra("loadtest", "pip install -e '.[web]'"):
            from hisss.loadgen.loadtest import KEYS, Crowd, Figures, run_loadtest  # noqa: PLC0415
            from hisss.storage import database_url  # noqa: PLC0415
        db = database_url(database) if database is not None else None
        run = functools.partial(
            run_loadtest,
            games,
            seconds,
            url=url,
            database=db,
            crowd=Crowd(level, think, ramp, seed),
            separate_cpus=not shared_cpus,
            redis=redis,
        )
        if as_json:
            figures = run()
            typer.echo(json.dumps(figures.summary()))
            return
        console = Console(stderr=True)
        with console.status("starting") as status:

            def progress(figures: Figures) -> None:
                status.update(
                    f"{figures.games} games, {len(figures.latencies)} actions, "
                    f"{figures.errors} errors"
                )

            figures = run(progress=progress)
        table = Table(title=f"hisss loadtest: {games} concurrent games, {seconds:g} s")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, value in zip(KEYS, figures.summary().values(), strict=True):
            table.add_row(key, str(value))
        for kind, count in sorted(figures.error_kinds.items()):
            table.add_row(f"error {kind}", str(count))
        if figures.throttled:
            table.add_row("games refused by the rate limit (retried)", str(figures.throttled))
        if figures.reconnects:
            table.add_row("seats connected again (server restarts)", str(figures.reconnects))
        if figures.unreachable:
            table.add_row("games not created: no server (retried)", str(figures.unreachable))
        stdout().print(table)
