"""The eye with the camera: the camera decides where it is sure, re-anchors the model, sees
a knocked piece, is questioned where the strips disagree, and the strips referee alone
while it is out (in the eye, in ``sim eval`` and in the service)."""

from __future__ import annotations

import json
import logging
import math
from dataclasses import replace

import cv2
import numpy as np

from firmware_host.camera.feed import CameraFeed
from firmware_host.camera.kept import FrameKeeper, frames_folder, outlined
from firmware_host.camera.sight import Sight
from firmware_host.camera.sources import CameraUnavailable, FrameSource
from firmware_host.camera.verdict import CameraVerdict
from firmware_host.cli import main
from firmware_host.config.board import EdgeFace
from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import (
    Asking,
    Decided,
    Disagree,
    Eye,
    Question,
    load_eye_config,
    verdict_key,
)
from firmware_host.eye.camera_look import (
    CameraLook,
    expected_priors,
    expected_starts,
    known_pieces,
)
from firmware_host.games.dropit.rules.pieces import Color, Piece, Pose, Shape
from firmware_host.i18n import lazy, translator
from firmware_host.journal.store import Journal
from firmware_host.model import World, load_params
from firmware_host.model.supply import supply_piece
from firmware_host.service.eye_referee import EyeReferee
from firmware_host.service.referee import Landed
from simulator.eval_camera import EvalCamera
from simulator.evaluate import evaluate, in_process_drops, oracle_of
from simulator.true_world import TrueDrop, TrueWorld
from simulator.virtual_camera import VirtualCamera, VirtualCameraSource
from tests.journal_support import journal_example

TABLE = load_table()
PARAMS = load_params()
CONFIG = load_eye_config()
CLEAN = load_profile("clean")


def played(drops: int, seed: int = 3) -> tuple[TrueWorld, list[TrueDrop]]:
    """A clean true world after ``drops`` supply drops across the board."""
    world = TrueWorld(TABLE, CLEAN, seed)
    xs = [60.0, 150.0, 240.0, 100.0, 200.0, 150.0]
    made = [
        world.drop(*supply_piece(k), xs[k % len(xs)], 15.0 * k, f"p{k + 1}")
        for k in range(drops)
    ]
    return world, made


def camera_look(
    believed: tuple[Piece, ...], drop: TrueDrop, piece_id: str, seed: int = 3
) -> CameraLook:
    """The eye's camera look at ``drop`` onto the model's ``believed`` board."""
    eye = Eye(TABLE, PARAMS, CONFIG, EdgeFace.COLOR, seed)
    snapshot = World.at_rest(TABLE.board, PARAMS, believed).snapshot()
    identity = (drop.pieces[-1].color, drop.pieces[-1].shape)
    look = eye.begin(snapshot, identity, drop.readings.entered, piece_id)
    camera = EvalCamera(TABLE, CLEAN, PARAMS, seed)
    return CameraLook(look, camera.looker(believed, piece_id, drop.pieces))


def test_a_sure_camera_decides_at_the_located_poses() -> None:
    _, made = played(3)
    last = made[-1]
    look = camera_look(made[-2].pieces, last, "p3")
    outcome = look.settle(last.readings)
    assert isinstance(outcome, Decided), outcome
    assert look.judged_by == "camera" and look.fault is None
    truth = {p.id: p.pose for p in last.pieces}
    for piece in outcome.pieces:
        assert math.dist((piece.pose.x, piece.pose.y), (truth[piece.id].x, truth[piece.id].y)) < 0.5
    assert {b.id for b in outcome.snapshot.bodies} == set(truth)


def test_strip_bits_within_the_located_poses_uncertainty_are_not_held_against_them() -> None:
    """Two squares 0.62 mm from the walls press nothing at the strips' 0.5 mm; located
    0.4 mm from them they would press 8 elements (the eye allows 4 unexplained): that
    board explains the readings, one located 0.1 mm from the walls does not."""
    _, made = played(1)
    look = camera_look((), made[0], "p1")

    def squares(gap: float) -> list[Piece]:
        return [Piece("a", Color.RED, Shape.SQUARE, Pose(17.0 + gap, 60.0, 0.0)),
                Piece("b", Color.BLUE, Shape.SQUARE, Pose(300.0 - 17.0 - gap, 60.0, 0.0))]

    readings = replace(made[0].readings, strips=look.look.eye.strips.snapshot(squares(0.62)))
    assert look._explains(squares(0.4), readings)
    assert not look._explains(squares(0.1), readings)


