"""Compiling the expert's kernel ahead of its first use, so that nobody waits for it.

numba compiles :mod:`hisss.kernel.rollout` on its first use, which takes long after an install
(later processes load the cached code much faster: ``docs/operations.md`` has the figures). The
interactive front ends (``hisss serve``, ``hisss play``) call :func:`start_warming` as they start: a
child process, at a low priority, compiles the kernel into numba's on-disk cache, then this process
loads it from there. Until then :func:`is_warming` is true and the expert plays ``careful``'s
placement instead of waiting (:mod:`hisss.bots.expert`). Where numba cannot cache (a read-only
install without ``NUMBA_CACHE_DIR``) the thread compiles in this process instead.

Without a warm-up started (simulations, tournaments, benchmarks) nothing changes: the first
rollout compiles, or loads, the kernel where it is called, so results never depend on timing.

``hisss warm`` compiles every kernel at once, for an install step or an image. This module imports
neither numba nor numpy until a warm-up runs.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import subprocess
import sys
import threading
import time

#: What the child process runs: compile the rollouts into the cache, at a low priority.
_CHILD = (
    "import os\n"
    "os.nice(10) if hasattr(os, 'nice') else None\n"
    "from hisss.kernel.rollout import warm_up\n"
    "warm_up()\n"
)
#: The longest a child compile may take before the thread compiles here instead, in seconds.
CHILD_SECONDS = 900.0


class _Warming:
    """The one warm-up of this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.thread: threading.Thread | None = None
        self.done = threading.Event()
        #: Seconds from the start to the kernel being ready, once it is.
        self.seconds: float | None = None
        #: Why the kernel could not be made ready (numba missing, a compile error), if so.
        self.failure: str | None = None


_WARMING = _Warming()


def start_warming(child: bool = True) -> bool:
    """Start making the expert's kernel ready in the background (once per process); False when
    numba or numpy is missing, so there is nothing to warm. ``child`` compiles in a child process
    when numba can cache (the default), else in a thread here."""
    if importlib.util.find_spec("numba") is None or importlib.util.find_spec("numpy") is None:
        return False
    with _WARMING.lock:
        if _WARMING.thread is None:
            thread = threading.Thread(
                target=_warm, args=(child,), name="hisss-kernel-warm-up", daemon=True
            )
            _WARMING.thread = thread
            thread.start()
    return True


def is_warming() -> bool:
    """True while a warm-up started by :func:`start_warming` has not finished: the kernel is not
    ready, and a caller that must not wait plays without it."""
    return _WARMING.thread is not None and not _WARMING.done.is_set()


def wait_until_warm(timeout: float | None = None) -> bool:
    """Wait for a started warm-up to finish; True when none runs any more."""
    return _WARMING.thread is None or _WARMING.done.wait(timeout)


def warm_seconds() -> float | None:
    """The seconds the warm-up of this process took to make the kernel ready, once it has."""
    return _WARMING.seconds


def _warm(child: bool) -> None:
    start = time.perf_counter()
    try:
        steps = importlib.import_module("hisss.kernel.steps")
        if child and steps._CACHE:
            # Compiled in a child, the code lands in numba's cache and loading it below is
            # quick; if the child fails, the import below compiles here.
            _compile_in_child()
        rollout = importlib.import_module("hisss.kernel.rollout")
        rollout.warm_up()
    except Exception as exc:  # a compile error must not stop the game: the expert waits then
        _WARMING.failure = f"{type(exc).__name__}: {exc}"
    finally:
        _WARMING.seconds = time.perf_counter() - start
        _WARMING.done.set()


def _compile_in_child() -> bool:
    """Compile the rollouts in a child process (into numba's cache); True when it succeeded."""
    try:
        result = subprocess.run(
            [sys.executable, "-c", _CHILD],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=CHILD_SECONDS,
            check=False,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


__all__ = [
    "CHILD_SECONDS",
    "is_warming",
    "start_warming",
    "wait_until_warm",
    "warm_seconds",
]
