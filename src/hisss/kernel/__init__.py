"""The compiled rules: the game's steps for numba, shared by the bots and the simulation.

:mod:`hisss.kernel.steps` lists legal placements, applies them and scores a game on a table of
small numbers; :mod:`hisss.kernel.rollout` plays ``careful`` (the one-draw lookahead of
:mod:`hisss.bots.careful`, exactly) with those steps and rolls games out to their end for the
expert; :mod:`hisss.kernel.tables` turns the core's rules, cards and positions into the arrays the
compiled code takes. Importing this package imports neither numba nor numpy; its modules do
(the ``dist``, ``web`` and ``tui`` extras bring them).
"""
