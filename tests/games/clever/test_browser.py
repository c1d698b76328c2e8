"""Auch schon clever on the real page, served by the table service on the virtual hub: the
table's screen throws the dice and plays the starting player's turn by clicking; the turn
reaches the journal and the sheet on the page shows it crossed.

Debian's headless Chromium through selenium, as tests/web/test_browser.py.
"""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from firmware_host.games.clever.table import CleverTable
from firmware_host.journal.store import Journal
from tests.service.dice_support import RunningDice
from tests.web.test_browser import WAIT_S, browser  # noqa: F401 (the fixture)


def waiting(driver):
    return WebDriverWait(driver, WAIT_S, poll_frequency=0.05)


def journaled(tmp_path):
    with Journal(tmp_path / "journal.sqlite3", create=False) as reader:
        (game,) = reader.games()
        return [e.data for e in reader.events(game.id)]


def test_the_screen_throws_and_plays_a_turn(browser, tmp_path):  # noqa: F811
    with RunningDice(tmp_path, CleverTable, autoplay=False, players=("Ann", "Ben")) as running:
        table = running.service.controller
        view = lambda: running.call(lambda: table.snapshot().data)  # noqa: E731
        events = lambda: running.call(lambda: table.events)  # noqa: E731
        browser.get(running.url)
        # throw until Ann can use a die (a throw she cannot use is thrown again)
        while view()["roll"] is not None:
            before = events()
            button = browser.find_element(By.ID, "roll-button")
            waiting(browser).until(lambda d, b=button: b.is_displayed())
            button.click()
            waiting(browser).until(lambda d, n=before: events() > n)
        assert view()["waiting_for"] == ["Ann"]
        shown = "#game .clever-actions[data-player=Ann] button[data-move=color]"
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, shown))
        dice = browser.find_elements(By.CSS_SELECTOR, "#game .clever-die")
        assert [int(d.get_attribute("data-face")) for d in dice] == journaled(tmp_path)[-1]["faces"]

        color = browser.find_element(By.CSS_SELECTOR, shown)
        offered = view()["game"]["choices"]["Ann"]["colors"]
        assert color.get_attribute("data-color") == offered[0]
        color.click()
        uses = []
        while found := browser.find_elements(By.CSS_SELECTOR, "#game button[data-move=use]"):
            dice_used = [int(d) for d in found[0].get_attribute("data-dice").split(",")]
            uses.append({"box": found[0].get_attribute("data-box"), "dice": dice_used})
            found[0].click()
        bonuses = []
        while found := browser.find_elements(By.CSS_SELECTOR, "#game button[data-move=bonus]"):
            bonuses.append(found[0].get_attribute("data-box"))
            found[0].click()
        before = events()
        browser.find_element(By.CSS_SELECTOR, "#game button[data-move=choose]").click()
        waiting(browser).until(lambda d: events() > before)
        assert journaled(tmp_path)[-1] == {
            "type": "dice_chosen",
            "player": "Ann",
            "color": offered[0],
            "uses": uses,
            "bonuses": bonuses,
        }
        for box in [u["box"] for u in uses] + bonuses:
            crossed = f"#clever-sheet-Ann .clever-box.crossed[data-box='{box}']"
            waiting(browser).until(lambda d, c=crossed: d.find_elements(By.CSS_SELECTOR, c))
        waiting(browser).until(
            lambda d: (
                d.find_element(By.CSS_SELECTOR, "#scores li[data-name=Ann] .total").text
                == str(view()["scores"]["Ann"])
            )
        )
        browser.save_screenshot(str(tmp_path / "clever-screen.png"))
        assert view()["game"]["phase"] in ("others", "roll")
    assert (tmp_path / "clever-screen.png").stat().st_size > 10_000
