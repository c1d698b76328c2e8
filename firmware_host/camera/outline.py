"""Sub-pixel fit of one piece's face outline to the frames of a look.

The face of a piece is its outline (the darker rim of its side, seen in perspective, is
not). Starting from a pose within a few millimetres and degrees, the fit places sample
points along the model outline, reads the colour along each point's outward normal (a
profile of a few millimetres either side, through every frame's own homography), and
finds where the face's colour ends: the first point, going outwards, where the colour's
distance from the face's own colour crosses half the step to what lies just outside
(the rim, a neighbour, the background), with linear interpolation between samples; where
the blur merges a narrow rim with what lies beyond it, the step ends where the colours
turn from the rim's (the face's hue, darker) toward the next.
Those offsets are the residuals of a Gauss-Newton fit of ``(x, y, angle)``; Tukey
weights drop profiles crossed by printed lines, glare or a neighbour of the same colour.

The fit reports the pose, its covariance (from the residuals' scatter, inflated by
:data:`COVARIANCE_INFLATION` because neighbouring profiles share their errors, plus what
a whole side may be off by, from the sides' mean residuals), and
which share of the outline it found (a piece the camera cannot see finds little).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from firmware_host.camera.artwork import Artwork
from firmware_host.camera.scene import LookFrames
from firmware_host.config.board import Board, CircleShape
from firmware_host.games.dropit.rules.pieces import Pose, Shape

Array = np.ndarray

SPACING_MM = 0.8
"""Distance between sample points along the outline."""
CORNER_CLEARANCE_MM = 2.5
"""No sample point closer than this to a polygon's corner (a profile there crosses the
neighbouring side); more at a sharp corner (:func:`_clearance`)."""
REACH_MM = 3.0
"""How far each profile reaches inside and outside the model outline."""
STEP_MM = 0.2
"""Distance between samples along a profile."""
LEVEL_OFF = 0.5
"""The outside colour is read where the distance's slope falls below this share of its
steepest since the edge began."""
RISE_SCATTERS = 5.0
RISE_SHARE = 0.06
"""A profile leaves its face where the colour's distance from the face rises above its own
level inside the outline by :data:`RISE_SCATTERS` times its scatter there, and at least by
this share of the face colour's brightness: measured from the profile's own inside, so a
face in a lighting gradient still shows a darker rim of its own hue as a step."""
RIM_HUE = 0.5
"""A corner of a profile's colour path (:func:`_rim_corner`) is a rim's colour when it
lies off the face's colour line (through black and the face's colour) by less than this
share of how much darker than the face it is: a darker colour of the face's own hue.
Measured on profiles at the true outlines (24 scenes of the foreign renderer,
``tests/camera/foreign_camera.py``; 30 realistic scenes of the virtual camera), 0.3 left
more of the foreign frames' rim sides out, 1.0 put more of the virtual camera's poses
0.25 mm off."""
INSET_MM = 3.5
"""Where the face's own colour is read: this far inside the outline."""
SHADE_INSET_MM = 1.8
MIN_SHADE_SAMPLES = 6
MAX_SHADE = 0.25
TINT_DEPTH_MM = 2.0
"""A bonus circle's printed tint shades the part of a face inside it. A piece across the
circle's edge has its face's colour read apart on either side, each shade from at least
:data:`MIN_SHADE_SAMPLES` samples (a ring :data:`SHADE_INSET_MM` inside the outline added
to the face's own), and each profile leaves the shade of where it reads its inside,
:data:`TINT_DEPTH_MM` inside the outline. With one face colour, the profiles on the other
side saw no face and were not counted: a third of a blue circle's outline on clean
frames, and the dropped piece was taken as unseen. Two shades count only when both lie
within :data:`MAX_SHADE` of the face's brightness of its colour: a fit off its piece
reads a shade from what lies beside it, and would hold on to it (a knocked diamond
stopped 5.7 mm short of where it lay, on the second renderer's frames)."""
MAX_ITERATIONS = 8
LOOSE_ITERATIONS = 3
TIGHT_SCALE_MM = 0.25
"""After :data:`LOOSE_ITERATIONS` steps the residuals' robust scale is capped at this: a
fit that converged to a compromise between the true edges and a neighbour's lets go of
the neighbour's."""
MAX_CONDITION = 1e8
"""A fit's normal equations with a larger condition number leave a direction free."""
MAX_LOOSE_SCALE_MM = 8.0
"""How far the residuals' robust scale may be widened while the fit is still loose."""
WIDE_REACH_MM = 6.0
WIDE_STEP_MM = 0.3
COARSE_FOUND = 0.25
"""A wide start whose coarse fit found less than this share of its outline is not fitted
finely: it comes back as that coarse fit, which no caller counts. Of 196 such starts in
30 searching looks of the eye (realistic), none's fine fit found :data:`PARTIAL_FOUND`
of its outline, and two :data:`MIN_FOUND`; the fine fits of the rest are what a search
costs."""
CONVERGED_MM = 0.02
TUKEY_C = 4.685
MIN_SIGMA_MM = 0.08
"""The residuals' robust scale never goes below this (their spread on a perfect edge is
that of the sampling)."""
COVARIANCE_INFLATION = 4.0
"""Neighbouring profiles share their errors (blur, the rim, JPEG blocks): the textbook
covariance is multiplied by this (calibrated against true poses, docs/camera.md)."""
ARC_DEGREES = 45.0
"""A circle's outline counts as sides of this many degrees each for the errors a side
shares (:func:`_sides_covariance`): a rim narrows and widens around it."""
COVARIANCE_FLOOR_MM = 0.07
"""Standard deviation added to a polygon's x and y whatever the residuals say (the board's
homography and the model's dimensions are not exact either, and a rim moves a whole side
out at once)."""
CIRCLE_COVARIANCE_FLOOR_MM = 0.04
"""The same for a circle: its rim narrows and widens round it, and an error of its size
moves no centre, so its outline's errors mostly make it larger or smaller, not move it.
Measured (errors over reported deviations, pieces within 2 mm, x and y): with the
polygons' floor, circles spread 0.62 on the virtual camera's realistic frames (150
scenes) and 0.65 on the second renderer's (60 looks), against 0.69-0.78 and 1.09-1.34 for
polygons; with this floor, 0.82 and 0.77, with 0.4 % and 1.9 % of them beyond two
deviations (a Gaussian: 4.6 %)."""