def test_a_dropped_piece_the_physics_cannot_hold_has_the_strips_judge_too(monkeypatch) -> None:
    """Unsure within its deviations, and where the physics cannot hold it: the camera may
    have the piece wrong, and its alternatives with it, so the sensor look judges too
    before any question is asked."""
    _, made = played(3)
    last = made[-1]
    look = camera_look(made[-2].pieces, last, "p3")
    seen_by = look.camera

    def doubtful(identity, priors, starts):
        seen = seen_by(identity, priors, starts)
        located = tuple(replace(p, sigma=(3.0, 3.0, 6.0)) if p.known.id == "p3" else p
                        for p in seen.located)
        return replace(seen, located=located, held_wrong=("p3",))

    look.camera = doubtful
    finished = []
    finish = look.look.finish
    monkeypatch.setattr(look.look, "finish", lambda: finished.append(True) or finish())
    look.settle(last.readings)
    assert look.camera_verdict is not None and look.camera_verdict.alternatives
    assert finished


def test_a_knocked_piece_is_seen_where_it_lies_not_where_the_model_had_it() -> None:
    _, made = played(3)
    last = made[-1]
    believed = list(made[-2].pieces)
    knocked = believed[0]
    elsewhere = Pose(knocked.pose.x + 12.0, knocked.pose.y, knocked.pose.angle)
    believed[0] = replace(knocked, pose=elsewhere)
    look = camera_look(tuple(believed), last, "p3")
    outcome = look.settle(last.readings)
    assert isinstance(outcome, Decided)
    anchored = {p.id: p.pose for p in outcome.pieces}[knocked.id]
    true = {p.id: p.pose for p in last.pieces}[knocked.id]
    assert math.dist((anchored.x, anchored.y), (true.x, true.y)) < 0.5


def test_a_circle_may_lie_far_from_every_landing_of_its_release() -> None:
    """The camera decides alone only on a dropped piece within 40 mm of a landing simulated
    from its release; a circle may roll farther than the model's landings have it."""
    _, made = played(3)
    look = camera_look(made[-2].pieces, made[-1], "p3")
    look.settle(made[-1].readings)
    verdict = look.camera_verdict
    assert verdict is not None
    look._spots = (Pose(282.0, 17.9, 0.0), Pose(270.2, 53.8, 0.0))
    far, near = Pose(223.7, 17.9, 0.0), Pose(250.0, 17.9, 0.0)

    def located(shape: Shape, at: Pose) -> CameraVerdict:
        dropped = Piece("p3", Color.GREEN, shape, at)
        return replace(verdict, pieces=(*verdict.pieces[:-1], dropped))

    assert look._released_there(located(Shape.CIRCLE, far))
    assert not look._released_there(located(Shape.SQUARE, far))
    assert look._released_there(located(Shape.SQUARE, near))


def test_a_sure_camera_far_from_every_landing_stands_unless_the_strips_decide_otherwise(
    monkeypatch,
) -> None:
    """A dropped piece the camera located far from every landing of its release has the
    strips judge first: the camera decides where they find no landing that explains the
    readings (else staff would be called on a board the camera saw whole) or can only ask,
    and where they decide on another verdict the two are told apart, never silently."""
    _, made = played(3)
    monkeypatch.setattr(CameraLook, "_released_there", lambda self, found: False)

    def settled(strips: object) -> tuple[CameraLook, object]:
        look = camera_look(made[-2].pieces, made[-1], "p3")
        monkeypatch.setattr(look.look, "finish", lambda: strips)
        return look, look.settle(made[-1].readings)

    question = Asking(Question("level:2", "Does the piece reach level 2?"))
    for strips in (Disagree(lazy("no landing explains the readings")), question):
        look, outcome = settled(strips)
        assert look.camera_verdict is not None and look.camera_verdict.sure
        assert isinstance(outcome, Decided) and look.judged_by == "camera"
        assert verdict_key(outcome.verdict) == verdict_key(look.camera_verdict.verdict)

    look, _ = settled(None)
    assert look.camera_verdict is not None
    truth = look.camera_verdict.verdict
    other = replace(truth, level=truth.level + 1)
    strips_pieces = look.camera_verdict.pieces
    decided = Decided(other, strips_pieces, look._snapshot(strips_pieces), 0.9, 0)
    look, outcome = settled(decided)
    assert not (isinstance(outcome, Decided) and outcome.questions == 0)
    assert isinstance(outcome, Asking | Disagree)


