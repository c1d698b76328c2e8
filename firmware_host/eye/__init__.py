"""The referee's eye: from one drop's sensor readings and the model, decide or ask.

See docs/eye.md. :class:`Eye` makes a :class:`Look` per drop; its ``outcome`` is one of
:data:`Outcome`.
"""

from firmware_host.eye.config import EyeConfig, load_eye_config
from firmware_host.eye.eye import Eye, Look, verdict_key
from firmware_host.eye.outcomes import Asking, Decided, Disagree, Jam, Outcome, SecondPiece
from firmware_host.eye.questions import PieceQuestion, Question

__all__ = [
    "Asking",
    "Decided",
    "Disagree",
    "Eye",
    "EyeConfig",
    "Jam",
    "Look",
    "Outcome",
    "PieceQuestion",
    "Question",
    "SecondPiece",
    "load_eye_config",
    "verdict_key",
]
