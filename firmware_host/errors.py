"""Errors that reach a person: each names what was wrong and where."""

from __future__ import annotations


class TabletopError(Exception):
    """Base class of every error the ``tabletop`` command reports as one line."""


class InputError(TabletopError):
    """A file or request that cannot be used: names the source, the place in it and the problem.

    >>> str(InputError("board.yaml", "bonus_circles[2].radius", "expected a number > 0, got -3"))
    'board.yaml: bonus_circles[2].radius: expected a number > 0, got -3'
    """

    def __init__(self, source: str, where: str, problem: str) -> None:
        self.source = source
        self.where = where
        self.problem = problem
        parts = [p for p in (source, where, problem) if p]
        super().__init__(": ".join(parts))


class IllegalMove(TabletopError):
    """A move the rules of a game do not allow; the message names the move and the rule.

    Game engines raise it and leave their state unchanged.
    """