def test_readings_no_landing_explains_leave_a_sure_camera_to_decide(monkeypatch) -> None:
    """Readings that neither the camera's board nor any landing of the strips explains are
    at fault (a bad day's sensor noise): a verdict the camera is sure of is decided, not
    handed to staff; one it is unsure of still goes to staff."""
    _, made = played(3)
    monkeypatch.setattr(CameraLook, "_explains", lambda self, pieces, readings: False)
    nothing = Disagree(lazy("no landing explains the readings"))

    look = camera_look(made[-2].pieces, made[-1], "p3")
    monkeypatch.setattr(look.look, "finish", lambda: nothing)
    outcome = look.settle(made[-1].readings)
    assert look.camera_verdict is not None and look.camera_verdict.sure
    assert isinstance(outcome, Decided) and look.judged_by == "camera"
    assert verdict_key(outcome.verdict) == verdict_key(look.camera_verdict.verdict)

    unsure = camera_look(made[-2].pieces, made[-1], "p3")
    monkeypatch.setattr(unsure.look, "finish", lambda: nothing)
    monkeypatch.setattr(
        "firmware_host.eye.camera_look.referee_located",
        lambda *args, **kwargs: replace(look.camera_verdict, sure=False, scores_sure=False,
                                        doubts=("level changes",)),
    )
    assert isinstance(unsure.settle(made[-1].readings), Disagree)
    assert unsure.judged_by == "strips"


def test_readings_no_landing_explains_leave_the_cameras_doubt_to_its_question(monkeypatch) -> None:
    """Neither the camera's board nor any landing explains the readings, and the camera
    is unsure only of a decision within its poses' uncertainty (the fourth piece at the
    level line): its question is asked rather than staff called, and the honest answer
    decides the true verdict. Where the physics cannot hold the dropped piece where the
    camera sees it, its doubt may be the wrong one: staff are called."""
    _, made = played(4)
    last = made[-1]
    monkeypatch.setattr(CameraLook, "_explains", lambda self, pieces, readings: False)
    nothing = Disagree(lazy("no landing explains the readings"))
    look = camera_look(made[-2].pieces, last, "p4")
    monkeypatch.setattr(look.look, "finish", lambda: nothing)
    asked = look.settle(last.readings)
    assert isinstance(asked, Asking) and isinstance(asked.question, Question)
    assert look.judged_by == "camera" and asked.question.id == "level:2"
    oracle = oracle_of(TABLE, last.pieces)
    decided = look.answer(oracle.answer(asked.question))
    assert isinstance(decided, Decided)
    assert verdict_key(decided.verdict) == verdict_key(oracle.verdict)

    held = camera_look(made[-2].pieces, last, "p4")
    monkeypatch.setattr(held.look, "finish", lambda: nothing)
    seen_by = held.camera
    held.camera = lambda *args: replace(seen_by(*args), held_wrong=("p4",))
    assert held.settle(last.readings) is nothing
    assert held.camera_verdict is not None and held.camera_verdict.alternatives


def test_strips_that_disagree_with_the_camera_are_never_overruled_silently() -> None:
    _, made = played(5)
    last, other = made[-1], made[-2]
    # the strips read as after another drop (the fourth piece's), the camera shows the fifth
    readings = replace(other.readings, entry=last.readings.entry, tag=last.readings.tag,
                       released_us=last.readings.released_us,
                       settled_us=last.readings.released_us + 900_000)
    look = camera_look(made[-2].pieces, last, "p5")
    outcome = look.settle(readings)
    silent = isinstance(outcome, Decided) and outcome.questions == 0
    assert not (silent and look.judged_by == "camera")
    assert isinstance(outcome, Asking | Disagree | Decided)


def test_the_strips_referee_alone_while_the_camera_is_out() -> None:
    _, made = played(3)
    last = made[-1]
    eye = Eye(TABLE, PARAMS, CONFIG, EdgeFace.COLOR, 3)
    believed = made[-2].pieces
    snapshot = World.at_rest(TABLE.board, PARAMS, believed).snapshot()
    identity = (last.pieces[-1].color, last.pieces[-1].shape)

    def unplugged(*_: object) -> object:
        raise CameraUnavailable("the camera is unplugged")

    look = CameraLook(eye.begin(snapshot, identity, last.readings.entered, "p3"), unplugged)
    alone = eye.begin(snapshot, identity, last.readings.entered, "p3").settle(last.readings)
    outcome = look.settle(last.readings)
    assert look.judged_by == "strips"
    assert str(look.fault) == "the camera is out: the camera is unplugged"
    assert translator("de").say(look.fault).startswith("Die Kamera ist ausgefallen: ")
    assert type(outcome) is type(alone)
    if isinstance(outcome, Decided) and isinstance(alone, Decided):
        assert outcome.verdict == alone.verdict


