"""The batched compiled environment: ``reset`` and ``step`` over many games at once (numba).

One learning seat per game plays against bots inside the kernel (``random`` and ``greedy``, the
engine's rules of choice), in the classic game or the hand variant. Every game's state lives in
numpy arrays, one row per game (struct of arrays), and one compiled loop over the games applies
the learners' actions, plays the draws and the bots' turns up to each learner's next decision
and writes the observations, the masks (in place: the previous decision's indices are cleared,
the new ones set), the rewards and the done flags. A finished game is dealt again at once in the
same step (its reward and done flag reported), so every row of the masks always asks for an
action.

The spaces are those of ``v1`` (:mod:`hisss.rl.versions`): the indices, the overflow indices
and the observation, optionally normalised, are computed here as the Python side computes them,
and a test compares whole games with :class:`hisss.rl.HisssEnv` for the same seeds.

Randomness: each game owns a splitmix64 generator (:func:`hisss.kernel.steps._next`), seeded by
the splitmix64 finaliser of the game's seed (:func:`seed_state`), for its learning seat (when
drawn) and its draws: a draw takes ``k`` below the cards left and walks the copies left in
card-code order. :class:`hisss.bots.turns.SplitMix` is the same generator in Python, from which
``HisssEnv`` with the ``v1`` spaces deals and draws. A bot's decision draws on the generator of
the game's seed and the turn (:func:`hisss.bots.turns.decision_rng`: the finaliser of the seed
plus the turn times an odd constant), as every bot's turn in Python does; a choice among ``n``
takes ``floor(u * n)``, and a forced move draws nothing, as in the Python bots. So the same seed
gives the same game.

Compiled code is cached on disk as for :mod:`hisss.kernel.steps`, whose version this file names
in :data:`STEPS_DIGEST` (a test keeps it true).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
from numba import njit

from hisss.core import Deck, JoinClaim, Rules
from hisss.core.cards import CARD_KINDS
from hisss.kernel.batch_observe import _observe
from hisss.kernel.batch_rules import (
    A_INDEX,
    ACT_FIELDS,
    C_BASE,
    C_DECK,
    C_FORCED,
    C_HAND,
    C_JOIN_ALWAYS,
    C_MIDS,
    C_OBS,
    C_OPEN,
    C_OVERFLOW,
    C_PLAYERS,
    C_SCORING,
    C_SEAT,
    C_SKIP,
    C_SNAKES,
    C_TARGET,
    CONF_FIELDS,
    I_FORCED,
    I_NACT,
    I_SEAT,
    I_WINNERS,
    INFO_FIELDS,
    MAX_ACTIONS,
    MAX_BOT_ACTIONS,
    RANDOM_SEAT,
    RNG_FIELDS,
    _advance,
    _part,
    _play_turn,
    _reward,
    _seed_row,
    _start,
    _winners,
    seed_state,
)
from hisss.kernel.steps import _CACHE, K_MID, _below, scratch
from hisss.kernel.tables import SCORING_CODE, card_arrays, game_tuple

#: The SHA-256 of ``steps.py`` that this file's cached code was compiled against.
STEPS_DIGEST = "c2bdb79a306d36fa132b2da9ee720bc1891040cc5b0b2916640853dcfb9ef2b1"


@njit(cache=_CACHE)
def seed_states(seeds: Any) -> Any:
    """:func:`seed_state` of each seed."""
    out = np.empty(seeds.shape[0], dtype=np.uint64)
    for k in range(seeds.shape[0]):
        out[k] = seed_state(seeds[k])
    return out


_inline = njit(cache=_CACHE, inline="always")


@_inline
def _set_mask(mask: Any, acts: Any, n: int, value: int) -> None:
    for k in range(n):
        index = acts[k, A_INDEX]
        if index >= 0:
            mask[index] = value


@njit(cache=_CACHE, nogil=True, _nrt=False)  # type: ignore[call-overload, untyped-decorator]
def batch_reset(seeds: Any, games: Any, setup: Any, scale: Any, state: Any, out: Any) -> None:
    """Deal the games ``games`` (indices) from their ``seeds`` (one per game of the batch) and
    play to each learner's first decision; write their observations and masks. ``setup`` is
    ``(conf, deck_counts, cards, game, midplace, bots)``, ``state`` ``(rng, info, work,
    remaining, pits, hands, acts, pairs, scratch_acts)``, ``out`` ``(obs, mask, reward, done)``."""
    rng, info, work, remaining, pits, hands, acts, _pairs, _scratch_acts = state
    obs, mask, reward, done = out
    conf = setup[0]
    for k in range(games.shape[0]):
        g = games[k]
        _seed_row(rng[g], seeds[g])
        _set_mask(mask[g], acts[g], info[g, I_NACT], 0)
        info[g, I_NACT] = 0
        _deal_to_decision(g, setup, state)
        _set_mask(mask[g], acts[g], info[g, I_NACT], 1)
        _observe(obs[g], scale, work[g], info[g], remaining[g], pits[g], hands[g], conf)
        reward[g] = 0.0
        done[g] = False


@_part
def _deal_to_decision(g: int, setup: Any, state: Any) -> None:
    """Deal game ``g`` and play to the learner's first decision, dealing again (with the same
    generator going on) when a deal ends before it."""
    rng, info, work, remaining, pits, hands, acts, pairs, scratch_acts = state
    conf, deck_counts, cards, _game, _midplace, _bots = setup
    row = (rng[g], info[g], remaining[g], pits[g], hands[g])
    while True:
        _start(conf, deck_counts, cards, work[g], row)
        if not _advance((work[g], pairs), setup, row, acts[g], scratch_acts):
            return


@njit(cache=_CACHE, nogil=True, _nrt=False)  # type: ignore[call-overload, untyped-decorator]
def batch_step(actions: Any, seeds: Any, setup: Any, scale: Any, state: Any, out: Any) -> int:
    """Play each game's learner action, then on to its next decision; a game that ends is dealt
    again at once, its seed ``seeds[g]`` moved on by the number of games (its reward and
    ``done`` reported). Returns the number of illegal actions (each one's game untouched, its
    ``done`` false and its reward ``nan``). The groups are :func:`batch_reset`'s."""
    illegal = 0
    for g in range(actions.shape[0]):
        if not _step_game(g, actions, seeds, setup, scale, state, out):
            illegal += 1
    return illegal


