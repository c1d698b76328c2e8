"""The clever page module in headless Chromium: its turn steps equal the engine's, and a
player builds a whole turn by clicking, which the adapter accepts.

The module is loaded alone into a bare page (the files as served, no server), with a
``send`` that records the moves, so these tests need neither the table service nor its
page shell; the test through the service is ``test_browser.py``.
"""

import json
import random
from pathlib import Path

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from firmware_host.games.clever.events import Use
from firmware_host.games.clever.layout import Color
from firmware_host.games.clever.table import CleverTable
from tests.games.clever.test_table import advance, erics_bonus_turn, start
from tests.web.test_browser import CHROMEDRIVER, CHROMIUM, FLAGS

FIRMWARE = Path(__file__).resolve().parents[3] / "firmware_host"
STATIC = FIRMWARE / "web" / "static"
PAGE = FIRMWARE / "games" / "clever" / "page"
HARNESS = """<!doctype html>
<html><head><meta charset="utf-8">
<link rel="stylesheet" href="{static}/style.css">
<link rel="stylesheet" href="{page}/clever.css">
<script src="{static}/live.js"></script>
<script src="{page}/clever.js"></script>
</head><body><div id="root"></div><script>
window.sent = [];
window.reply = {{type: "done"}};
window.send = (player, move) => {{
  window.sent.push({{player, move}});
  return Promise.resolve(window.reply);
}};
window.show = (view, me) =>
  window.TABLE_GAMES.clever.render(document.getElementById("root"), view, me, window.send);
</script></body></html>
"""

# Replays a draft's steps with the page's own rules and lists the options after each step.
STEPS = """
const [view, player, color, steps] = arguments;
const logic = window.TABLE_GAMES.clever.logic;
let draft = logic.start(view, player, color);
const seen = [[logic.useOptions(view, draft), logic.bonusOptions(view, draft)]];
for (const [kind, arg] of steps) {
  draft = kind === "use" ? logic.use(view, draft, arg) : logic.bonus(view, draft, arg);
  seen.push([logic.useOptions(view, draft), logic.bonusOptions(view, draft)]);
}
return [seen, logic.move(draft)];
"""


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    folder = tmp_path_factory.mktemp("clever-page")
    harness = folder / "page.html"
    harness.write_text(HARNESS.format(static=STATIC.as_uri(), page=PAGE.as_uri()))
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, "--allow-file-access-from-files"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={folder / 'chromium-profile'}")
    options.add_argument("--window-size=1920,1080")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.get(harness.as_uri())
        yield driver
    finally:
        driver.quit()


def show(driver, game: CleverTable, me: str) -> None:
    driver.execute_script(
        "window.sent = []; window.show(arguments[0], arguments[1]);", game.view(), me
    )


def words(element) -> str:
    """An element's text as one line (inline grids put their parts on lines of their own)."""
    return " ".join(element.text.split())


def click(driver, selector: str) -> None:
    driver.find_element(By.CSS_SELECTOR, f"#root {selector}").click()


def engine_walk(game: CleverTable, player: str, color: Color, rng: random.Random):
    """A random draft of the engine's: its steps and the options before and after each."""
    draft = game.game.draft(player, color)
    steps, seen = [], []
    while True:
        uses = [{"box": u.box, "dice": list(u.dice)} for u in draft.use_options()]
        bonuses = draft.bonus_options()
        seen.append([uses, bonuses])
        if uses and (not bonuses or rng.random() < 0.7):
            pick = rng.choice(uses)
            steps.append(["use", pick])
            draft = draft.use(Use(pick["box"], tuple(pick["dice"])))
        elif bonuses:
            pick = rng.choice(bonuses)
            steps.append(["bonus", pick])
            draft = draft.bonus(pick)
        else:
            return steps, seen, draft