def test_a_question_from_the_camera_is_answered_and_decides() -> None:
    """The fourth piece lies within its located pose's uncertainty of the level line: the
    question asks exactly that, and the honest answer decides the true verdict."""
    _, made = played(4)
    last = made[-1]
    look = camera_look(made[-2].pieces, last, "p4")
    asked = look.settle(last.readings)
    assert isinstance(asked, Asking) and isinstance(asked.question, Question)
    assert look.judged_by == "camera" and asked.question.id == "level:2"
    oracle = oracle_of(TABLE, last.pieces)
    decided = look.answer(oracle.answer(asked.question))
    assert isinstance(decided, Decided) and decided.questions == 1
    assert verdict_key(decided.verdict) == verdict_key(oracle.verdict)
    wrong = camera_look(made[-2].pieces, last, "p4")
    wrong.settle(last.readings)
    other = wrong.answer(not oracle.answer(asked.question))
    assert isinstance(other, Decided) and verdict_key(other.verdict) != verdict_key(oracle.verdict)


def test_the_model_stays_within_a_millimetre_of_the_board_over_a_whole_game() -> None:
    camera = EvalCamera(TABLE, CLEAN, PARAMS, 14)
    tally = evaluate(TABLE, PARAMS, CONFIG, in_process_drops(TABLE, CLEAN, 36, 14), 14, camera)
    assert tally.drops == 36 and tally.wrong == 0
    assert tally.camera_looks == 36 and tally.camera_judged >= 30
    assert max(tally.drift_mm) < 1.0, tally.drift_mm


class Cable(FrameSource):
    """A camera whose cable can be pulled: the virtual camera's frames while plugged."""

    def __init__(self, inner: FrameSource) -> None:
        super().__init__(inner.size)
        self.inner = inner
        self.plugged = True

    def grab(self, count: int) -> list[np.ndarray]:
        if not self.plugged:
            raise CameraUnavailable("no frames: the cable is out")
        return self.inner.grab(count)

    def describe(self) -> str:
        return "the test camera"


def test_the_service_referee_goes_on_without_the_camera_and_takes_it_back(caplog) -> None:
    caplog.set_level(logging.INFO, logger="firmware_host.service")
    _, made = played(3)
    board: list[Piece] = []
    setup = TABLE.camera
    assert setup is not None
    shown: list[Piece] = []
    cable = Cable(VirtualCameraSource(VirtualCamera(TABLE, CLEAN, 3), lambda: shown))
    feed = CameraFeed(lambda: cable, Sight(TABLE.board, setup, PARAMS), setup.frames_per_look)
    referee = EyeReferee(Eye(TABLE, PARAMS, CONFIG, EdgeFace.COLOR, 3), TABLE.board, PARAMS, feed)
    statuses = []
    for number, drop in enumerate(made, 1):
        shown[:] = drop.pieces
        cable.plugged = number != 2
        dropped = drop.pieces[-1]
        outcome = referee.look(
            tuple(board), (dropped.color, dropped.shape), drop.readings, f"p{number}"
        )
        statuses.append(referee.camera_status)
        assert isinstance(outcome, Landed), outcome
        board = list(outcome.pieces)
    assert statuses[0] == "ok" and statuses[2] == "ok"
    out = str(statuses[1])
    assert out.startswith("the camera is out") and "cable is out" in out
    assert feed.status == "seeing"
    said = [r.getMessage() for r in caplog.records]
    assert "camera fault: the drop judged by the strips and gates" in said
    assert "camera back" in said