@_inline
def _pick(acts: Any, n: int, a: int) -> int:
    """The listed action of index ``a`` among the first ``n`` of ``acts``, or -1."""
    for k in range(n):
        if acts[k, A_INDEX] == a:
            return k
    return -1


@_inline
def _step_game(
    g: int, actions: Any, seeds: Any, setup: Any, scale: Any, state: Any, out: Any
) -> bool:
    """:func:`batch_step` for game ``g``; False (the game untouched) when its action is not
    offered."""
    rng, info, work, remaining, pits, hands, acts, pairs, scratch_acts = state
    obs, mask, reward, done = out
    conf, _deck_counts, cards, _game, _midplace, _bots = setup
    n = info[g, I_NACT]
    pick = _pick(acts[g], n, actions[g])
    if pick < 0:
        reward[g] = np.nan
        done[g] = False
        return False
    _set_mask(mask[g], acts[g], n, 0)
    info[g, I_NACT] = 0
    seat = info[g, I_SEAT]
    info[g, I_FORCED] = 0
    row = (rng[g], info[g], remaining[g], pits[g], hands[g])
    _play_turn((work[g], pairs), acts[g, pick], seat, cards, conf, row)
    if _advance((work[g], pairs), setup, row, acts[g], scratch_acts):
        winners = _winners(pits[g], conf[C_PLAYERS], conf[C_SCORING], conf[C_TARGET])
        reward[g] = _reward(winners, conf[C_PLAYERS], seat)
        done[g] = True
        seeds[g] += actions.shape[0]
        _seed_row(rng[g], seeds[g])
        _deal_to_decision(g, setup, state)
        info[g, I_WINNERS] = winners  # kept past the new deal, for the infos
    else:
        reward[g] = 0.0
        done[g] = False
    _set_mask(mask[g], acts[g], info[g, I_NACT], 1)
    _observe(obs[g], scale, work[g], info[g], remaining[g], pits[g], hands[g], conf)
    return True


@njit(cache=_CACHE, nogil=True)
def random_actions(info: Any, acts: Any, rng: Any, out: Any) -> None:
    """A uniformly random offered action of each game's learner, drawn from ``rng`` (one
    splitmix64 state), into ``out``: for benchmarks and tests."""
    for g in range(out.shape[0]):
        n = info[g, I_NACT]
        k = _below(rng, n) if n > 1 else 0
        while acts[g, k, A_INDEX] < 0:  # an action the space does not offer
            k = _below(rng, n)
        out[g] = acts[g, k, A_INDEX]


def _mid_places(deck_counts: Any) -> Any:
    """Each card code's place among the deck's distinct mid-sections (-1 for other cards)."""
    kind = card_arrays()[0]
    out = np.full(len(kind), -1, dtype=np.int64)
    k = 0
    for code in range(len(kind)):
        if kind[code] == K_MID and deck_counts[code] > 0:
            out[code] = k
            k += 1
    return out


class Layout(NamedTuple):
    """The figures of the ``v1`` spaces that the kernel writes: the snakes the action space
    names, the overflow indices, the number of indices before them (``base``), the observation's
    length and its multipliers (``scale``: ones, or the normalisation)."""

    snakes: int
    overflow: int
    base: int
    obs_size: int
    scale: Any


