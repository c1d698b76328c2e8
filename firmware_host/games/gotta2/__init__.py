"""The GOTTA2 puzzle sheet game: shade polyomino pieces, build the largest full rectangle.

- :mod:`.sheet`: the sheet as data (``config/games/puzzlesheet.yaml``): board, frames 1-4,
  bonus track and bonus pieces;
- :mod:`.events`: what happens, as events with a stable JSON form;
- :mod:`.engine`: the rules, a pure function of the events (:class:`Gotta2Game`);
- :mod:`.rectangle`: the largest complete rectangle of a board, the basis of the score.
"""
