"""The games the table hosts, one package each: pure domain logic, no hardware or web code.

A game's package holds its engine and, in its ``table`` module, its binding to the table:
for a dice game a :class:`~firmware_host.games.table_game.TableGame` that turns what the
table sees (stable dice faces from the tray) and what players send (moves from the page)
into the game's events, and the game's state into the view the page draws; for Drop It
(:mod:`.dropit`) what turns the referee's verdicts and the page's and panel's actions into
its events. Its page's files are in its ``page/`` folder. The service
(:mod:`firmware_host.service`) journals the events and publishes the views; the page draws
them. :mod:`~firmware_host.games.registry` names every game.
"""