def test_the_pages_turn_steps_are_the_engines(page):
    """Across seeded games, every waiting player and usable colour: after each step of a
    random draft the page offers exactly the engine's options, and sends the engine's turn."""
    checked = 0
    for seed in range(3):
        rng = random.Random(seed)
        game = start("Ann", "Ben", "Cleo", seed=seed)
        while not game.over:
            view = game.view()
            for player, choices in view["game"]["choices"].items():
                for color in choices["colors"]:
                    steps, expected, draft = engine_walk(game, player, Color(color), rng)
                    seen, move = page.execute_script(STEPS, view, player, color, steps)
                    assert seen == expected
                    assert game.move_event(player, move) == draft.event().to_json()
                    checked += 1
            game, _ = advance(game, rng)
    assert checked > 150


def test_eric_plays_his_bonus_chain_on_the_page(page, tmp_path):
    game = erics_bonus_turn()
    show(page, game, "Olivia")  # not Olivia's turn: her page offers nothing
    assert page.find_elements(By.CSS_SELECTOR, "#root button") == []
    assert len(page.find_elements(By.CSS_SELECTOR, "#root .clever-sheet")) == 2
    boxes = page.find_elements(By.CSS_SELECTOR, "#clever-sheet-Eric .clever-box")
    assert len(boxes) == len(game.view()["game"]["sheet"]["boxes"])
    crossed = page.find_elements(By.CSS_SELECTOR, "#clever-sheet-Eric .clever-box.crossed")
    assert {b.get_attribute("data-box") for b in crossed} == {"yellow.1"}

    show(page, game, "Eric")
    colors = page.find_elements(By.CSS_SELECTOR, "#root button[data-move=color]")
    assert [b.get_attribute("data-color") for b in colors] == game.view()["game"]["choices"][
        "Eric"
    ]["colors"]
    assert page.find_elements(By.CSS_SELECTOR, "#root button[data-move=pass]") == []
    click(page, "button[data-move=color][data-color=yellow]")
    uses = page.find_elements(By.CSS_SELECTOR, "#root button[data-move=use]")
    assert [(b.get_attribute("data-box"), b.get_attribute("data-dice")) for b in uses] == [
        ("yellow.2", "0")
    ]
    choice = page.find_element(By.CSS_SELECTOR, "#root button[data-move=use]")
    group = choice.find_element(By.XPATH, "..")
    # compact: the die's chip heads its group, the button is the box's symbol and place
    assert group.get_attribute("data-dice") == "0"
    assert words(group.find_element(By.CLASS_NAME, "clever-group-dice")) == "#0 ★"
    assert words(choice) == "● 2"
    assert choice.get_attribute("aria-label") == "balloon 2 (blue) with die #0"
    click(page, "button[data-move=use][data-box='yellow.2']")
    click(page, "#clever-sheet-Eric .clever-box.option[data-box='yellow.3']")  # on the sheet
    bonuses = page.find_elements(By.CSS_SELECTOR, "#root button[data-move=bonus]")
    assert [b.get_attribute("data-box") for b in bonuses] == [
        "blue.cupcake.1",
        "blue.donut.1",
        "blue.cake.1",
    ]
    assert [words(b) for b in bonuses] == ["●● cupcake 1", "●● donut 1", "●● cake 1"]
    click(page, "button[data-move=bonus][data-box='blue.donut.1']")
    click(page, "button[data-move=bonus][data-box='red.1']")
    drafted = page.find_elements(By.CSS_SELECTOR, "#clever-sheet-Eric .clever-box.drafted")
    assert {b.get_attribute("data-box") for b in drafted} == {
        "yellow.2",
        "yellow.3",
        "blue.donut.1",
        "red.1",
    }
    page.save_screenshot(str(tmp_path / "eric.png"))
    click(page, "button[data-move=choose]")
    sent = page.execute_script("return window.sent")
    assert sent == [
        {
            "player": "Eric",
            "move": {
                "type": "choose",
                "color": "yellow",
                "uses": [{"box": "yellow.2", "dice": [0]}, {"box": "yellow.3", "dice": [1]}],
                "bonuses": ["blue.donut.1", "red.1"],
            },
        }
    ]
    after = game.apply(game.move_event("Eric", sent[0]["move"]))
    assert after.view()["scores"]["Eric"] == 1
    assert (tmp_path / "eric.png").stat().st_size > 10_000


