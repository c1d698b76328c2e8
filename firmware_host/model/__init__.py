"""The physical model of the drop zone: a pymunk world that drops pieces, settles, snapshots.

Drop It's rules (:mod:`firmware_host.games.dropit.rules`) never import this package; it
builds on the board (:mod:`firmware_host.config.board`) and on physical parameters
(:mod:`.params`). Units
inside pymunk: mm, seconds, grams, radians; everything it hands out is in the judge's
units and frame (mm, degrees CCW, centroid). See docs/physics.md.
"""

from firmware_host.model.params import PhysicsParams, load_params
from firmware_host.model.space import BodyState
from firmware_host.model.world import Drop, DropResult, Snapshot, StepObserver, World

__all__ = [
    "BodyState",
    "Drop",
    "DropResult",
    "PhysicsParams",
    "Snapshot",
    "StepObserver",
    "World",
    "load_params",
]
