"""The simulator's parts and the host's drop collector, each on its own (no line)."""

from __future__ import annotations

import itertools
import logging
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st
from main import inventory as firmware_inventory
from main import load_config

from firmware_host.config.noise import LinkFaultsConfig
from firmware_host.config.table import PieceReaderConfig, Table, load_table
from firmware_host.errors import InputError
from firmware_host.link.finding import find_hub
from firmware_host.link.inventory import inventory_mismatch, table_inventory
from firmware_host.link.session import HubEvent
from firmware_host.model.space import reach
from firmware_host.model.supply import supply_piece
from firmware_host.sensors import BeamCut, Bits, StripSnapshot
from firmware_host.sensors.collector import DropCollector, Outcome
from simulator import firmware
from simulator.link_faults import LinkFaults
from simulator.players import Autoplay, Roll, Turn, load_script
from tests.builders import write_yaml

TABLE = load_table()
QUIET, JAM = TABLE.config.settle.quiet, TABLE.config.settle.jam


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def event(seq: int, **message: object) -> HubEvent:
    return HubEvent(seq, dict(message), int(message["t_us"]), None)  # type: ignore[arg-type]


def feed_all(collector: DropCollector, messages: list[dict]) -> list:
    out = []
    for seq, message in enumerate(messages):
        out += collector.feed(event(seq, **message))
    return out


def piece(tag: bytes, t_us: int) -> dict:
    return {"type": "piece", "tag": tag, "t_us": t_us}


def gate(beam: int, cut: bool, t_us: int, which: int = 0) -> dict:
    return {"type": "gate", "gate": which, "beam": beam, "cut": cut, "t_us": t_us}


# -- the collector ------------------------------------------------------------------


def test_a_drop_settles_after_the_quiet_window_and_not_before() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    feed_all(collector, [piece(b"red-circle", 100), gate(3, True, 200), gate(3, False, 300)])
    clock.now = 300e-6 + QUIET * 0.9  # the hub's time: quiet from the last change's t_us
    assert collector.poll() == [] and collector.collecting
    clock.now = 300e-6 + QUIET
    [done] = collector.poll()
    assert done.outcome is Outcome.SETTLED
    assert done.readings.tag == "red-circle" and done.readings.released_us == 100
    assert done.readings.entry == (BeamCut(3, 200, 300),) and done.readings.settled_us == 300
    assert not collector.collecting


def test_the_quiet_window_is_the_hubs_time_not_when_events_arrive() -> None:
    """No host clock at all: the events' own times decide; a late event that arrives
    after a long pause on the host still keeps the drop open, and an idle report from
    the hub (its empty piece reader) closes it once the hub's time is past the window."""
    collector = DropCollector(TABLE)
    feed_all(collector, [piece(b"red-circle", 100), gate(3, True, 200), gate(3, False, 300)])
    assert collector.poll() == [] and collector.collecting
    changed = 300 + round(QUIET * 0.9e6)
    bitmap = {"type": "bitmap", "source": 2, "t_us": changed, "length": 1, "bits": b"\x01"}
    assert collector.feed(event(3, **bitmap)) == []
    assert collector.feed(event(4, **piece(b"", changed + round(QUIET * 0.9e6)))) == []
    [done] = collector.feed(event(5, **piece(b"", changed + round(QUIET * 1e6))))
    assert done.outcome is Outcome.SETTLED and done.readings.settled_us == changed


def test_a_second_piece_before_the_first_settled_is_reported() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    feed_all(collector, [piece(b"red-circle", 100), gate(3, True, 200)])
    [done] = collector.feed(event(2, **piece(b"blue-square", 250)))
    assert done.outcome is Outcome.SECOND_PIECE
    assert done.readings.tag == "red-circle" and done.readings.entry == (BeamCut(3, 200, None),)
    feed_all(collector, [gate(4, True, 300)])
    clock.now = 300e-6 + QUIET
    [second] = collector.poll()
    # beam 3 never cleared: still cut when the blue square was released
    assert second.readings.tag == "blue-square"
    assert second.readings.entry == (BeamCut(3, 250, None), BeamCut(4, 300, None))


