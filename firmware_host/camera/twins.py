"""Twins: the newly dropped piece told apart from the pieces of its own colour and shape.

The locator tells same-looking pieces apart by their priors, but the dropped piece has
none: when a drop shifts an old twin off its prior, the search may give the new piece the
old one's place and the old one the new piece's. The entry gate knows better where the
new piece went: the landings simulated from its release (``spots``) lie around where it
came to rest. :func:`tell_twins` swaps the two when that assignment (the new piece near a
spot, the old one near its prior) is clearly the cheaper one.

>>> from firmware_host.camera.locate import Known, Located
>>> from firmware_host.games.dropit.rules.pieces import Color, Pose, Shape
>>> old = Located(Known("p1", Color.RED, Shape.SQUARE, Pose(60.0, 20.0, 0.0)),
...               Pose(150.0, 40.0, 0.0), True, (0.1, 0.1, 0.1))
>>> new = Located(Known("p9", Color.RED, Shape.SQUARE), Pose(64.0, 20.0, 0.0), True,
...               (0.1, 0.1, 0.1))
>>> [p.pose.x for p in tell_twins([old, new], "p9", [Pose(151.0, 41.0, 0.0)])]
[64.0, 150.0]
>>> missed = Located(Known("p9", Color.RED, Shape.SQUARE), None, False)
>>> [(p.pose.x, p.seen) for p in tell_twins([old, missed], "p9", [Pose(151.0, 41.0, 0.0)])]
[(60.0, False), (150.0, True)]
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from firmware_host.camera.locate import Located
from firmware_host.games.dropit.rules.pieces import Pose

SWAP_MARGIN_MM = 10.0
"""The swapped assignment must be this much cheaper (mm of distance, summed) to be taken."""
UNSEEN_MM = 30.0
"""What a piece the camera did not see costs in an assignment (mm)."""


def tell_twins(
    located: Sequence[Located], dropped_id: str, spots: Sequence[Pose]
) -> list[Located]:
    """``located`` with the dropped piece and one twin swapped when the entry's ``spots``
    say so (unchanged without spots). A dropped piece the camera did not see counts
    :data:`UNSEEN_MM` where it is: when a twin was found far from its prior where the
    release says the new piece went, the twin is that new piece, and the old one is
    unseen at its prior."""
    result = list(located)
    index = next(i for i, p in enumerate(result) if p.known.id == dropped_id)
    dropped = result[index]
    if not spots:
        return result
    seen = dropped.seen and dropped.pose is not None

    def from_spots(pose: Pose) -> float:
        return min(math.hypot(pose.x - s.x, pose.y - s.y) for s in spots)

    def apart(a: Pose, b: Pose) -> float:
        return math.hypot(a.x - b.x, a.y - b.y)

    best, best_gain = None, SWAP_MARGIN_MM
    for i, twin in enumerate(result):
        prior = twin.known.prior
        if (
            i == index
            or not twin.seen
            or twin.pose is None
            or prior is None
            or (twin.known.color, twin.known.shape) != (dropped.known.color, dropped.known.shape)
        ):
            continue
        if seen:
            assert dropped.pose is not None
            keep = from_spots(dropped.pose) + apart(twin.pose, prior)
            swap = from_spots(twin.pose) + apart(dropped.pose, prior)
        else:
            keep = UNSEEN_MM + apart(twin.pose, prior)
            swap = from_spots(twin.pose) + UNSEEN_MM
        if keep - swap > best_gain:
            best, best_gain = i, keep - swap
    if best is not None:
        twin = result[best]
        result[index] = replace(twin, known=dropped.known)
        if seen:
            result[best] = replace(dropped, known=twin.known)
        else:
            result[best] = Located(twin.known, twin.known.prior, False)
    return result
