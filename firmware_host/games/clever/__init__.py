"""The party dice game "Auch schon clever" (Schmidt Spiele; Wolfgang Warsch): data and rules.

No hardware, web or journal code: the table's service feeds the engine dice values and the
players' choices as events and asks it what is legal, whose turn it is and who wins.

- :mod:`~firmware_host.games.clever.layout`: the game file (dice and sheet) and its checks;
- :mod:`~firmware_host.games.clever.sheet`: the sheet as boxes, order rules, bonuses, stars;
- :mod:`~firmware_host.games.clever.dice`: faces of a roll, seeded virtual dice;
- :mod:`~firmware_host.games.clever.events`: the events and their JSON form;
- :mod:`~firmware_host.games.clever.turn`: one player's turn, step by step, with the rules;
- :mod:`~firmware_host.games.clever.game`: the game as a pure function of its events;
- :mod:`~firmware_host.games.clever.autoplay`: random players and whole simulated games.
"""
