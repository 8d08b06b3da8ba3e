"""Where batches of games run: in this process, on local worker processes, or on a Ray cluster.

A run is cut into *tasks* (consecutive games or deals) and :func:`run_ordered` hands back each
task's result **in task order**, whichever worker finished it first, so the caller merges results
exactly as a single process would: the same arguments give the same output on any backend and
any number of workers. At most a few tasks per worker are in flight, so a long run holds only
a bounded number of results in memory.

* ``local`` (the default): ``workers`` processes of the standard library's
  :class:`~concurrent.futures.ProcessPoolExecutor`, started with ``spawn`` (safe beside threads,
  and the same on every platform); one worker plays in this process.
* ``ray``: tasks of Ray (``pip install 'hisss[dist]'``). With ``address`` it joins an existing
  cluster (``ray.init(address=...)``) and keeps as many tasks in flight as the cluster has CPUs;
  without, it starts a local Ray with ``num_cpus=workers`` (no dashboard, usage statistics off
  unless the environment says otherwise) and stops it at the end. When Ray is already initialised
  in this process (a notebook, a test fixture), that instance is used and left running.

The kinds are the members of :class:`BackendKind`. The task function must be importable by the
workers (a module-level function of the package).

>>> list(run_ordered(abs, [(-3,), (4,), (-5,)], Backend()))
[3, 4, 5]
"""

from __future__ import annotations

import importlib
import logging
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, TypeVar

from hisss.core import ConfigError, HisssError

R = TypeVar("R")

#: Tasks kept in flight per worker.
IN_FLIGHT_PER_WORKER = 2


class BackendKind(StrEnum):
    """Where tasks run; the values are the spellings of ``--backend``."""

    LOCAL = "local"
    RAY = "ray"


@dataclass(frozen=True, slots=True)
class Backend:
    """Where tasks run: the kind (a :class:`BackendKind` or its spelling, kept as the
    :class:`BackendKind`), the number of workers, a Ray address."""

    kind: BackendKind | str = BackendKind.LOCAL
    workers: int = 1
    address: str | None = None

    def __post_init__(self) -> None:
        try:
            kind = BackendKind(self.kind)
        except ValueError:
            raise ConfigError(
                f"unknown backend {self.kind!r} (backends: {', '.join(BackendKind)})"
            ) from None
        object.__setattr__(self, "kind", kind)
        if isinstance(self.workers, bool) or not isinstance(self.workers, int) or self.workers < 1:
            raise ConfigError(f"workers must be a whole number of at least 1, not {self.workers!r}")
        if self.address is not None and kind is not BackendKind.RAY:
            raise ConfigError("an address is given only with the ray backend (--backend ray)")
        if self.address is not None and not self.address.strip():
            raise ConfigError("the Ray address is empty: give host:port, or leave it out")

    @property
    def parallel(self) -> bool:
        """True when tasks run outside this process."""
        return self.kind is BackendKind.RAY or self.workers > 1


def run_ordered(
    fn: Callable[..., R], tasks: Sequence[tuple[Any, ...]], backend: Backend
) -> Iterator[R]:
    """Yield ``fn(*task)`` for every task, in task order, computed on ``backend``.

    Errors of the package raised by a task are raised again here as they were (a Ray task's
    wrapper is taken off). Closing the iterator early cancels the tasks not yet started.
    """
    if not tasks:
        return iter(())
    if backend.kind is BackendKind.RAY:
        return _ray_ordered(fn, tasks, backend)
    if backend.workers == 1 or len(tasks) == 1:
        return (fn(*task) for task in tasks)
    return _pool_ordered(fn, tasks, backend.workers)


def _pool_ordered(
    fn: Callable[..., R], tasks: Sequence[tuple[Any, ...]], workers: int
) -> Iterator[R]:
    context = multiprocessing.get_context("spawn")
    window = workers * IN_FLIGHT_PER_WORKER
    with ProcessPoolExecutor(max_workers=min(workers, len(tasks)), mp_context=context) as pool:
        pending: list[Future[R]] = []
        submitted = 0
        try:
            for index in range(len(tasks)):
                while submitted < len(tasks) and submitted < index + window:
                    pending.append(pool.submit(fn, *tasks[submitted]))
                    submitted += 1
                yield pending.pop(0).result()
        finally:
            for future in pending:
                future.cancel()


def _import_ray() -> Any:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise ConfigError("the ray backend needs Ray: pip install 'hisss[dist]'") from None


def _ray_ordered(
    fn: Callable[..., R], tasks: Sequence[tuple[Any, ...]], backend: Backend
) -> Iterator[R]:
    ray = _import_ray()
    started = False
    if not ray.is_initialized():
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
        try:
            quiet = {
                "include_dashboard": False,
                "log_to_driver": False,
                "logging_level": logging.ERROR,
            }
            if backend.address is not None:
                ray.init(address=backend.address, **quiet)
            else:
                ray.init(num_cpus=backend.workers, **quiet)
        except (ConnectionError, RuntimeError, ValueError) as exc:
            where = backend.address or "a local instance"
            raise ConfigError(f"cannot start Ray on {where}: {exc}") from None
        started = True
    try:
        cpus = int(ray.cluster_resources().get("CPU", backend.workers))
        window = max(1, cpus) * IN_FLIGHT_PER_WORKER
        remote = ray.remote(num_cpus=1)(fn)
        pending: list[Any] = []
        submitted = 0
        try:
            for index in range(len(tasks)):
                while submitted < len(tasks) and submitted < index + window:
                    pending.append(remote.remote(*tasks[submitted]))
                    submitted += 1
                ref = pending.pop(0)
                try:
                    result: R = ray.get(ref)
                except ray.exceptions.RayTaskError as exc:
                    cause = exc.cause
                    if isinstance(cause, HisssError):
                        raise cause from None
                    raise
                yield result
        finally:
            for ref in pending:
                ray.cancel(ref)
    finally:
        if started:
            ray.shutdown()


__all__ = ["Backend", "BackendKind", "run_ordered"]
