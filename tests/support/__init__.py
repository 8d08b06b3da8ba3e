"""Helpers the test modules share; none of them is collected as tests.

``conftest.py`` puts the ``tests`` folder on ``sys.path`` (pytest runs in importlib mode), so a test
module imports them as ``from support import pg`` or ``from support.web import hello``:

* ``browser``: a ``hisss serve`` and the system's Chromium for the browser tests (a plugin module);
* ``engine_games``: a game of the ``v1`` learning environments rebuilt in the engine, its
  opponents' moves from the bots' single step (``next_decision``);
* ``markers``: the markers of tests that start something, and the check that they carry them;
* ``oracle``: a naive second implementation of where a card may go;
* ``pg``, ``redis_server``: throw-away PostgreSQL and Redis servers;
* ``server_process``: ``hisss serve`` in a subprocess;
* ``strategies``: Hypothesis strategies for game set-ups, and position snapshots;
* ``tui``: the terminal game driven by Textual's pilot;
* ``waiting``: waiting for a condition, with a deadline and a message that names it;
* ``web``: the in-process server's API and websocket, as the tests talk to it.
"""
