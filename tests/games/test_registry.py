"""The registry names every game once, by the name ``--game`` takes, with what plays it."""

from importlib.resources import files

from firmware_host.games.registry import DEFAULT_GAME, GAMES, BoardGame, DiceGame, dice_pages


def test_every_game_is_registered_by_its_name():
    assert list(GAMES) == ["dropit", "clack", "clever", "gotta2"]
    assert all(name == game.name for name, game in GAMES.items())
    assert isinstance(GAMES[DEFAULT_GAME], BoardGame)
    assert GAMES[DEFAULT_GAME].title == "Drop It"


def test_a_dice_games_page_is_the_page_folder_of_its_package():
    dice = [game for game in GAMES.values() if isinstance(game, DiceGame)]
    assert dice_pages() == [game.page for game in dice]
    for game in dice:
        package, folder = game.page
        assert game.table.__module__ == f"{package}.table"
        page = files(package) / folder
        assert sorted(f.name for f in page.iterdir()) == [f"{game.name}.css", f"{game.name}.js"]
