"""Clack! (Amigo; Haim Shafir): race for the discs that match the shape die and the colour die.

- :mod:`.discs`: the 36 discs and both dice as data (``config/games/clack.yaml``);
- :mod:`.events`: what happens, as events with a stable JSON form;
- :mod:`.engine`: the rules, a pure function of the events (:class:`ClackGame`);
- :mod:`.arbiter`: the one lock that decides a race of claims in arrival order;
- :mod:`.dice`: dice events from the hub's face indices or from seeded virtual dice.
"""