@dataclass(frozen=True)
class OutlineFit:
    """A fitted pose, its covariance (x, y in mm; angle in degrees), and how much of the
    outline was found (``found``: share of profiles that count in the fit)."""

    pose: Pose
    covariance: Array
    found: float
    rms_mm: float
    face: Array

    @property
    def sigma(self) -> tuple[float, float, float]:
        """Standard deviations of x, y (mm) and angle (degrees)."""
        d = np.sqrt(np.maximum(np.diag(self.covariance), 0.0))
        return (float(d[0]), float(d[1]), float(d[2]))


@dataclass(frozen=True)
class Outline:
    """Sample points of a model outline at a pose: points, outward normals, and each
    point's lever about the centroid (for the angle's derivative)."""

    points: Array
    normals: Array
    levers: Array


def outline_points(board: Board, shape: Shape, pose: Pose, inset: float = 0.0) -> Outline:
    """Sample points along ``shape``'s outline at ``pose`` (moved inwards by ``inset`` mm)."""
    rel, normals, levers, _ = _unit_outline(repr(board.shapes.of(shape)), board, shape, inset)
    turn = math.radians(pose.angle)
    cos, sin = math.cos(turn), math.sin(turn)
    rot = np.array([[cos, sin], [-sin, cos]])  # row vectors times this turn them by +turn
    return Outline(rel @ rot + (pose.x, pose.y), normals @ rot, levers)


_UNIT_OUTLINES: dict[tuple[str, float], tuple[Array, Array, Array, Array]] = {}


