"""Reinforcement-learning interfaces: thin adapters of the rules engine for PettingZoo, Gymnasium
and OpenSpiel (install the extra ``hisss[rl]``).

* :func:`env` / :class:`raw_env`: the PettingZoo AEC environment ``hisss_v0``, every seat an agent
  (:mod:`hisss.rl.pettingzoo_env`);
* ``gymnasium.make("hisss/Hisss-v0")`` / :class:`HisssEnv`: one learning seat against built-in
  bots, registered with Gymnasium when this package is imported (:mod:`hisss.rl.gymnasium_env`);
* ``import hisss.rl.openspiel`` registers the pure-Python OpenSpiel game ``python_hisss``
  (:mod:`hisss.rl.openspiel`; this package itself does not import ``pyspiel``);
* ``gymnasium.make("hisss/Hisss-v1")``: the same with the compact ``v1`` spaces
  (:mod:`hisss.rl.versions`); :class:`BatchedHisssEnv` (:mod:`hisss.rl.batched`, needs numba)
  steps many of its games at once in the compiled kernel, also as
  ``gymnasium.make_vec("hisss/Hisss-v1", vectorization_mode="vector_entry_point")``;
* :mod:`hisss.rl.spaces`: the fixed action space, its mapping to engine actions, the observation
  vector and the rewards, shared by all three;
* :mod:`hisss.rl.agent`: a small numpy policy-gradient agent, its training and its evaluation.

The draws happen inside the environments, from a generator seeded by ``reset(seed=...)``.

>>> import gymnasium
>>> "hisss/Hisss-v0" in gymnasium.registry
True
"""

from __future__ import annotations

import gymnasium

from hisss.rl.batched import BatchedHisssEnv
from hisss.rl.gymnasium_env import HisssEnv
from hisss.rl.pettingzoo_env import env, raw_env
from hisss.rl.spaces import ActionCodec, ObservationLayout, terminal_rewards

#: The Gymnasium id of :class:`HisssEnv` with the ``v0`` spaces.
GYM_ID = "hisss/Hisss-v0"
#: The Gymnasium id of :class:`HisssEnv` with the compact ``v1`` spaces (``space="v1"``).
GYM_ID_V1 = "hisss/Hisss-v1"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="hisss.rl.gymnasium_env:HisssEnv")
if GYM_ID_V1 not in gymnasium.registry:
    gymnasium.register(
        id=GYM_ID_V1,
        entry_point="hisss.rl.gymnasium_env:HisssEnv",
        vector_entry_point="hisss.rl.batched:BatchedHisssEnv",
        kwargs={"space": "v1"},
    )

__all__ = [
    "GYM_ID",
    "GYM_ID_V1",
    "ActionCodec",
    "BatchedHisssEnv",
    "HisssEnv",
    "ObservationLayout",
    "env",
    "raw_env",
    "terminal_rewards",
]
