"""The registry names every game once, by the name ``--game`` takes, with what plays it."""

from importlib.resources import files

from firmware_host.games.registry import DEFAULT_GAME, GAMES, BoardGame, pages


def test_every_game_is_registered_by_its_name():
    assert list(GAMES) == ["dropit", "clack", "clever", "gotta2"]
    assert all(name == game.name for name, game in GAMES.items())
    assert isinstance(GAMES[DEFAULT_GAME], BoardGame)
    assert GAMES[DEFAULT_GAME].title == "Drop It"


def test_a_games_page_is_the_page_folder_of_its_package():
    assert pages() == [game.page for game in GAMES.values()]
    for game in GAMES.values():
        package, folder = game.page
        assert game.table.__module__ == f"{package}.table"
        page = files(package) / folder
        html = [f"{game.name}.html"] if isinstance(game, BoardGame) else []
        assert sorted(f.name for f in page.iterdir()) == sorted(
            [f"{game.name}.css", f"{game.name}.js", *html]
        )