def test_a_refused_move_is_shown_and_the_turn_kept(page):
    game = erics_bonus_turn()
    show(page, game, "table")
    page.execute_script("window.reply = {type: 'error', error: 'Eric cannot choose yellow: test'};")
    try:
        click(page, "button[data-move=color][data-color=yellow]")
        click(page, "button[data-move=use][data-box='yellow.2']")
        click(page, "button[data-move=choose]")
        error = page.find_element(By.CSS_SELECTOR, "#root .clever-error")
        assert error.text == "Eric cannot choose yellow: test"
        assert page.find_elements(By.CSS_SELECTOR, "#root .clever-box.drafted[data-box='yellow.2']")
        assert (
            json.loads(json.dumps(page.execute_script("return window.sent")))[0]["player"] == "Eric"
        )
        click(page, "button[data-move=undo]")
        assert page.find_elements(By.CSS_SELECTOR, "#root button[data-move=color]")
    finally:
        page.execute_script("window.reply = {type: 'done'};")


def test_the_table_screen_acts_for_every_waiting_player_and_they_may_pass(page, tmp_path):
    game = start("Olivia", "Eric", "Cleo")
    game = game.apply(game.dice_event([0, 1, 3, 2, 4]))
    game = game.apply(
        game.move_event(
            "Olivia",
            {"type": "choose", "color": "yellow", "uses": [{"box": "yellow.1", "dice": [0]}]},
        )
    )
    show(page, game, "table")
    panels = page.find_elements(By.CSS_SELECTOR, "#root .clever-actions")
    assert (
        [p.get_attribute("data-player") for p in panels]
        == game.view()["waiting_for"]
        == ["Eric", "Cleo"]
    )
    taken = page.find_elements(By.CSS_SELECTOR, "#root .clever-die.taken")
    assert [d.get_attribute("data-die") for d in taken] == ["0"]
    click(page, "button[data-move=pass][data-player=Cleo]")
    assert page.execute_script("return window.sent") == [
        {"player": "Cleo", "move": {"type": "pass"}}
    ]
    page.set_window_size(390, 844)
    try:
        show(page, game, "Eric")
        assert [
            p.get_attribute("data-player")
            for p in page.find_elements(By.CSS_SELECTOR, "#root .clever-actions")
        ] == ["Eric"]
        first = page.find_element(By.CSS_SELECTOR, "#root .clever-sheet")
        assert first.get_attribute("data-player") == "Eric"  # a phone shows its own sheet first
        assert first.size["width"] <= 390
        # every choice of every colour is a tap target of 44 px or more, within the phone
        colors = game.view()["game"]["choices"]["Eric"]["colors"]
        offered = 0
        for color in colors:
            click(page, f"button[data-move=color][data-color={color}]")
            for button in page.find_elements(By.CSS_SELECTOR, "#root .clever-actions button"):
                size, at = button.size, button.location
                assert min(size["width"], size["height"]) >= 44, button.get_attribute("outerHTML")
                assert at["x"] >= 0 and at["x"] + size["width"] <= 390
            offered += len(page.find_elements(By.CSS_SELECTOR, "#root button.choice"))
            page.save_screenshot(str(tmp_path / f"eric-{color}.png"))
            click(page, "button[data-move=undo]")
        assert colors and offered > 0
    finally:
        page.set_window_size(1920, 1080)


def test_dice_showing_the_same_face_offer_their_choices_once(page):
    game = erics_bonus_turn()
    view = game.view()
    dice = view["game"]["dice"]
    dice[4] = {**dice[2], "die": 4}  # a second green present beside die 2's
    page.execute_script("window.sent = []; window.show(arguments[0], 'Eric');", view)
    click(page, "button[data-move=color][data-color=green]")
    groups = page.find_elements(By.CSS_SELECTOR, "#root .clever-group")
    assert [g.get_attribute("data-dice") for g in groups] == ["0", "2"]  # the joker, die 2
    uses = page.find_elements(By.CSS_SELECTOR, "#root button[data-move=use]")
    boxes = [b.get_attribute("data-box") for b in uses]
    green = [b["id"] for b in view["game"]["sheet"]["boxes"] if b["area"] == "green"]
    assert sorted(boxes) == sorted(green * 2)  # each box with the joker and with a present
    assert {b.get_attribute("data-dice") for b in uses} == {"0", "2"}
