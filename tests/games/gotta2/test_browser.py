"""The GOTTA2 puzzle sheet on the page in headless Chromium, against the service as
``tabletop run --game gotta2 --sim`` runs it: the screen offers only the current player's
legal pieces and spots, and a piece it places reaches the game, its journal and every board."""

import json
import random
from pathlib import Path

from selenium.webdriver.common.by import By

from firmware_host.games.gotta2.engine import Gotta2Game
from firmware_host.games.gotta2.events import GameStarted
from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from tests.games.gotta2.test_engine import small_sheet
from tests.service.dice_support import RunningDice
from tests.web.test_browser import browser, waiting  # noqa: F401 - browser is a fixture

PLAYERS = ("Ann", "Ben")


def view_of(running):
    """The view the service publishes now (read in its loop)."""
    return running.call(lambda: running.service.controller.snapshot().data)


def shaded(browser, player):  # noqa: F811 - the fixture's name
    selector = f".g2-sheet[data-player='{player}'] .g2-cell.g2-shaded"
    return cells_of(browser.find_elements(By.CSS_SELECTOR, selector))


def cells_of(elements):
    """The (row, column) of board cells."""
    return {
        (int(c.get_attribute("data-row")), int(c.get_attribute("data-column"))) for c in elements
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
        cells = cells_of(browser.find_elements(By.CSS_SELECTOR, "[data-player='Ann'] .g2-preview"))
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


FIRMWARE = Path(__file__).resolve().parents[3] / "firmware_host"
STATIC = FIRMWARE / "web" / "static"
PAGE = FIRMWARE / "games" / "gotta2" / "page"


def show(browser, tmp_path, view, me):  # noqa: F811 - the fixture's name
    """Draw ``view`` for seat ``me`` with the real renderer; sent moves go to window.sent."""
    page = tmp_path / "gotta2.html"
    page.write_text(
        "<!doctype html><meta charset='utf-8'>"
        f"<link rel='stylesheet' href='{(PAGE / 'gotta2.css').as_uri()}'>"
        "<div id='game'></div>"
        f"<script src='{(STATIC / 'live.js').as_uri()}'></script>"  # the words: English
        f"<script src='{(PAGE / 'gotta2.js').as_uri()}'></script>"
        "<script>window.sent = [];"
        "const sendMove = (player, move) => { window.sent.push([player, move]);"
        " return Promise.resolve({type: 'done'}); };"
        f"TABLE_GAMES.gotta2.render(document.getElementById('game'), {json.dumps(view)},"
        f" {json.dumps(me)}, sendMove);</script>"
    )
    browser.get(page.as_uri())
    waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, ".g2-sheet"))


def test_only_the_current_players_phone_offers_moves_and_a_bonus_piece_is_picked_already(
    browser,  # noqa: F811 - the fixture's name
    tmp_path,
):
    game = Gotta2Table.replay([Gotta2Table.first_event(Setup(players=PLAYERS))])
    for seat, move in (
        ("Ann", {"type": "place", "piece": "2-1", "row": 0, "column": 0}),
        ("Ben", {"type": "place", "piece": "2-2", "row": 0, "column": 0}),
        ("Ann", {"type": "place", "piece": "3-1", "row": 2, "column": 0}),  # 5 points: B5
    ):
        game = game.apply(game.move_event(seat, move))
    view = game.view()
    show(browser, tmp_path, view, "Ben")
    assert not [b for b in browser.find_elements(By.CSS_SELECTOR, "[data-piece]") if b.is_enabled()]
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-move]")
    sheets = browser.find_elements(By.CSS_SELECTOR, ".g2-sheet")
    assert [s.get_attribute("data-player") for s in sheets] == ["Ben", "Ann"]  # own board first

    show(browser, tmp_path, view, "Ann")
    (offered,) = [
        b for b in browser.find_elements(By.CSS_SELECTOR, "[data-piece]") if b.is_enabled()
    ]
    assert offered.get_attribute("data-piece") == "B5"
    skip = browser.find_element(By.ID, "gotta2-skip")  # placing a bonus piece is optional
    assert json.loads(skip.get_attribute("data-move")) == {"type": "skip", "piece": "B5"}
    targets = browser.find_elements(By.CSS_SELECTOR, ".g2-target[data-move]")
    assert len(targets) == len(view["game"]["legal"]["pieces"]["B5"])
    spot = next(t for t in targets if json.loads(t.get_attribute("data-move"))["column"] == 2)
    spot.click()
    browser.find_element(By.CSS_SELECTOR, ".g2-target.g2-armed").click()
    sent = browser.execute_script("return window.sent")
    assert sent == [["Ann", {"type": "bonus", "piece": "B5", "row": 0, "column": 2}]]


