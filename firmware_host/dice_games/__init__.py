"""Dice games at the table: each game's rules engine bound to the tray and the page.

A :class:`~firmware_host.dice_games.game.TableGame` turns what the table sees (stable dice
faces from the tray) and what players send (moves from the page) into the game's events,
and the game's state into the view the page draws. Everything here is free of hardware
and web code: the service (:mod:`firmware_host.service.dice_controller`) journals the events and
publishes the views; the page draws them.
"""