def test_sim_eval_reports_the_camera_and_measures_without_it(capsys) -> None:
    assert main(["sim", "eval", "--drops", "3", "--seed", "2", "--json"]) == 0
    with_camera = json.loads(capsys.readouterr().out)
    assert main(["sim", "eval", "--drops", "3", "--seed", "2", "--json", "--camera", "off"]) == 0
    without = json.loads(capsys.readouterr().out)
    for key in ("drops", "agree", "asked", "wrong", "staff", "verdict_ms_p50", "verdict_ms_p95"):
        assert key in with_camera and key in without
    assert with_camera["camera_looks"] == 3 and with_camera["camera_judged"] >= 2
    assert without["camera_looks"] == 0 and without["camera_judged"] == 0
    assert with_camera["pose_error_mm_p95"] < 0.5


def test_the_verdicts_frames_are_kept_outlined_bounded_and_named_by_turn(tmp_path) -> None:
    _, made = played(3)
    last = made[-1]
    look = camera_look(made[-2].pieces, last, "p3")
    look.settle(last.readings)
    assert look.seen is not None
    setup = TABLE.camera
    assert setup is not None
    frame = VirtualCamera(TABLE, CLEAN, 3).look(last.pieces)[0]
    folder = frames_folder(tmp_path / "journal.sqlite3")
    keeper = FrameKeeper(folder, TABLE.board, setup.markers, keep=3)
    paths = [keeper.save(7, turn, frame, look.seen) for turn in range(1, 6)]
    assert paths[0] == folder / "game-7-turn-1.jpg"
    assert sorted(p.name for p in folder.iterdir()) == [
        "game-7-turn-3.jpg", "game-7-turn-4.jpg", "game-7-turn-5.jpg"
    ]
    drawn = outlined(setup.markers, TABLE.board, frame, look.seen)
    assert drawn.shape == frame.shape and (drawn != frame).any()
    assert (cv2.imread(str(paths[-1])) is not None)


def test_replay_names_the_kept_frames_of_a_journaled_game(tmp_path, capsys) -> None:
    with Journal(tmp_path / "journal.sqlite3") as journal:
        game_id = journal_example(journal, "four_players_base")
    folder = frames_folder(tmp_path / "journal.sqlite3")
    folder.mkdir()
    for name in (f"game-{game_id}-turn-2.jpg", f"game-{game_id}-turn-1.jpg", "game-99-turn-1.jpg"):
        (folder / name).write_bytes(b"jpeg")
    assert main(["replay", str(game_id), "--journal", str(tmp_path / "journal.sqlite3")]) == 0
    out = capsys.readouterr().out
    assert f"turn 1: {folder / f'game-{game_id}-turn-1.jpg'}" in out
    assert out.index("turn 1: ") < out.index("turn 2: ") and "game-99" not in out


def test_the_release_gives_the_priors_when_its_landings_agree() -> None:
    red = Piece("p1", Color.RED, Shape.SQUARE, Pose(100.0, 17.0, 0.0))
    def landing(x: float, shifted: float) -> tuple[Piece, ...]:
        return (replace(red, pose=Pose(shifted, 17.0, 0.0)),
                Piece("p2", Color.BLUE, Shape.CIRCLE, Pose(x, 18.0, 0.0)))

    close = [landing(200.0, 101.0), landing(204.0, 101.5), landing(198.0, 100.5)]
    priors = expected_priors(close, "p2")
    assert priors == {"p1": Pose(101.0, 17.0, 0.0), "p2": Pose(200.0, 18.0, 0.0)}
    loose = [landing(150.0, 101.0), landing(200.0, 101.5), landing(250.0, 100.5)]
    assert expected_priors(loose, "p2") == {"p2": Pose(200.0, 18.0, 0.0)}
    apart = [landing(20.0, 101.0), landing(150.0, 101.5), landing(280.0, 100.5)]
    assert expected_priors(apart, "p2") == {}
    known = known_pieces([red], "p2", (Color.BLUE, Shape.CIRCLE), priors)
    assert [(k.id, k.prior, k.guessed) for k in known] == [
        ("p1", Pose(101.0, 17.0, 0.0), False), ("p2", Pose(200.0, 18.0, 0.0), True)
    ]
    assert known_pieces([red], "p2", (Color.BLUE, Shape.CIRCLE), {})[1].prior is None
    # every landing's pose of each piece is where the camera looks next
    known = known_pieces([red], "p2", (Color.BLUE, Shape.CIRCLE), {}, expected_starts(apart))
    assert [k.starts for k in known] == [
        tuple(Pose(x, 17.0, 0.0) for x in (101.0, 101.5, 100.5)),
        tuple(Pose(x, 18.0, 0.0) for x in (20.0, 150.0, 280.0)),
    ]
