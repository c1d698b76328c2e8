"""Clack! on the page in headless Chromium, against the service as ``tabletop run --game clack
--sim`` runs it: the screen throws the virtual hub's dice, offers the discs to claim, picks
who grabs, and a claim it sends reaches the game and its journal; every stack is shown."""

from selenium.webdriver.common.by import By

from firmware_host.journal.store import Journal
from firmware_host.tables.clack import ClackTable
from tests.tables.service_support import RunningDice
from tests.web.test_browser import browser, waiting  # noqa: F401 - browser is a fixture

PLAYERS = ("Ann", "Ben", "Cleo")


def game_of(running):
    """The Clack! game the service holds now (read in its loop)."""
    return running.call(lambda: running.service.table.game.game)


def throw_until_a_round_opens(browser, running):  # noqa: F811 - the fixture's name
    """Press the page's "Throw the dice" until a roll leaves matching discs on the table."""
    button = browser.find_element(By.ID, "roll-button")
    for throw in range(1, 13):
        waiting(browser).until(lambda d: button.is_displayed())
        button.click()
        waiting(browser).until(lambda d, round=throw: game_of(running).round == round)
        if game_of(running).round_open:
            return game_of(running)
    raise AssertionError("twelve throws and no round opened")


def stack_height(browser, player):  # noqa: F811 - the fixture's name
    selector = f"[data-stack='{player}'] .clack-height"
    return int(browser.find_element(By.CSS_SELECTOR, selector).text)


def test_the_screen_claims_a_disc_for_the_player_it_picks(browser, tmp_path):  # noqa: F811
    with RunningDice(tmp_path, ClackTable, autoplay=False, players=PLAYERS, seed=4) as running:
        browser.get(running.url)
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#clack-table button"))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#clack-table button")) == 36
        assert not browser.find_elements(By.CSS_SELECTOR, "#clack-table button[data-move]")

        game = throw_until_a_round_opens(browser, running)
        matching, wrong = (
            game.matching()[0],
            next(d for d in game.table if d not in game.matching()),
        )
        offered = f"#clack-disc-{matching}[data-move]"
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, offered))
        claimable = browser.find_elements(By.CSS_SELECTOR, "#clack-table button[data-move]")
        assert sorted(int(b.get_attribute("data-disc")) for b in claimable) == list(game.table)
        shape, colour = game.last_roll.shape, game.last_roll.color
        dice = {
            d.get_attribute("data-die"): d.get_attribute("data-face")
            for d in browser.find_elements(By.CSS_SELECTOR, "#clack-dice [data-die]")
        }
        assert dice == {"shape": shape, "color": colour}

        # the screen picks Ben, then claims a matching disc: it goes onto Ben's stack
        browser.find_element(By.CSS_SELECTOR, "[data-claimer='Ben']").click()
        waiting(browser).until(
            lambda d: (
                "chosen"
                in d.find_element(By.CSS_SELECTOR, "[data-claimer='Ben']").get_attribute("class")
            )
        )
        browser.find_element(By.CSS_SELECTOR, offered).click()
        waiting(browser).until(lambda d: stack_height(d, "Ben") == 1)
        assert game_of(running).stack("Ben") == (matching,)
        assert not browser.find_elements(By.ID, f"clack-disc-{matching}")
        assert browser.find_element(By.ID, "clack-last").text == f"Ben takes disc {matching}"

        # a wrong grab for Ann (no discs yet, so no penalty): the disc stays, the page says so
        browser.find_element(By.CSS_SELECTOR, "[data-claimer='Ann']").click()
        waiting(browser).until(
            lambda d: d.find_elements(By.CSS_SELECTOR, f"#clack-disc-{wrong}[data-move]")
        )
        browser.find_element(By.ID, f"clack-disc-{wrong}").click()
        waiting(browser).until(
            lambda d: "does not match" in d.find_element(By.ID, "clack-last").text
        )
        assert stack_height(browser, "Ann") == 0 and stack_height(browser, "Ben") == 1
        browser.save_screenshot(str(tmp_path / "clack.png"))

    with Journal(running.options.journal, create=False) as reader:
        (stored,) = reader.games()
        claims = [e.data for e in reader.events(stored.id) if e.data["type"] == "disc_claimed"]
    assert claims == [
        {"type": "disc_claimed", "round": game.round, "player": "Ben", "disc": matching},
        {"type": "disc_claimed", "round": game.round, "player": "Ann", "disc": wrong},
    ]
    assert (tmp_path / "clack.png").stat().st_size > 10_000