class BatchedGames:
    """``num`` games of one configuration, their state in arrays, stepped by the kernel.

    ``bots`` holds a bot code per seat (:data:`hisss.kernel.steps.BOT_RANDOM` or
    ``BOT_GREEDY``; the learner's entry is not used), so its length is the number of players;
    ``seat`` is the learning seat or :data:`RANDOM_SEAT`, ``layout`` the spaces' figures. The
    arrays :attr:`obs`, :attr:`mask`, :attr:`reward` and :attr:`done` are rewritten by every
    :meth:`reset` and :meth:`step`.
    """

    def __init__(
        self,
        num: int,
        rules: Rules,
        deck: Deck,
        bots: Sequence[int],
        seat: int,
        layout: Layout,
        *,
        skip_forced: bool = False,
    ) -> None:
        snakes, overflow, base, obs_size, scale = layout
        players = len(bots)
        self.num = num
        self.players = players
        counts = np.zeros(CARD_KINDS, dtype=np.int64)
        for card, n in deck.items():
            counts[card.code] = n
        mids = int((_mid_places(counts) >= 0).sum())
        conf = np.zeros(CONF_FIELDS, dtype=np.int64)
        conf[C_PLAYERS] = players
        conf[C_FORCED] = rules.forced_placement
        conf[C_JOIN_ALWAYS] = rules.join_claim is JoinClaim.ALWAYS
        conf[C_SCORING] = SCORING_CODE[rules.scoring]
        conf[C_TARGET] = rules.target
        conf[C_HAND] = rules.hand_size
        conf[C_OPEN] = rules.hands_seen_by_all
        conf[C_SNAKES] = snakes
        conf[C_MIDS] = mids
        conf[C_BASE] = base
        conf[C_OVERFLOW] = overflow
        conf[C_SEAT] = seat
        conf[C_SKIP] = skip_forced
        conf[C_DECK] = deck.size
        conf[C_OBS] = obs_size
        self.conf = conf
        self.deck_counts = counts
        self.cards = card_arrays()
        self.game = game_tuple(players, rules)
        self.midplace = _mid_places(counts)
        self.bots = np.array(list(bots), dtype=np.int64)
        self.scale = np.asarray(scale, dtype=np.float32)
        width = 4 * deck.size + 4
        work, pairs = scratch(deck.size)
        self.state = (
            np.zeros((num, RNG_FIELDS), dtype=np.uint64),  # rng (see R_GAME)
            np.zeros((num, INFO_FIELDS), dtype=np.int64),  # info
            np.zeros((num, work.shape[0], width), dtype=np.int64),  # work (tables)
            np.zeros((num, CARD_KINDS), dtype=np.int64),  # remaining
            np.zeros((num, players, 3), dtype=np.int64),  # pits
            np.zeros((num, players, CARD_KINDS), dtype=np.int64),  # hands
            np.zeros((num, MAX_ACTIONS, ACT_FIELDS), dtype=np.int64),  # learners' actions
            pairs,
            np.zeros((MAX_BOT_ACTIONS, ACT_FIELDS), dtype=np.int64),  # a bot's actions
        )
        self.obs = np.zeros((num, obs_size), dtype=np.float32)
        self.mask = np.zeros((num, base + overflow), dtype=np.int8)
        self.reward = np.zeros(num, dtype=np.float32)
        self.done = np.zeros(num, dtype=np.bool_)
        #: Each game's seed: the game in slot ``g`` is the one ``HisssEnv`` plays for it.
        self.seeds = np.zeros(num, dtype=np.int64)
        self._out = (self.obs, self.mask, self.reward, self.done)
        self._all = np.arange(num, dtype=np.int64)

    def _args(self) -> tuple[Any, ...]:
        setup = (self.conf, self.deck_counts, self.cards, self.game, self.midplace, self.bots)
        return (setup, self.scale, self.state, self._out)

    def reset(self, seeds: Any) -> None:
        """Deal every game: game ``g`` from ``seeds[g]``."""
        self.seeds[:] = seeds
        batch_reset(self.seeds, self._all, *self._args())

    def step(self, actions: Any) -> int:
        """Play each learner's action (an index per game); the number of illegal ones."""
        return int(batch_step(np.asarray(actions, dtype=np.int64), self.seeds, *self._args()))

    @property
    def info(self) -> Any:
        """Each game's figures (rows: see ``I_*``)."""
        return self.state[1]

    def random_actions(self, rng: Any, out: Any) -> None:
        """A random offered action per game into ``out``, from the splitmix64 state ``rng``."""
        random_actions(self.state[1], self.state[6], rng, out)


__all__ = [
    "ACT_FIELDS",
    "CONF_FIELDS",
    "INFO_FIELDS",
    "MAX_ACTIONS",
    "RANDOM_SEAT",
    "BatchedGames",
    "Layout",
    "batch_reset",
    "batch_step",
    "seed_states",
]
