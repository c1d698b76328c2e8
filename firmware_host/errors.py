"""Errors that reach a person: each names what was wrong and where."""

from __future__ import annotations

from firmware_host.i18n import Text, said


class TabletopError(Exception):
    """Base class of every error the ``tabletop`` command reports as one line.

    Raised with a :class:`~firmware_host.i18n.Message`, its ``str`` is the English words
    (the log, the command line) and :attr:`text` the message, for a page to say in its
    reader's language.

    >>> from firmware_host.i18n import lazy, translator
    >>> error = TabletopError(lazy("the game is over"))
    >>> str(error), translator("de").say(error.text)
    ('the game is over', 'Das Spiel ist vorbei')
    """

    @property
    def text(self) -> Text:
        """The error's words: the message it was raised with, or its ``str``."""
        return said(self)


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
