"""Clack! on the page in headless Chromium, against the service as ``tabletop run --game clack
--sim`` runs it: the screen throws the virtual hub's dice, offers the discs to claim, picks
who grabs, and a claim it sends reaches the game and its journal; every stack is shown."""

from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from firmware_host.games.clack.table import ClackTable, disc_set
from firmware_host.journal.store import Journal
from tests.service.dice_support import RunningDice
from tests.web.test_browser import WAIT_S, browser  # noqa: F401 - browser is a fixture

PLAYERS = ("Ann", "Ben", "Cleo")


def waiting(driver):
    """Wait for the page; an element the page drew again meanwhile is looked up again."""
    return WebDriverWait(
        driver, WAIT_S, poll_frequency=0.05, ignored_exceptions=(StaleElementReferenceException,)
    )


def click(driver, selector):
    """Click the element ``selector`` finds once it is there (found again if redrawn)."""

    def clicked(d):
        d.find_element(By.CSS_SELECTOR, selector).click()
        return True

    waiting(driver).until(clicked)


def chosen(driver, player):
    button = driver.find_element(By.CSS_SELECTOR, f"[data-claimer='{player}']")
    return "chosen" in button.get_attribute("class")


def game_of(running):
    """The Clack! game the service holds now (read in its loop)."""
    return running.call(lambda: running.service.controller.game.game)


def throw_until_a_round_opens(driver, running):
    """Press the page's "Throw the dice" until a roll leaves matching discs on the table."""
    for throw in range(1, 13):
        waiting(driver).until(lambda d: d.find_element(By.ID, "roll-button").is_displayed())
        click(driver, "#roll-button")
        waiting(driver).until(lambda d, round=throw: game_of(running).round == round)
        if game_of(running).round_open:
            return game_of(running)
    raise AssertionError("twelve throws and no round opened")


def stack_height(driver, player):
    """The player's score (their stack's height) as the page shows it: in the score list only."""
    score = driver.find_element(By.CSS_SELECTOR, f"#scores li[data-name='{player}'] .total")
    total = int(score.text)
    card = driver.find_element(By.CSS_SELECTOR, f"[data-stack='{player}']")
    assert card.text.strip() == player, "the stack's card repeats the score"
    return total


def chips_shown(driver, player):
    chips = driver.find_elements(By.CSS_SELECTOR, f"[data-stack='{player}'] .clack-chip")
    return [int(c.get_attribute("data-disc")) for c in chips]


def discs_shown(driver, which=""):
    """The ids of the discs the page shows on the table (``[data-move]``: offered to claim)."""
    buttons = driver.find_elements(By.CSS_SELECTOR, f"#clack-table button{which}")
    return sorted(int(b.get_attribute("data-disc")) for b in buttons)


def dice_shown(driver):
    faces = driver.find_elements(By.CSS_SELECTOR, "#clack-dice [data-die]")
    return {d.get_attribute("data-die"): d.get_attribute("data-face") for d in faces}


def last_shown(driver):
    return driver.find_element(By.ID, "clack-last").text


def test_the_screen_claims_a_disc_for_the_player_it_picks(browser, tmp_path):  # noqa: F811
    with RunningDice(
        tmp_path, ClackTable, autoplay=False, players=PLAYERS, seed=9
    ) as running:  # first throw: green arrow
        browser.get(running.url)
        waiting(browser).until(lambda d: len(discs_shown(d)) == 36)
        assert discs_shown(browser, "[data-move]") == []

        game = throw_until_a_round_opens(browser, running)
        matching, wrong = (
            game.matching()[0],
            next(d for d in game.table if d not in game.matching()),
        )
        waiting(browser).until(lambda d: discs_shown(d, "[data-move]") == list(game.table))
        dice = {"shape": game.last_roll.shape, "color": game.last_roll.color}
        waiting(browser).until(lambda d: dice_shown(d) == dice)

        # the screen picks Ben, then claims a matching disc: it goes onto Ben's stack
        click(browser, "[data-claimer='Ben']")
        waiting(browser).until(lambda d: chosen(d, "Ben"))
        click(browser, f"#clack-disc-{matching}[data-move]")
        waiting(browser).until(lambda d: stack_height(d, "Ben") == 1)
        assert game_of(running).stack("Ben") == (matching,)
        waiting(browser).until(lambda d: chips_shown(d, "Ben") == [matching])
        waiting(browser).until(lambda d: matching not in discs_shown(d))
        symbols = " + ".join(next(d for d in disc_set().discs if d.id == matching).symbols)
        waiting(browser).until(lambda d: last_shown(d) == f"Ben takes the {symbols} disc")

        # a wrong grab for Ann (no discs yet, so no penalty): the disc stays, the page says so
        click(browser, "[data-claimer='Ann']")
        waiting(browser).until(lambda d: chosen(d, "Ann"))
        click(browser, f"#clack-disc-{wrong}[data-move]")
        waiting(browser).until(lambda d: "does not match" in last_shown(d))
        waiting(browser).until(lambda d: (stack_height(d, "Ann"), stack_height(d, "Ben")) == (0, 1))
        browser.save_screenshot(str(tmp_path / "clack.png"))

    with Journal(running.options.journal, create=False) as reader:
        (stored,) = reader.games()
        claims = [e.data for e in reader.events(stored.id) if e.data["type"] == "disc_claimed"]
    assert claims == [
        {"type": "disc_claimed", "round": game.round, "player": "Ben", "disc": matching},
        {"type": "disc_claimed", "round": game.round, "player": "Ann", "disc": wrong},
    ]
    assert (tmp_path / "clack.png").stat().st_size > 10_000


def test_the_staff_view_offers_a_dice_game_its_players_only_and_sets_up_the_next(
    browser,  # noqa: F811
    tmp_path,
):
    with RunningDice(tmp_path, ClackTable, autoplay=False, players=PLAYERS) as running:
        browser.get(running.url.rstrip("/") + "/staff")
        browser.find_element(By.ID, "pin").send_keys("2741")  # the reference web settings'
        browser.find_element(By.ID, "unlock-button").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "panel").is_displayed())
        players = browser.find_element(By.ID, "new-players")
        waiting(browser).until(lambda d: players.get_attribute("value") == "Ann, Ben, Cleo")
        status = browser.find_element(By.ID, "game-status").text
        assert status.startswith(f"Clack! (game {game_of_id(running)}): ")
        for hidden in ("staff-resync", "new-teams", "new-edges", "new-jokers"):
            assert not browser.find_element(By.ID, hidden).is_displayed(), hidden
        players.clear()
        players.send_keys("Dev, Eli")
        browser.find_element(By.ID, "new-start").click()
        message = browser.find_element(By.ID, "message")
        waiting(browser).until(lambda d: message.text == "The new game begins.")
        assert running.call(lambda: running.service.controller.game.players) == ("Dev", "Eli")


def game_of_id(running):
    """The id of the game the service holds now."""
    return running.call(lambda: running.service.controller.game_id)