def test_a_drop_that_never_goes_quiet_is_a_jam() -> None:
    clock = Clock()
    collector = DropCollector(TABLE, clock)
    feed_all(collector, [piece(b"red-circle", 0)])
    outcomes = []
    for step in range(int(JAM / (QUIET / 2)) + 2):
        t_us = round(step * QUIET / 2 * 1e6)
        outcomes += collector.feed(event(step + 1, **gate(5, step % 2 == 0, t_us)))
    assert [o.outcome for o in outcomes] == [Outcome.JAM]


def test_a_tag_with_no_drop_after_it_is_replaced_by_the_next() -> None:
    collector = DropCollector(TABLE, Clock())
    assert feed_all(collector, [piece(b"red-circle", 0), piece(b"blue-circle", 5)]) == []
    assert collector.poll() == [] and collector.collecting


def test_without_a_reader_the_first_cut_opens_the_drop(tmp_path) -> None:
    no_reader = TABLE.config.model_copy(update={"piece_reader": PieceReaderConfig(present=False)})
    table = Table(no_reader, TABLE.board)
    clock = Clock()
    collector = DropCollector(table, clock)
    feed_all(collector, [gate(1, True, 40), gate(1, False, 90)])
    clock.now = 90e-6 + QUIET
    [done] = collector.poll()
    assert done.readings.tag is None and done.readings.released_us == 40


@given(
    st.integers(0, 2**30 - 1),
    st.integers(0, 2**30 - 1),
    st.integers(0, 2**30 - 1),
    st.integers(0, 2**60 - 1),
    st.booleans(),
)
def test_bitmaps_become_the_strips_they_describe(
    left: int, bottom: int, right: int, curtain: int, top: bool
) -> None:
    snapshot = StripSnapshot(
        Bits(60, curtain), Bits(1, int(top)), Bits(30, left), Bits(30, bottom), Bits(30, right)
    )
    collector = DropCollector(TABLE, Clock())
    edge = snapshot.edge_bitmap()
    feed_all(
        collector,
        [
            {"type": "bitmap", "source": 1, "t_us": 1, "length": 1, "bits": bytes([int(top)])},
            {
                "type": "bitmap",
                "source": 2,
                "t_us": 1,
                "length": 60,
                "bits": curtain.to_bytes(8, "little"),
            },
            {
                "type": "bitmap",
                "source": 3,
                "t_us": 1,
                "length": 90,
                "bits": edge.value.to_bytes(12, "little"),
            },
        ],
    )
    assert collector.strips == snapshot


# -- the inventory --------------------------------------------------------------------


def test_the_reference_hub_config_matches_the_table_file() -> None:
    hub = firmware_inventory(load_config(str(firmware.HUB_CONFIG)))
    assert inventory_mismatch(hub, TABLE) is None
    assert {k: hub[k] for k in table_inventory(TABLE)} == table_inventory(TABLE)


def test_a_mismatched_hello_says_what_to_change_in_one_line() -> None:
    hello = dict(table_inventory(TABLE), top_beams=30, dice=5)
    line = inventory_mismatch(hello, TABLE)
    assert line is not None and "\n" not in line
    assert "top gate beams: hub 30, table 1" in line and "dice: hub 5, table 6" in line
    assert "inputs.top_gate.count, tray.dice" in line


# -- link faults ----------------------------------------------------------------------


def knobs(**values: object) -> LinkFaultsConfig:
    base = {
        "lost_frames": 0.0,
        "corrupted_bytes": 0.0,
        "latency_jitter": 0.0,
        "unplug": {"rate": 0.0, "duration": [0.0, 0.0]},
    }
    return LinkFaultsConfig.model_validate(base | values)


def run_faults(faults: LinkFaults, clock: Clock, frames: int) -> bytes:
    for i in range(frames):
        faults.send(bytes([0xA5, i % 256]) + bytes(20))
    clock.now += 10.0
    return faults.due()


def test_lost_frames_and_corrupted_bytes_follow_the_seed() -> None:
    outs = []
    for _ in range(2):
        clock = Clock()
        faults = LinkFaults(knobs(lost_frames=0.1, corrupted_bytes=0.01), 7, clock)
        outs.append((run_faults(faults, clock, 1000), faults.lost, faults.corrupted))
    assert outs[0] == outs[1]
    _, lost, corrupted = outs[0]
    assert 60 < lost < 140 and 100 < corrupted < 250  # 10 % of frames, 1 % of 22 bytes