def _unit_outline(
    key: str, board: Board, shape: Shape, inset: float
) -> tuple[Array, Array, Array, Array]:
    """The sample points, normals, levers and sides of a shape at the origin, angle 0 (made
    once per shape's dimensions and inset: turning them is all a pose needs). A polygon's
    sides are its own; a circle's are arcs of :data:`ARC_DEGREES`."""
    made = _UNIT_OUTLINES.get((key, inset))
    if made is not None:
        return made
    dims = board.shapes.of(shape)
    if isinstance(dims, CircleShape):
        radius = dims.radius - inset
        count = max(8, int(2 * math.pi * radius / SPACING_MM))
        a = np.linspace(0.0, 2 * math.pi, count, endpoint=False)
        normals = np.c_[np.cos(a), np.sin(a)]
        arcs = (np.degrees(a) // ARC_DEGREES).astype(int)
        made = (radius * normals, normals, np.zeros(count), arcs)
    else:
        corners = np.asarray(dims.vertices, float)
        pts: list[Array] = []
        nrm: list[Array] = []
        side: list[Array] = []
        sides = np.roll(corners, -1, axis=0) - corners
        for i in range(len(corners)):
            a, b = corners[i], corners[(i + 1) % len(corners)]
            length = float(np.hypot(*(b - a)))
            along = (b - a) / length
            normal = np.array([along[1], -along[0]])  # outward for counter-clockwise corners
            start = _clearance(sides[i - 1], sides[i]) + inset * 1.8
            end = _clearance(sides[i], sides[(i + 1) % len(sides)]) + inset * 1.8
            count = int((length - start - end) / SPACING_MM) + 1
            if count < 2:
                continue
            t = np.linspace(start, length - end, count)
            pts.append(a + t[:, None] * along - inset * normal)
            nrm.append(np.repeat(normal[None], count, axis=0))
            side.append(np.full(count, len(side)))
        rel = np.vstack(pts)
        normals = np.vstack(nrm)
        levers = rel[:, 0] * normals[:, 1] - rel[:, 1] * normals[:, 0]
        made = (rel, normals, levers, np.concatenate(side))
    _UNIT_OUTLINES[(key, inset)] = made
    return made


def _clearance(into: Array, out_of: Array) -> float:
    """How far from a corner (between sides ``into`` and ``out_of``) sample points keep:
    far enough that a profile's inner half stays clear of the other side."""
    cos = float(np.dot(-into, out_of) / (np.linalg.norm(into) * np.linalg.norm(out_of)))
    sine = math.sqrt(max(1.0 - cos * cos, 1e-6))
    return max(CORNER_CLEARANCE_MM, REACH_MM / sine)


def _rings(board: Board, starts: Sequence[tuple[Shape, Pose]], inset: float) -> list[Array]:
    """Each start's outline points moved inwards by ``inset`` mm (:func:`outline_points`),
    turned for all the pieces of a shape by one stacked matrix product: a product per
    piece, as :func:`outline_points` makes it."""
    rings: dict[int, Array] = {}
    by_shape: dict[Shape, list[int]] = {}
    for i, (shape, _) in enumerate(starts):
        by_shape.setdefault(shape, []).append(i)
    for shape, members in by_shape.items():
        rel = _unit_outline(repr(board.shapes.of(shape)), board, shape, inset)[0]
        turns = np.empty((len(members), 2, 2))
        centres = np.empty((len(members), 1, 2))
        for k, i in enumerate(members):
            pose = starts[i][1]
            turn = math.radians(pose.angle)
            cos, sin = math.cos(turn), math.sin(turn)
            turns[k] = ((cos, sin), (-sin, cos))  # row vectors times this turn them by +turn
            centres[k, 0] = (pose.x, pose.y)
        for i, ring in zip(members, rel @ turns + centres, strict=True):
            rings[i] = ring
    return [rings[i] for i in range(len(starts))]


def _face_samples(
    look: LookFrames, board: Board, starts: Sequence[tuple[Shape, Pose]]
) -> tuple[Array, Array, Array, Array]:
    """Each piece's own face colour, the median of samples :data:`INSET_MM` inside its
    outline and around its centroid (normalised BGR; G x 3), and those samples' colours
    and places (N x 3, N x 2) and pieces (N)."""
    groups = []
    for (_, pose), ring in zip(starts, _rings(board, starts, INSET_MM), strict=True):
        middle = np.array([(pose.x + dx, pose.y + dy) for dx in (-3, 0, 3) for dy in (-3, 0, 3)])
        groups.append(np.vstack([ring, middle]))
    places = np.vstack(groups)
    colours = look.colours(places)
    piece_of = np.repeat(np.arange(len(groups)), [len(g) for g in groups])
    return group_medians(colours, piece_of), colours, places, piece_of


def shaded_faces(
    look: LookFrames, board: Board, starts: Sequence[tuple[Shape, Pose]], artwork: Artwork
) -> tuple[Array, Array]:
    """Each piece's face colour (G x 3, :func:`_face_samples`) and its two shades, outside
    and inside the bonus circles' printed tint (G x 2 x 3): a shade read from fewer than
    :data:`MIN_SHADE_SAMPLES` of the face's samples and those of a ring
    :data:`SHADE_INSET_MM` inside the outline, or farther from the whole face's colour
    than :data:`MAX_SHADE`, is the whole face's colour."""
    faces, colours, places, piece_of = _face_samples(look, board, starts)
    shaded = np.repeat(faces[:, None, :], 2, axis=1)
    rings = _rings(board, starts, SHADE_INSET_MM)
    places = np.vstack([places, *rings])
    colours = np.vstack([colours, look.colours(np.vstack(rings))])
    piece_of = np.concatenate([piece_of, np.repeat(np.arange(len(rings)), [len(r) for r in rings])])
    tint = artwork.tinted(places)
    counts = np.bincount(piece_of * 2 + tint, minlength=2 * len(starts)).reshape(-1, 2)
    both = np.all(counts >= MIN_SHADE_SAMPLES, axis=1)  # a piece across a tint's edge
    if both.any():
        chosen = both[piece_of]
        medians = group_medians(colours[chosen], (piece_of * 2 + tint)[chosen])
        for i in np.flatnonzero(both):
            shades = medians[2 * i: 2 * i + 2]
            apart = np.linalg.norm(shades - faces[i], axis=1)
            if (apart < MAX_SHADE * (np.linalg.norm(faces[i]) + 1.0)).all():
                shaded[i] = shades
    return faces, shaded


def group_medians(values: Array, group: Array) -> Array:
    """The median of the rows of ``values`` (N x ...) in each group (``group``: N ids
    0..G-1, each used), ignoring NaN: G x ... (NaN where a group has none)."""
    count = int(group.max()) + 1
    sizes = np.bincount(group, minlength=count)
    order = np.argsort(group, kind="stable")
    slot = np.arange(len(group)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    padded = np.full((count, int(sizes.max()), *values.shape[1:]), np.nan, np.float64)
    padded[group[order], slot] = values[order]
    ordered = np.sort(padded, axis=1)  # NaN sorts last
    valid = np.sum(~np.isnan(ordered), axis=1)
    low = np.take_along_axis(ordered, np.maximum((valid - 1) // 2, 0)[:, None], 1)[:, 0]
    high = np.take_along_axis(ordered, np.maximum(valid // 2, 0)[:, None], 1)[:, 0]
    return np.where(valid > 0, (low + high) / 2, np.nan)


def edge_offsets(
    profiles: Array, face: Array, offsets: Array, piece_of: Array | None = None
) -> Array:
    """Where each profile leaves the face colour (mm along its normal; NaN if it does not
    do so cleanly): P profiles x S samples x 3 colours -> P offsets. ``face`` is one
    colour, or one per profile (P x 3) with ``piece_of`` naming each profile's piece (the
    noise level is each piece's own).

    The colour's distance from the face rises across the edge from about 0 to the
    distance of whatever lies just outside (a darker rim, a neighbour, the background),
    over a width the optics' blur sets. A first, low crossing finds the transition; the
    outside colour is read where the rise levels off (the slope falls below
    :data:`LEVEL_OFF` of its peak), or at the corner where the colours turn from a darker
    colour of the face's hue toward what lies beyond (:func:`_rim_corner`: a rim the blur
    merged with the step beyond it), and the edge is where the distance crosses half-way
    to it: where a blurred step crosses its own edge, whatever the blur's width.
    """
    faces = np.broadcast_to(np.asarray(face, np.float32).reshape(-1, 3), (len(profiles), 3))
    # channel by channel: numpy's norm and broadcasting over a 3-long axis are slow
    d = np.subtract(profiles[..., 0], faces[:, 0, None])
    d *= d
    for c in (1, 2):
        part = profiles[..., c] - faces[:, c, None]
        part *= part
        d += part
    np.sqrt(d, out=d)
    count = d.shape[1]
    rows = np.arange(len(d))
    scale = np.linalg.norm(faces, axis=1) + 1.0
    within = d[:, offsets < -1.0]
    inner = _row_median(within)
    within -= inner[:, None]
    scatter = _row_median(np.abs(within, out=within))
    groups = np.zeros(len(d), np.int64) if piece_of is None else piece_of
    noise = np.nan_to_num(group_medians(inner, groups)[groups])
    face_like = inner < np.maximum(4.0 * noise, 0.08 * scale)
    low = inner + np.maximum(RISE_SCATTERS * scatter, RISE_SHARE * scale)
    low = np.where(np.isfinite(low), low, 0.08 * scale)  # no inside: a profile off the face
    across = np.ascontiguousarray(d.T)  # samples x profiles: numpy is fast along long rows
    first = _first_crossing(across, low, count // 4)
    levelled = _levelled_off(across, first)
    corner = _rim_corner(profiles, faces, d, first, levelled, low, low - inner)
    outside = np.where(corner >= 0, d[rows, corner], d[rows, levelled])
    level = np.maximum(0.5 * (inner + outside), low)
    level = np.where(np.isfinite(level), level, low)
    k = _first_crossing(across, level, count // 4)
    found = (first < count) & (k < count) & face_like & np.isfinite(outside)
    k = np.clip(k, 1, count - 1)
    before, after = d[rows, k - 1], d[rows, k]
    frac = np.clip((level - before) / np.maximum(after - before, 1e-6), 0.0, 1.0)
    return np.where(found, offsets[k - 1] + frac * (offsets[1] - offsets[0]), np.nan)


def _rim_corner(
    profiles: Array, faces: Array, d: Array, first: Array, levelled: Array, low: Array,
    rise: Array,
) -> Array:
    """Per profile, the sample where its colour's path away from the face turns at a rim
    (-1 where it does not): where a rim shows, the colours run first toward a darker
    colour of the face's own hue, then toward whatever lies beyond; the blur merges the
    two steps when the rim is narrow, and the distance from the face (``d``) never levels
    off between them. Only profiles whose first rise heads darker (the sample past
    ``first`` lies darker than the face by more than it lies off the face's hue) are
    looked at. The path turns at the sample between ``first`` and ``levelled`` farthest
    from the straight line from the face's colour to the levelled-off one; it counts when
    it lies more than ``rise`` off that line. The blur rounds the turn: where the rim is
    only two or three pixels wide, that farthest sample is already partly the colour
    beyond, off the face's hue, so the rim's colour is read before it: at the sample
    farthest from the line, up to the turn, that is still near the face's colour line
    (:data:`RIM_HUE`), past the first rise (its distance from the face above ``low``) and
    itself more than ``rise`` off the line."""
    count = d.shape[1]
    every = np.arange(len(d))
    heads = np.flatnonzero(
        (levelled - first >= 2)
        & _darker(profiles[every, np.minimum(first + 1, count - 1)], faces, 1.0)
    )
    own, face = profiles[heads], faces[heads]
    start, end = first[heads], levelled[heads]
    rows = np.arange(len(heads))
    beyond = own[rows, end] - face
    unit = beyond / np.maximum(np.sqrt(np.einsum("pc,pc->p", beyond, beyond)), 1e-6)[:, None]
    along = (own[..., 0] - face[:, 0, None]) * unit[:, 0, None]
    along += (own[..., 1] - face[:, 1, None]) * unit[:, 1, None]
    along += (own[..., 2] - face[:, 2, None]) * unit[:, 2, None]
    away = d[heads] ** 2 - along * along  # squared distances from the line
    index = np.arange(count)
    away[(index < start[:, None]) | (index > end[:, None])] = -1.0
    turn = away.argmax(axis=1)
    # only a path that turns far enough off the line may turn at a rim
    turning = np.flatnonzero(away[rows, turn] > rise[heads] ** 2)
    heads, own, face, away, turn = (
        heads[turning], own[turning], face[turning], away[turning], turn[turning]
    )
    hued = _darker(own, face[:, None, :], RIM_HUE)
    # the samples up to the turn that may be the rim's colour (the others at -1)
    rimlike = np.where(hued & (index <= turn[:, None]) & (d[heads] >= low[heads, None]),
                       away, -1.0)
    corner = rimlike.argmax(axis=1)
    rim = rimlike[np.arange(len(heads)), corner] > rise[heads] ** 2
    corners = np.full(len(d), -1)
    corners[heads[rim]] = corner[rim]
    return corners


def _darker(colours: Array, faces: Array, share: float) -> Array:
    """Whether ``colours`` (..., 3) are darker colours of their ``faces``' hue (..., 3,
    broadcast against them): darker, and off the colour line through black and the face
    by less than ``share`` of how much darker (both as lengths in colour space). Channel
    by channel: numpy sums along a 3-long axis slowly."""
    (c0, c1, c2), (f0, f1, f2) = np.moveaxis(colours, -1, 0), np.moveaxis(faces, -1, 0)
    size = np.maximum(f0 * f0 + f1 * f1 + f2 * f2, 1e-6)
    bright = (c0 * f0 + c1 * f1 + c2 * f2) / size  # the colour's brightness
    o0, o1, o2 = c0 - bright * f0, c1 - bright * f1, c2 - bright * f2
    darker = share * (1.0 - bright)
    found: Array = (bright < 1.0) & (o0 * o0 + o1 * o1 + o2 * o2 < darker * darker * size)
    return found


def _levelled_off(across: Array, first: Array) -> Array:
    """Per profile, the first sample past ``first`` where the rise of the distance
    (``across``: samples x profiles) has levelled off (its slope under :data:`LEVEL_OFF`
    of the steepest slope since ``first``); the last sample when it never does."""
    count = across.shape[0]
    slope = np.empty_like(across)
    np.subtract(across[1:], across[:-1], out=slope[:-1])
    slope[-1] = 0.0
    index = np.arange(count)[:, None]
    peak = slope.copy()
    np.copyto(peak, -np.inf, where=np.isnan(slope) | (index < np.minimum(first, count - 1)))
    for k in range(1, count):  # the running peak, a sample at a time for all profiles
        np.maximum(peak[k - 1], peak[k], out=peak[k])
    peak *= LEVEL_OFF
    flat = slope < peak
    flat &= index > first
    flat[-1] = True  # the last sample, where none before it levels off
    levelled: Array = flat.argmax(axis=0)
    return levelled


def _row_median(values: Array) -> Array:
    """Median of each row, ignoring NaN (NaN for a row of NaN only)."""
    ordered = np.sort(values, axis=1)
    count = ordered.shape[1]
    if count and not np.isnan(ordered[:, -1]).any():  # NaN sorts last: none anywhere
        median: Array = (ordered[:, (count - 1) // 2] + ordered[:, count // 2]) / 2
        return median
    valid = np.sum(~np.isnan(ordered), axis=1)
    rows = np.arange(len(values))
    low = ordered[rows, np.maximum((valid - 1) // 2, 0)]
    high = ordered[rows, np.maximum(valid // 2, 0)]
    return np.where(valid > 0, (low + high) / 2, np.nan)


def _first_crossing(across: Array, level: Array, start: int) -> Array:
    """Per profile, the first sample index from ``start`` on whose distance (``across``:
    samples x profiles) exceeds ``level`` and stays above it for two more samples (the
    sample count when none does)."""
    above = across[start:] > level  # only the samples from ``start`` on
    held = above.copy()
    held[:-2] &= above[1:-1]
    held[:-2] &= above[2:]
    by_profile = np.ascontiguousarray(held.T)  # argmax is fast along short contiguous rows
    first = by_profile.argmax(axis=1)
    # whether any is held, from the first (numpy's any along a short axis is slower)
    held_first = by_profile[np.arange(len(first)), first]
    crossing: Array = np.where(held_first, first + start, across.shape[0])
    return crossing


def fit_outlines(
    look: LookFrames,
    board: Board,
    starts: Sequence[tuple[Shape, Pose]],
    artwork: Artwork | None = None,
    wide: bool = False,
) -> list[OutlineFit]:
    """Fit several pieces' outlines at once (each on its own; the frames are sampled for
    all of them together, which is what costs). Profiles at the pane's printed lines
    (``artwork``, the board's by default) are left out. ``wide`` first pulls in starts
    a few millimetres off with profiles twice as long (:data:`WIDE_REACH_MM`): for the
    coarse places a search gives, not for priors, which it would pull onto neighbours."""
    artwork = artwork or Artwork(board)
    if not starts:
        return []
    faces = shaded_faces(look, board, starts, artwork)
    if not wide:
        return _fit(look, board, starts, artwork, faces, REACH_MM, STEP_MM, MAX_ITERATIONS)
    coarse = _fit(look, board, starts, artwork, faces, WIDE_REACH_MM, WIDE_STEP_MM, 4)
    promising = [i for i, fit in enumerate(coarse) if fit.found >= COARSE_FOUND]
    if not promising:
        return coarse
    fine = _fit(
        look, board, [(starts[i][0], coarse[i].pose) for i in promising], artwork,
        (faces[0][promising], faces[1][promising]), REACH_MM, STEP_MM, MAX_ITERATIONS,
    )
    for i, fit in zip(promising, fine, strict=True):
        coarse[i] = fit
    return coarse


def _fit(
    look: LookFrames,
    board: Board,
    starts: Sequence[tuple[Shape, Pose]],
    artwork: Artwork,
    shaded_faces: tuple[Array, Array],
    reach: float,
    step: float,
    iterations: int,
) -> list[OutlineFit]:
    """Gauss-Newton steps with profiles reaching ``reach`` mm, sampled every ``step``;
    ``shaded_faces``: each piece's face colour and its shades (:func:`shaded_faces`)."""
    faces, shades = shaded_faces
    offsets = np.arange(-reach, reach + step / 2, step)
    poses = [pose for _, pose in starts]
    circles = [isinstance(board.shapes.of(shape), CircleShape) for shape, _ in starts]
    # every piece's outline at angle 0 around the origin, made once: a pose turns and moves it
    unit_of = {
        shape: _unit_outline(repr(board.shapes.of(shape)), board, shape, 0.0)
        for shape in {shape for shape, _ in starts}
    }
    units = [unit_of[shape] for shape, _ in starts]
    sizes = np.array([len(u[0]) for u in units])
    rel, unit_normals = np.vstack([u[0] for u in units]), np.vstack([u[1] for u in units])
    levers = np.concatenate([u[2] for u in units])
    sides = np.concatenate([u[3] for u in units])
    ends = np.cumsum(sizes)
    own_rows = [np.arange(end - size, end) for end, size in zip(ends, sizes, strict=True)]
    done: dict[int, OutlineFit] = {}
    last: dict[int, tuple[Array, Array, Array, Array, Array]] = {}
    for iteration in range(iterations):
        cap = TIGHT_SCALE_MM if iteration >= LOOSE_ITERATIONS else math.inf
        active = [i for i in range(len(starts)) if i not in done]
        if not active:
            break
        rows = np.concatenate([own_rows[i] for i in active])
        piece_of = np.repeat(np.arange(len(active)), sizes[active])
        points, normals = _placed(
            rel[rows], unit_normals[rows], [poses[i] for i in active], piece_of
        )
        all_residuals = profile_offsets(
            look, artwork, points, normals, shades[np.asarray(active)[piece_of]], offsets,
            piece_of,
        )
        # a profile at the print is left out unless the edge it found lies clear of it:
        # the print's edge shows only where it lies, and a side moved onto a printed line
        # must not drop the very profiles that show it off (a knocked diamond slid 1.7 mm
        # along its other sides, its top side's edges 1.5 mm out beside a level line)
        all_printed = artwork.near(points)
        clear = np.isfinite(all_residuals) & all_printed
        all_printed[clear] = artwork.near(
            points[clear] + all_residuals[clear, None] * normals[clear]
        )
        all_residuals[all_printed] = np.nan
        jacobian = np.c_[normals, levers[rows]]
        sides_of = sides[rows]
        all_weights, steps = _gauss_newton_steps(
            all_residuals, jacobian, piece_of, np.array(circles)[active], cap
        )
        first = 0
        for i, (dx, dy, dturn) in zip(active, steps.tolist(), strict=True):
            own = slice(first, first + sizes[i])
            first += sizes[i]
            if math.isnan(dx):
                done[i] = OutlineFit(poses[i], np.diag([1e6, 1e6, 1e6]), 0.0, math.inf, faces[i])
                continue
            last[i] = (
                all_residuals[own], all_weights[own], jacobian[own], sides_of[own],
                ~all_printed[own],
            )
            pose = poses[i]
            poses[i] = Pose(pose.x + dx, pose.y + dy, pose.angle + math.degrees(dturn))
            if math.hypot(dx, dy) + abs(dturn) * 25 < CONVERGED_MM:
                done[i] = _finish(poses[i], *last[i], circles[i], faces[i])
    for i in range(len(starts)):
        if i not in done:
            done[i] = _finish(poses[i], *last[i], circles[i], faces[i])
    return [done[i] for i in range(len(starts))]


def profile_offsets(
    look: LookFrames,
    artwork: Artwork,
    points: Array,
    normals: Array,
    shades: Array,
    offsets: Array,
    piece_of: Array | None = None,
) -> Array:
    """Where each profile (P: across the outline at ``points``, along ``normals``, sampled
    at ``offsets``) leaves its face (:func:`edge_offsets`), the pane's print read as on the
    board: each profile's face is the shade (``shades``, P x 2 x 3: outside and inside a
    bonus circle's tint, :func:`shaded_faces`) of where it reads its inside,
    :data:`TINT_DEPTH_MM` inside the outline, and ink across it is read as what it covers
    (:func:`_ink_bridged`). ``piece_of`` names each profile's piece (the noise level is
    each piece's own)."""
    samples = np.empty((len(points), len(offsets), 2))
    for c in (0, 1):  # x and y apart: numpy broadcasts along a 2-long axis slowly
        np.add(points[:, c, None], offsets * normals[:, c, None], out=samples[..., c])
    colours = look.colours(samples.reshape(-1, 2)).reshape(-1, len(offsets), 3)
    shade = artwork.tinted(points - TINT_DEPTH_MM * normals).astype(np.int64)
    faces = shades[np.arange(len(points)), shade]
    inked = artwork.inked(points, samples, float(np.abs(offsets).max()))
    colours = _ink_bridged(colours, inked, faces, offsets)
    return edge_offsets(colours, faces, offsets, piece_of)


def _ink_bridged(colours: Array, inked: Array, faces: Array, offsets: Array) -> Array:
    """Profiles' colours (P x S x 3, at ``offsets`` along each normal) with each sample
    where printed ink may show (``inked``, P x S) read as what the ink covers: a profile
    counts only where the ink lies clear of its edge point
    (:data:`~firmware_host.camera.artwork.CLEARANCE_MM`), so ink inside the outline covers
    the face (its colour ``faces``, P x 3), and ink beyond it what lies just outside the
    edge, the colour of the last clear sample before it. Unbridged, a level line running
    2 mm inside a side hid the face's colour from all of its profiles. Only the inked
    samples are written, in ``colours`` itself when it is contiguous."""
    # the profiles with ink: those whose first inked sample is inked (numpy's any along a
    # short axis is slower)
    rows = np.flatnonzero(inked[np.arange(len(inked)), inked.argmax(axis=1)])
    inked = inked[rows]
    count = len(offsets)
    bridged: Array = np.ascontiguousarray(colours)
    # a sample's three channels as one item, by one index: numpy copies those fastest (a
    # row of three numbers by two indices slowly)
    item = np.dtype((np.void, 3 * bridged.itemsize))
    flat = bridged.reshape(-1, 3).view(item).ravel()
    inside = inked & (offsets < 0)
    profile, at = np.nonzero(inside)
    covered = np.ascontiguousarray(faces, bridged.dtype).view(item).ravel()
    flat[rows[profile] * count + at] = covered[rows[profile]]
    beyond = inked & ~inside
    profile, at = np.nonzero(beyond)
    if len(profile):
        source = np.maximum.accumulate(np.where(beyond, 0, np.arange(count)), axis=1)
        first = rows[profile] * count
        flat[first + at] = flat[first + source[profile, at]]
    return bridged


def _placed(
    rel: Array, normals: Array, poses: Sequence[Pose], piece_of: Array
) -> tuple[Array, Array]:
    """Outline points and normals of pieces at angle 0 around the origin (``rel``,
    ``normals``: N x 2, each row of the piece ``piece_of`` names, numbered in the order of
    ``poses``) turned and moved to their pieces' poses."""
    turn = np.radians([pose.angle for pose in poses])
    cos, sin = np.cos(turn)[piece_of], np.sin(turn)[piece_of]
    centres = np.array([(pose.x, pose.y) for pose in poses])[piece_of]

    def turned(v: Array) -> Array:
        vectors: Array = np.c_[v[:, 0] * cos - v[:, 1] * sin, v[:, 0] * sin + v[:, 1] * cos]
        return vectors

    return turned(rel) + centres, turned(normals)


def _gauss_newton_steps(
    residuals: Array, jac: Array, piece_of: Array, circles: Array, cap: float = math.inf
) -> tuple[Array, Array]:
    """Tukey weights (one per profile) and each piece's weighted least-squares step (G x 3:
    ``dx, dy`` mm, ``dturn`` radians, 0 for a circle; NaN when too little of its outline
    was found). ``piece_of`` numbers each profile's piece 0..G-1, every piece's profiles
    together; ``circles`` says which pieces are circles. The residuals' robust scale is at
    most ``cap`` mm."""
    count = len(circles)
    ok = np.isfinite(residuals)
    r = np.where(ok, residuals, 0.0)
    # the scale about zero, not about the median: while the pose is still off, the sides'
    # residuals split into groups either side of zero, and each group must still count
    scale = 1.4826 * group_medians(np.where(ok, np.abs(r), np.nan), piece_of)
    sigma = np.maximum(np.minimum(np.nan_to_num(scale), cap), MIN_SIGMA_MM)
    starts = np.searchsorted(piece_of, np.arange(count))
    weights = np.zeros(len(r))
    steps = np.full((count, 3), np.nan)
    solving = np.bincount(piece_of, ok, minlength=count) >= 6
    # the Jacobian's columns apart, each piece's sums along its profiles in their order:
    # numpy reduces a 3 x 3 matrix per profile slowly
    columns = np.ascontiguousarray(jac.T)
    products = np.empty((3, 3, len(r)))
    while solving.any():
        u = r / (TUKEY_C * sigma[piece_of])
        tukey = np.where(ok & (np.abs(u) < 1), (1 - u**2) ** 2, 0.0)
        weighted = tukey * columns
        for i in range(3):
            np.multiply(columns[i], weighted, out=products[i])
        normal = np.add.reduceat(products.reshape(9, -1), starts, axis=1).T.reshape(-1, 3, 3)
        gradient = np.add.reduceat(columns * (tukey * r), starts, axis=1).T
        solved = np.zeros(count, bool)
        for circle, free in ((True, 2), (False, 3)):  # a circle's turn is no unknown
            group = np.flatnonzero(solving & (circles == circle))
            if not len(group):
                continue
            a, b = normal[group][:, :free, :free], gradient[group][:, :free]
            fine = np.linalg.cond(a) <= MAX_CONDITION
            steps[group[fine], :free] = np.linalg.solve(a[fine], b[fine][..., None])[..., 0]
            steps[group[fine], free:] = 0.0
            solved[group[fine]] = True
        mine = solved[piece_of]
        weights[mine] = tukey[mine]
        # the counted profiles leave a direction free (a start off across one pair of
        # sides, whose residuals all lie beyond the scale the others set): widen the scale
        # while it may still grow, or give up
        solving &= ~solved & (not math.isfinite(cap)) & (sigma < MAX_LOOSE_SCALE_MM)
        sigma[solving] *= 2
    return weights, steps


def _sides_covariance(
    residuals: Array, weights: Array, jac: Array, side: Array, inverse: Array
) -> Array:
    """The pose's covariance from errors each side shares: a rim, a neighbour or the blur
    moves every profile of a side alike, which no count of profiles averages out. Each
    side's weighted mean residual shows the part of its offset the fit could not take up
    (for opposite sides, their common part; the pose took up the rest, as large on
    average), so twice their mean square is each side's variance, and every side moved by
    it moves the pose through the fit's normal equations (``inverse``). ``side``
    numbers each profile's side."""
    count = int(side.max()) + 1 if len(side) else 0
    held = np.bincount(side, weights, minlength=count)
    used = held > 0
    if used.sum() < 2:
        return np.zeros_like(inverse)
    held = held[used]
    means = np.bincount(side, weights * residuals, minlength=count)[used] / held
    variance = 2.0 * float(np.sum(held * means**2) / np.sum(held))
    pulls = np.empty((len(held), jac.shape[1]))
    for k, column in enumerate(jac.T):
        pulls[:, k] = np.bincount(side, weights * column, minlength=count)[used]
    moves = pulls @ inverse  # each side moved out by 1 mm: the pose's step
    shared: Array = variance * (moves.T @ moves)
    return shared


def _finish(
    pose: Pose,
    residuals: Array,
    weights: Array,
    jac: Array,
    sides: Array,
    usable: Array,
    circle: bool,
    face: Array,
) -> OutlineFit:
    """The fit's covariance and quality from its last residuals and weights (``usable``:
    the profiles clear of printed lines, of which ``found`` is the share counted)."""
    total = float(weights.sum())
    r = np.where(np.isfinite(residuals), residuals, 0.0)
    squares = float((weights * r**2).sum())
    rms = math.sqrt(squares / max(total, 1e-9))
    cols = [0, 1] if circle else [0, 1, 2]
    a = jac[:, cols]
    dof = max(total - len(cols), 1.0)
    variance = max(squares / dof, MIN_SIGMA_MM**2)
    try:
        inverse = np.linalg.inv(a.T @ (weights[:, None] * a))
    except np.linalg.LinAlgError:
        inverse = np.eye(len(cols)) * 1e6
    cov = np.zeros((3, 3))
    block = COVARIANCE_INFLATION * variance * inverse + _sides_covariance(
        r, weights, a, sides, inverse
    )
    if circle:
        cov[:2, :2] = block
    else:
        cov[:, :] = block
        cov[2, :] *= 180 / math.pi
        cov[:, 2] *= 180 / math.pi
    if not np.all(np.isfinite(cov)) or np.any(np.diag(cov) < 0):
        cov = np.diag([1e6, 1e6, 1e6])
    floor = CIRCLE_COVARIANCE_FLOOR_MM if circle else COVARIANCE_FLOOR_MM
    cov[0, 0] += floor**2
    cov[1, 1] += floor**2
    found = int(np.count_nonzero(weights > 0)) / max(int(np.count_nonzero(usable)), 1)
    return OutlineFit(pose, cov, found, rms, face)
