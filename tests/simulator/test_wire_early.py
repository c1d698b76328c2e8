"""Over the wire, the host has each drop's entry once the piece went through the gate,
well before the settle signal: the eye's early part runs in that lead."""

from __future__ import annotations

from firmware_host.config.noise import load_profile
from firmware_host.config.table import load_table
from firmware_host.eye import load_eye_config
from firmware_host.eye.entry import passes
from firmware_host.model import load_params
from simulator.evaluate import evaluate
from simulator.wire_drops import wire_drops

TABLE = load_table()
CONFIG = load_eye_config()


def test_wire_drops_carry_the_entry_and_the_lead_before_the_settle_signal() -> None:
    drops = list(wire_drops(TABLE, load_profile("realistic"), 4, seed=4))
    for drop in drops:
        assert drop.entered is not None
        assert drop.entered.tag == drop.readings.tag
        full = passes(drop.readings.entry, drop.readings.released_us, CONFIG.entry)
        early = passes(drop.entered.entry, drop.entered.released_us, CONFIG.entry)
        assert early == full
        assert drop.lead_s >= TABLE.config.settle.quiet
    tally = evaluate(TABLE, load_params(), CONFIG, drops, 4)
    figures = tally.to_json()
    assert len(tally.early_ms) == len(tally.lead_ms) == 4
    assert figures["early_redone"] == 0 and figures["early_overrun"] == 0
    assert figures["lead_ms_p5"] >= 1000 * TABLE.config.settle.quiet
    assert 0 < figures["early_ms_p50"] <= figures["early_ms_p95"]
    assert set(figures) >= {"drops", "agree", "asked", "wrong", "verdict_ms_p50", "verdict_ms_p95"}
