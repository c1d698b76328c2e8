"""Drop It as one package: its rules, its engine, its binding to the table and its page.

:mod:`.rules` are the landing rules (pieces, geometry, the judge), which the sensors, the
camera and the eye build on too. The engine is pure and event-sourced: :mod:`.events` are
the facts, :mod:`.state` folds them into a :class:`~.state.GameState`; :mod:`.lineup`
(set-up), :mod:`.supply` (shapes left) and :mod:`.track` (score track and point tokens)
hold the rules of play; :mod:`.gamefile` and :mod:`.referee` are the offline referee behind
``tabletop referee``. The binding to the table is pure too: :mod:`.table` (the set-up, a
drop the referee saw land into its events, the joker's offer), :mod:`.actions` (the page's
seat actions, checked against the view); the page's part is :mod:`.view` (what every
device sees), :mod:`.svg` (the board drawn), :mod:`.words` and :mod:`.ask` (what the page
says), and its HTML, script and CSS in ``page/``. The service runs it with the hardware
(:mod:`firmware_host.service.board_play`).
"""
