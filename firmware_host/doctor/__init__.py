"""``tabletop doctor``: checks a table end to end and says in plain words what to fix.

- :mod:`.report`: findings (ok / what is wrong and what to do) and the summary;
- :mod:`.configs`: every config file loaded and checked;
- :mod:`.inventory`: the hub's hello against the table and panel files;
- :mod:`.gates`: which beams never cut or never cleared during the check window;
- :mod:`.examine`: the whole check, in order, on an injectable clock.
"""
