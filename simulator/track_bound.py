"""How well a perfect eye could referee from the strips alone if it must carry its own board.

The perfect eye of :mod:`simulator.bound` is given the *true* board before every drop. An
eye without a camera never is: it carries its own belief of the board from drop to drop,
and only the strips and gates (and the players' answers) correct it. This tracker knows
everything else the perfect eye knows (the release but its spin, the true physics and the
profile's spread distribution, the noise layer's own likelihood) and carries up to
``particles`` weighted boards, a particle filter:

1. each drop, ``samples`` landings are simulated from the carried boards in turn (the
   release with a spin drawn from the hand's distribution and, with ``release_mm``, its
   x moved by a Gaussian of that deviation: a release known only that well; the physics
   drawn as the true world draws it), each weighed by its board's weight times the
   likelihood of the drop's strip readings (:class:`~simulator.bound.ExactNoise` with a
   floor of :data:`FLOOR` per bit, so that a board a little off does not rule a landing
   out);
2. the posterior over verdict keys gives the MAP verdict and its share ``p_max``;
3. when even the best landing leaves readings unexplained beyond :data:`STAFF_BITS` bits
   at the floor, staff are called: the board is re-synced to the truth (as the eye's staff
   call does); when ``p_max`` is below ``ask_below``, the players are asked, and the
   answer is taken to name the true verdict (more than a yes/no question gives): only the
   landings with it are kept (none: staff). Otherwise the MAP is decided;
4. the heaviest ``particles`` landings kept are the boards carried to the next drop.

Every game starts from an empty board. On the clean profile, with the exact release, each
landing is the drop itself and the tracker is right on every drop; a release a micrometre
off is enough to lose the board. docs/eye-bound.md has the figures.

>>> from firmware_host.config.noise import load_profile
>>> from firmware_host.config.table import load_table
>>> found = track(load_table(), load_profile("clean"), drops=3, seed=1, samples=2)
>>> found.wrong, found.asked, found.staff
(0, 0, 0)
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from firmware_host.config.noise import NoiseProfile
from firmware_host.config.table import Table
from firmware_host.eye import verdict_key
from firmware_host.games.dropit.rules.pieces import Piece
from firmware_host.model import Snapshot, World
from firmware_host.model.supply import GAME_DROPS
from firmware_host.sensors import StripModel
from simulator.bound import ExactNoise, Key, posterior, true_drops
from simulator.evaluate import oracle_of
from simulator.true_world import TrueWorld

FLOOR = 1e-4
"""The least probability of any one reading given a landing: a reading the landing cannot
produce costs this instead of ruling the landing out."""

STAFF_BITS = 4
"""Readings at :data:`FLOOR` the best landing may leave unexplained before staff are called
(the eye's ``likelihood.max_mismatch``)."""


@dataclass(frozen=True, slots=True)
class Landing:
    """One simulated landing: its weight (the board's and the readings'), the readings'
    own log-likelihood, its verdict key and the board it leaves."""

    log_weight: float
    fit: float
    key: Key
    board: Snapshot


@dataclass(frozen=True)
class TrackFigures:
    """What the tracker did over ``drops`` drops: asked (``staff`` included), decided wrong,
    and the drops whose MAP verdict was the true one, asked or not."""

    drops: int
    samples: int
    particles: int
    ask_below: float
    release_mm: float
    asked: int
    staff: int
    wrong: int
    map_right: int


def carried(landings: list[Landing], particles: int) -> list[tuple[float, Snapshot]]:
    """The heaviest ``particles`` of ``landings`` as the next drop's boards, the heaviest
    weighing 0 (log).

    >>> a, b, c = (Landing(w, w, ("k",), Snapshot(())) for w in (-3.0, -1.0, -2.0))
    >>> [weight for weight, _ in carried([a, b, c], 2)]
    [0.0, -1.0]
    """
    kept = sorted(landings, key=lambda landing: -landing.log_weight)[:particles]
    top = kept[0].log_weight
    return [(landing.log_weight - top, landing.board) for landing in kept]


def track(
    table: Table,
    profile: NoiseProfile,
    drops: int,
    seed: int,
    samples: int = 64,
    particles: int = 32,
    ask_below: float = 0.9,
    release_mm: float = 0.0,
) -> TrackFigures:
    """Track ``drops`` drops of ``profile`` from ``seed``: see the module's docstring."""
    world = TrueWorld(table, profile, seed)
    noise = ExactNoise(profile.sensors, world.noise.stuck, floor=FLOOR)
    strips = StripModel(table)
    staff_fit = STAFF_BITS * math.log(FLOOR)
    empty = [(0.0, World(table.board, world.params).snapshot())]
    boards = empty
    asked = staff = wrong = map_right = 0
    for number, _, drop in true_drops(world, drops, seed):
        if (number - 1) % GAME_DROPS == 0:
            boards = empty
        truth = verdict_key(oracle_of(table, drop.pieces).verdict)
        rng = random.Random(f"{seed}:track:{number}")
        landings = []
        for k in range(samples):
            weight, board = boards[k % len(boards)]
            spread = profile.physics_spread
            params = world.params.spread(rng, spread.friction, spread.elasticity)
            release = replace(
                drop.actual,
                x=drop.actual.x + rng.gauss(0.0, release_mm),
                spin=rng.gauss(0.0, profile.drop.spin),
            )
            model = World(table.board, world.params, board)
            model.drop(release, f"p{number}", params=params)
            fit = noise.strips(strips.snapshot(model.pieces), drop.readings.strips)
            key = verdict_key(oracle_of(table, model.pieces).verdict)
            landings.append(Landing(weight + fit, fit, key, model.snapshot()))
        belief = posterior(
            [landing.key for landing in landings], [landing.log_weight for landing in landings]
        )
        key, p_max = belief.key, belief.p_max
        map_right += key == truth
        if max(landing.fit for landing in landings) < staff_fit:
            kept: list[Landing] = []
        elif p_max < ask_below:
            kept = [landing for landing in landings if landing.key == truth]
        else:
            kept = landings
            wrong += key != truth
        asked += kept is not landings
        if kept:
            boards = carried(kept, particles)
        else:
            staff += 1
            boards = [(0.0, _truth(table, world, drop.pieces))]
    return TrackFigures(
        drops, samples, particles, ask_below, release_mm, asked, staff, wrong, map_right
    )


def _truth(table: Table, world: TrueWorld, pieces: tuple[Piece, ...]) -> Snapshot:
    """The true board of ``pieces`` at rest, as staff re-sync it."""
    return World.at_rest(table.board, world.params, pieces).snapshot()
