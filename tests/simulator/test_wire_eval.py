"""``tabletop sim eval`` over the virtual hub's wire: the host side sees only frames."""

from __future__ import annotations

import ast
import inspect
from dataclasses import replace

from firmware_host.config.noise import NoiseProfile, load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import load_eye_config
from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.link import wire as engine_wire
from firmware_host.link.transport import HubLink
from firmware_host.model import load_params
from firmware_host.sensors import Bits, StripModel
from firmware_host.sensors.collector import Outcome
from simulator.evaluate import evaluate, in_process_drops
from simulator.hub import VirtualHub
from simulator.wire_drops import HostSide, collect_drop, wire_drops

TABLE = load_table()
CLEAN = load_profile("clean")
DEADLINE = 10.0


def lossy(lost_frames: float) -> NoiseProfile:
    """The clean profile with frames lost on the line."""
    data = CLEAN.model_dump()
    data["link"]["lost_frames"] = lost_frames
    return NoiseProfile.model_validate(data)


def test_a_short_wire_evaluation_is_reproducible_and_adds_up() -> None:
    params, config = load_params(), load_eye_config()
    runs = [evaluate(TABLE, params, config, wire_drops(TABLE, CLEAN, 12, seed=9), 9) for _ in "ab"]
    first, second = (run.to_json() for run in runs)
    assert first["drops"] == 12
    assert runs[0].agree + runs[0].wrong + runs[0].staff == 12
    assert runs[0].asked <= 12
    for key in ("drops", "agree", "asked", "wrong", "staff"):
        assert first[key] == second[key]
    assert len(runs[0].latencies_ms) == 12


def test_the_wire_plays_the_same_drops_as_the_in_process_source() -> None:
    """Same turns, same truth; the host's readings are the collector's: settled once the
    sensors were quiet, which may come before the physics stopped."""
    wired = list(wire_drops(TABLE, CLEAN, 5, seed=4))
    local = list(in_process_drops(TABLE, CLEAN, 5, seed=4))
    assert [d.number for d in wired] == [1, 2, 3, 4, 5]
    assert [d.identity for d in wired] == [d.identity for d in local]
    assert [d.oracle for d in wired] == [d.oracle for d in local]
    assert [d.readings.entry for d in wired] == [d.readings.entry for d in local]
    assert all(
        w.readings.settled_us <= t.readings.settled_us for w, t in zip(wired, local, strict=True)
    )


def test_a_drop_with_lost_frames_still_arrives_once_through_the_collector() -> None:
    host = HostSide(TABLE)
    hub = VirtualHub(TABLE, lossy(0.4), seed=6)
    with hub, HubLink(hub.url, on_event=host.events.put) as link:
        assert link.wait_up(DEADLINE)
        drops = [(Color.RED, Shape.SQUARE, 150.0, 0.0), (Color.BLUE, Shape.CIRCLE, 80.0, 0.0)]
        for number, drop in enumerate(drops, 1):
            handle = hub.drop(*drop)
            outcome = collect_drop(hub, handle, host, number)
            assert outcome.outcome is Outcome.SETTLED
            assert outcome.readings == handle.reported
    assert hub.faults.lost > 0
    assert not host.collector.collecting


def test_the_host_side_never_touches_the_true_world() -> None:
    """Whatever the host side does runs on events: neither it nor the collect step names
    the hub's world or a handle's truth."""
    for part in (HostSide, collect_drop):
        names = {
            node.attr
            for node in ast.walk(ast.parse(inspect.getsource(part)))
            if isinstance(node, ast.Attribute)
        }
        assert not names & {"world", "true", "readings", "reported", "exact"}


def test_a_new_game_with_the_top_gate_cut_reports_the_clear_on_the_wire() -> None:
    """Clearing a board that stuck out above the top sends a top-gate event the engine can
    encode (it once lacked ``t_us`` and stopped the hub's thread)."""
    hub = VirtualHub(TABLE, CLEAN, seed=1, line="socket")
    try:
        hub._state = replace(hub._state, top_gate=Bits(1, 1))
        hub.clear_board()
        gates = [s.event for s in hub._schedule if s.event["type"] == "gate"]
        assert gates == [
            {"type": "gate", "gate": 1, "beam": 0, "cut": False, "t_us": gates[0]["t_us"]}
        ]
        for scheduled in hub._schedule:
            assert (
                engine_wire.decode_payload(
                    engine_wire.message_type(scheduled.event),
                    engine_wire.encode_payload(scheduled.event),
                )["t_us"]
                == scheduled.event["t_us"]
            )
    finally:
        hub.stop()


def test_a_pile_pushed_by_a_drop_reaches_the_host_as_it_came_to_rest() -> None:
    """The virtual hub's strips follow every piece as the physics runs, so a pile the drop
    pushes is seen moving and the collector's quiet window closes on its final state
    (seed 2: three of these twelve clean drops shift the pile after the piece landed)."""
    strips = StripModel(TABLE)
    for drop in wire_drops(TABLE, CLEAN, 12, seed=2):
        assert drop.readings.strips == strips.snapshot(drop.oracle.pieces), drop.number
