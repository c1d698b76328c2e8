"""The scoreboard page: the table's view as JSON and SVG, served live, and the page's actions.

:mod:`.view` builds the view from the game (pure), :mod:`.svg` draws the board,
:mod:`.actions` reads and checks what the page asks for, :mod:`.access` holds join codes,
seats and the staff PIN, :mod:`.table` is the interface the service implements,
:mod:`.server` is the ASGI app, and :mod:`.demo` replays a recorded game until the
service exists. The rules and games never import this package.
"""