def test_latency_jitter_delays_without_reordering() -> None:
    clock = Clock()
    faults = LinkFaults(knobs(latency_jitter=50.0), 1, clock)
    for i in range(50):
        faults.send(bytes([i]))
    released = []
    for step in range(60):
        clock.now = step / 1000
        released += list(faults.due())
    assert released == list(range(50))


def test_unplug_events_come_at_the_rate_and_last_the_duration() -> None:
    clock = Clock()
    faults = LinkFaults(knobs(unplug={"rate": 360.0, "duration": [1.0, 2.0]}), 3, clock)
    down = []
    start = None
    for step in range(3600 * 10):
        clock.now = step / 10
        if faults.unplug_due():
            start = clock.now
        if faults.replug_due():
            down.append(clock.now - start)
    assert 250 < len(down) < 470  # 360 an hour, less the time spent unplugged
    assert all(1.0 <= d <= 2.1 for d in down)


# -- players --------------------------------------------------------------------------


def test_a_script_loads_drops_and_rolls(tmp_path) -> None:
    path = write_yaml(
        tmp_path / "script.yaml",
        {
            "version": 1,
            "drops": [
                {"color": "red", "shape": "square", "x": 150, "angle": 10},
                {"roll": "all"},
                {"roll": [0, 2]},
                {"color": "blue", "shape": "circle", "x": 40},
            ],
        },
    )
    steps = load_script(path)
    assert steps[1:3] == [Roll(None), Roll((0, 2))]
    assert (steps[0].color, steps[0].x, steps[0].angle) == ("red", 150.0, 10.0)
    assert isinstance(steps[3], Turn) and steps[3].angle == 0.0


def test_a_bad_script_is_one_error_naming_the_file_and_key(tmp_path) -> None:
    path = write_yaml(tmp_path / "bad.yaml", {"version": 1, "drops": [{"color": "red"}]})
    with pytest.raises(InputError) as caught:
        load_script(path)
    assert caught.value.source == str(path) and "drops[0]" in caught.value.where


def test_autoplay_drops_the_supply_in_order_where_pieces_fit() -> None:
    turns = list(itertools.islice(Autoplay(TABLE, 4), 40))
    assert [(t.color, t.shape) for t in turns] == [supply_piece(k) for k in range(40)]
    assert [t.new_game for t in turns].index(True) == 36
    for turn in turns:
        left, _, right, _ = reach(TABLE.board, turn.shape, math.radians(turn.angle))
        assert -left <= turn.x <= TABLE.board.width - right
    assert turns == list(itertools.islice(Autoplay(TABLE, 4), 40))


# -- finding the hub ------------------------------------------------------------------


def test_a_given_port_wins_then_a_plugged_in_hub(tmp_path, monkeypatch) -> None:
    monkeypatch.delenv("TABLETOP_HUB_PORT", raising=False)
    (tmp_path / "usb-MicroPython_Board_E66-if00").touch()
    assert find_hub("socket://h:1", sim=False, by_id=tmp_path).url == "socket://h:1"
    found = find_hub(None, sim=False, by_id=tmp_path)
    assert found.url == str(tmp_path / "usb-MicroPython_Board_E66-if00") and not found.virtual


@pytest.mark.parametrize(
    ("port", "sim", "reason"), [(None, False, "no hub found"), ("x", True, "--sim")]
)
def test_otherwise_the_virtual_hub_in_one_log_line(
    tmp_path, monkeypatch, caplog, port, sim, reason
) -> None:
    monkeypatch.delenv("TABLETOP_HUB_PORT", raising=False)
    with caplog.at_level(logging.INFO, logger="firmware_host.link"):
        choice = find_hub(port, sim=sim, by_id=tmp_path, noise="clean", seed=2)
    try:
        assert choice.virtual is not None and choice.url == choice.virtual.url
        [record] = caplog.records
        assert reason in record.getMessage() and choice.url in record.getMessage()
    finally:
        choice.close()
