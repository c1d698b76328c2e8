"""The GOTTA2 puzzle sheet on the page in headless Chromium, against the service as
``tabletop run --game gotta2 --sim`` runs it: the screen offers only the current player's
legal pieces and spots, and a piece it places reaches the game, its journal and every board."""

import json

from selenium.webdriver.common.by import By

from firmware_host.journal.store import Journal
from firmware_host.tables.gotta2 import Gotta2Table
from tests.tables.service_support import RunningDice
from tests.web.test_browser import browser, waiting  # noqa: F401 - browser is a fixture

PLAYERS = ("Ann", "Ben")


def view_of(running):
    """The view the service publishes now (read in its loop)."""
    return running.call(lambda: running.service.table.snapshot().data)


def shaded(browser, player):  # noqa: F811 - the fixture's name
    selector = f".g2-sheet[data-player='{player}'] .g2-cell.g2-shaded"
    return {
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-column")))
        for c in browser.find_elements(By.CSS_SELECTOR, selector)
    }


def test_the_screen_places_a_piece_for_the_current_player(browser, tmp_path):  # noqa: F811
    with RunningDice(tmp_path, Gotta2Table, autoplay=False, players=PLAYERS) as running:
        browser.get(running.url)
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#gotta2-pieces"))
        boards = browser.find_elements(By.CSS_SELECTOR, ".g2-sheet")
        assert [b.get_attribute("data-player") for b in boards] == list(PLAYERS)
        legal = view_of(running)["game"]["legal"]
        offered = {
            b.get_attribute("data-piece")
            for b in browser.find_elements(By.CSS_SELECTOR, "button[data-piece]")
            if b.is_enabled()
        }
        assert legal["player"] == "Ann" and offered == set(legal["pieces"])
        assert not browser.find_elements(By.CSS_SELECTOR, "[data-move]")

        # pick the T tetromino: a dot on each legal spot of Ann's board, on no other board
        browser.find_element(By.CSS_SELECTOR, "button[data-piece='2-5']").click()
        targets = browser.find_elements(By.CSS_SELECTOR, ".g2-target[data-move]")
        moves = [json.loads(t.get_attribute("data-move")) for t in targets]
        assert sorted([m["row"], m["column"]] for m in moves) == sorted(legal["pieces"]["2-5"])
        ann = "[data-player='Ann'] .g2-target"
        assert len(browser.find_elements(By.CSS_SELECTOR, ann)) == len(targets)

        # a first click on a spot previews the piece, the button places it
        spot = next(
            t for t, m in zip(targets, moves, strict=True) if (m["row"], m["column"]) == (2, 3)
        )
        spot.click()
        preview = browser.find_elements(By.CSS_SELECTOR, "[data-player='Ann'] .g2-preview")
        cells = {
            (int(c.get_attribute("data-row")), int(c.get_attribute("data-column"))) for c in preview
        }
        assert cells == {(2, 3), (2, 4), (2, 5), (3, 4)}  # "###" over ".#."
        place = browser.find_element(By.ID, "gotta2-place")
        assert json.loads(place.get_attribute("data-move")) == {
            "type": "place",
            "piece": "2-5",
            "row": 2,
            "column": 3,
        }
        place.click()
        waiting(browser).until(lambda d: shaded(d, "Ann") == cells)
        assert shaded(browser, "Ben") == set()
        used = "button[data-piece='2-5'].g2-used"
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, used))
        view = view_of(running)
        assert view["waiting_for"] == ["Ben"] and view["game"]["sheets"]["Ann"]["bonus"] == 2
        assert "2-5" not in view["game"]["legal"]["pieces"]
        browser.save_screenshot(str(tmp_path / "screen.png"))
    with Journal(tmp_path / "journal.sqlite3", create=False) as reader:
        (game,) = reader.games()
        events = [e.data for e in reader.events(game.id)]
    assert events[1:] == [
        {"type": "piece_placed", "player": "Ann", "piece": "2-5", "row": 2, "column": 3}
    ]
    assert (tmp_path / "screen.png").stat().st_size > 10_000
