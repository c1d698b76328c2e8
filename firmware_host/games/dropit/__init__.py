"""Drop It as a whole game: players or teams, supplies, turns, variants, jokers, the track.

Pure domain logic, event-sourced: :mod:`.events` are the facts, :mod:`.state` folds them
into a :class:`~.state.GameState`; :mod:`.lineup` (set-up), :mod:`.supply` (shapes left)
and :mod:`.track` (score track and point tokens) hold the rules; :mod:`.gamefile` and
:mod:`.referee` are the offline referee behind ``tabletop referee``.
"""