def test_a_piece_that_fits_nowhere_may_be_chosen_and_a_chosen_piece_is_picked_already(
    browser,  # noqa: F811 - the fixture's name
    tmp_path,
):
    sheet = small_sheet(1, 3, [(1, ["###", "#", "#"])])
    engine = Gotta2Game.start(sheet, GameStarted(players=PLAYERS))
    game = Gotta2Table(engine)
    game = game.apply(
        game.move_event("Ann", {"type": "place", "piece": "1-2", "row": 0, "column": 1})
    )
    show(browser, tmp_path, game.view(), "Ben")
    browser.find_element(By.CSS_SELECTOR, "button[data-piece='1-1']").click()  # fits (empty)
    assert not browser.find_elements(By.ID, "gotta2-choose")
    game = game.apply(
        game.move_event("Ben", {"type": "place", "piece": "1-3", "row": 0, "column": 0})
    )
    show(browser, tmp_path, game.view(), "Ann")
    assert game.view()["game"]["legal"]["pieces"] == {"1-1": []}
    browser.find_element(By.CSS_SELECTOR, "button[data-piece='1-1']").click()
    assert not browser.find_elements(By.CSS_SELECTOR, ".g2-target")
    browser.find_element(By.ID, "gotta2-choose").click()
    sent = browser.execute_script("return window.sent")
    assert sent == [["Ann", {"type": "choose", "piece": "1-1"}]]

    engine = Gotta2Game.start(sheet, GameStarted(players=PLAYERS))
    game = Gotta2Table(engine)
    game = game.apply(game.move_event("Ann", {"type": "choose", "piece": "1-1"}))
    show(browser, tmp_path, game.view(), "Ann")  # the piece chosen: its spot at once
    targets = browser.find_elements(By.CSS_SELECTOR, ".g2-target[data-move]")
    assert [json.loads(t.get_attribute("data-move")) for t in targets] == [
        {"type": "place", "piece": "1-1", "row": 0, "column": 0}
    ]


def test_the_end_highlights_each_largest_rectangle_and_lists_the_scoring_round(
    browser,  # noqa: F811 - the fixture's name
    tmp_path,
):
    game = Gotta2Table.replay([Gotta2Table.first_event(Setup(players=("Ann", "Ben", "Cleo")))])
    rng = random.Random(2)
    while not game.over:
        (player,) = game.view()["waiting_for"]
        game = game.apply(game.move_event(player, game.auto_move(player, rng)))
    view = game.view()
    show(browser, tmp_path, view, "table")
    assert not browser.find_elements(By.CSS_SELECTOR, "[data-move], #gotta2-pieces")
    for player, sheet in view["game"]["sheets"].items():
        lit = browser.find_elements(By.CSS_SELECTOR, f"[data-player='{player}'] .g2-rect")
        assert cells_of(lit) == {tuple(c) for c in sheet["rectangle"]["cells"]}
        assert (
            cells_of(lit) and len(lit) == sheet["rectangle"]["rows"] * sheet["rectangle"]["columns"]
        )
    listed = browser.find_elements(By.CSS_SELECTOR, "#gotta2-scoring li")
    sheets = view["game"]["sheets"]
    ranked = sorted(view["game"]["scoring_order"], key=lambda p: -sheets[p]["points"])
    assert [li.get_attribute("data-player") for li in listed] == ranked  # best first
    winners = browser.find_elements(By.CSS_SELECTOR, ".g2-sheet.g2-winner")
    assert [w.get_attribute("data-player") for w in winners] == view["winners"]
