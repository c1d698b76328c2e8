"""Sensor forward models: from a state of the board to what each sensor reports.

One implementation, shared: the simulator turns its true world into readings with them,
and the referee's eye predicts the readings of candidate poses with them. Pure functions
and classes, no I/O. The table file (:mod:`firmware_host.config.table`) says where each
sensor is; docs/sensors.md says what each one senses.
"""

from firmware_host.sensors.bits import Bits
from firmware_host.sensors.dice import DieReading
from firmware_host.sensors.drop import DropEntry, DropReadings
from firmware_host.sensors.entry_gate import BeamCut, EntryGate, Sample, Trajectory
from firmware_host.sensors.piece_reader import PieceReader, piece_of_tag, tag_of
from firmware_host.sensors.strips import StripModel, StripSnapshot

__all__ = [
    "BeamCut",
    "Bits",
    "DieReading",
    "DropEntry",
    "DropReadings",
    "EntryGate",
    "PieceReader",
    "Sample",
    "StripModel",
    "StripSnapshot",
    "Trajectory",
    "piece_of_tag",
    "tag_of",
]
