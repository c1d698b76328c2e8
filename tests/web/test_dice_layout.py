"""Every dice game's page fits, at the start, in the middle and at game over, with every
count of players up to four and the most, on the table's 1920x1080 screen and on a 412x915
phone (measured in headless Chromium as Drop It's page is: tests/web/layout.py).
Screenshots of each state go to ``page-shots/`` in pytest's temp dir."""

import random

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from firmware_host.games.clack.table import ClackTable
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.gotta2.table import Gotta2Table
from firmware_host.games.table_game import Setup
from firmware_host.i18n import translator
from firmware_host.journal.store import Journal
from firmware_host.sensors import DieReading
from firmware_host.service.dice_controller import DiceController
from firmware_host.web.access import Access
from firmware_host.web.frontend import DICE_GAMES
from tests.web.layout import PHONE, SCREEN, check, viewport
from tests.web.support import serve, web_config
from tests.web.test_browser import browser, waiting  # noqa: F401 - a fixture

NAMES = ("Ann", "Ben", "Cleo", "Dev", "Eli", "Fay")
MIDDLE_EVENTS = 25


def step(table: DiceController, rng: random.Random) -> None:
    """One throw or one simulated move of the game at ``table`` (in the server's loop)."""
    game = table.game
    roll = game.roll()
    if roll is not None and not any(
        game.auto_move(p, rng) for p in table.snapshot().waiting_for
    ):
        for die in roll.dice:
            table.die(DieReading(die, True, None))
            table.die(DieReading(die, False, rng.randrange(6)))
        return
    for player in table.snapshot().waiting_for:
        move = game.auto_move(player, rng)
        if move is not None:
            table.play(player, move)
            return
    raise AssertionError(f"the game waits for nothing: {table.snapshot().status}")


def shown(driver, url, size):
    viewport(driver, size)
    driver.get(url)
    waiting(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game *"))
    waiting(driver).until(lambda d: d.find_element(By.ID, "conn").text == "live")


def choosing(driver) -> bool:
    """Open the turn of the colour with the most choices (Auch schon clever), if one is offered:
    its choices must fit too. False when the page offers no colour."""
    colours = driver.find_elements(By.CSS_SELECTOR, "#game button[data-move=color]")
    most, best = -1, None
    for colour in [c.get_attribute("data-color") for c in colours]:
        driver.find_element(By.CSS_SELECTOR, f"#game button[data-color={colour}]").click()
        count = len(driver.find_elements(By.CSS_SELECTOR, "#game button.choice"))
        if count > most:
            most, best = count, colour
        driver.find_element(By.CSS_SELECTOR, "#game button[data-move=undo]").click()
    if best is None:
        return False
    driver.find_element(By.CSS_SELECTOR, f"#game button[data-color={best}]").click()
    waiting(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game .clever-choices"))
    return True


@pytest.mark.parametrize(
    ("kind", "players"),
    [
        (CleverTable, 2),
        (CleverTable, 3),
        (CleverTable, 4),
        (ClackTable, 2),
        (ClackTable, 3),
        (ClackTable, 4),
        (ClackTable, 6),
        (Gotta2Table, 2),
        (Gotta2Table, 3),
        (Gotta2Table, 4),
        (Gotta2Table, 6),
    ],
    ids=lambda v: v if isinstance(v, int) else v.KIND,
)
def test_every_state_of_a_dice_game_page_fits(
    browser,  # noqa: F811 - the fixture
    tmp_path,
    tmp_path_factory,
    kind,
    players,
):
    shots = tmp_path_factory.getbasetemp() / "page-shots"
    rng = random.Random(players)
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = DiceController.start(journal, kind, Setup(NAMES[:players], seed=4), dice=6)
        access = Access(web_config(), seed=3)
        hosts = ("127.0.0.1", "::1")
        with serve(table, access, hosts, frontend=DICE_GAMES) as served:
            screen, phone = served.urls
            name = f"{kind.KIND}-{players}"
            shown(browser, f"{screen}/", SCREEN)
            check(browser, shots, f"{name}-screen-start", screen=True)
            code = access.join_code(table.snapshot().game_id)
            joined_on_phone(browser, shots, name, f"{phone}/?code={code}", "you: Ann")

            while table.events < MIDDLE_EVENTS:
                served.call(lambda: step(table, rng))
            shown(browser, f"{screen}/", SCREEN)
            check(browser, shots, f"{name}-screen-middle", screen=True)
            if choosing(browser):
                check(browser, shots, f"{name}-screen-choosing", screen=True)
            shown(browser, f"{phone}/", PHONE)
            check(browser, shots, f"{name}-phone-middle", screen=False)
            if choosing(browser):
                check(browser, shots, f"{name}-phone-choosing", screen=False)

            for _ in range(5000):
                if table.finished:
                    break
                served.call(lambda: step(table, rng))
            assert table.finished
            shown(browser, f"{screen}/", SCREEN)
            body = browser.find_element(By.TAG_NAME, "body")
            waiting(browser).until(lambda d: body.get_attribute("data-over") == "true")
            assert not browser.find_element(By.ID, "join-screen").is_displayed()
            check(browser, shots, f"{name}-screen-over", screen=True)
            shown(browser, f"{phone}/", PHONE)
            check(browser, shots, f"{name}-phone-over", screen=False)

            # the results are ranked, and the screen plays again with the same players
            shown(browser, f"{screen}/", SCREEN)
            ranked = browser.find_elements(By.CSS_SELECTOR, "#scores li")
            totals = [int(li.find_element(By.CLASS_NAME, "total").text) for li in ranked]
            assert totals == sorted(table.snapshot().data["scores"].values(), reverse=True)
            assert ranked[0].get_attribute("data-rank") == "1"
            over = table.game_id
            browser.find_element(By.ID, "again").click()
            body = browser.find_element(By.TAG_NAME, "body")
            waiting(browser).until(lambda d: body.get_attribute("data-over") == "false")
            assert table.game_id == over + 1 and table.snapshot().players == NAMES[:players]


def joined_on_phone(driver, shots, name: str, url: str, seat: str) -> None:
    """A phone opens the join page at ``url`` (its layout checked), joins as Ann and is
    shown ``seat`` (checked again)."""
    shown(driver, url, PHONE)
    check(driver, shots, f"{name}-phone-join", screen=False)
    Select(driver.find_element(By.ID, "join-seat")).select_by_value(NAMES[0])
    driver.find_element(By.ID, "join").click()
    waiting(driver).until(lambda d: d.find_element(By.ID, "seat").text == seat)
    check(driver, shots, f"{name}-phone-start", screen=False)


@pytest.mark.parametrize(
    ("kind", "players"),
    [(CleverTable, 4), (ClackTable, 6), (Gotta2Table, 6)],
    ids=lambda v: v if isinstance(v, int) else v.KIND,
)
def test_in_german_every_state_of_a_dice_game_fits(
    browser,  # noqa: F811 - the fixture
    tmp_path,
    tmp_path_factory,
    kind,
    players,
):
    """German runs about a third longer: the most players of each game at the start (and
    joining on a phone), in the middle (and a turn being built) and at game over, on the
    screen and on a phone, with the game's status line in German."""
    shots = tmp_path_factory.getbasetemp() / "page-shots"
    rng = random.Random(4)
    say = translator("de").say
    with Journal(tmp_path / "journal.sqlite3") as journal:
        table = DiceController.start(journal, kind, Setup(NAMES[:players], seed=4), dice=6)
        access = Access(web_config(), seed=3)
        with serve(table, access, ("127.0.0.1", "::1"), frontend=DICE_GAMES) as served:
            screen, phone = served.urls
            served.call(lambda: table.link_changed(True, "hub connected"))
            name = f"{kind.KIND}-de"
            shown(browser, f"{screen}/?lang=de", SCREEN)
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
            assert browser.find_element(By.ID, "status").text == table.game.view(say)["status"]
            check(browser, shots, f"{name}-screen-start", screen=True)
            code = access.join_code(table.snapshot().game_id)
            joined_on_phone(browser, shots, name, f"{phone}/?lang=de&code={code}", "du: Ann")

            while table.events < MIDDLE_EVENTS:
                served.call(lambda: step(table, rng))
            status = table.game.view(say)["status"]
            assert status != table.snapshot().data["status"]  # the English one
            for url, size, where in ((screen, SCREEN, "screen"), (phone, PHONE, "phone")):
                shown(browser, f"{url}/?lang=de", size)
                assert browser.find_element(By.ID, "status").text == status
                check(browser, shots, f"{name}-{where}-middle", screen=size == SCREEN)
                if choosing(browser):  # Auch schon clever: a turn being built
                    check(browser, shots, f"{name}-{where}-choosing", size == SCREEN)
            if kind is CleverTable:  # the dice's hover words are German too
                titles = [
                    die.get_attribute("title")
                    for die in browser.find_elements(By.CSS_SELECTOR, "#clever-dice .clever-die")
                ]
                assert titles and all(t.startswith("Würfel ") for t in titles), titles

            for _ in range(5000):
                if table.finished:
                    break
                served.call(lambda: step(table, rng))
            assert table.finished
            for url, size, where in ((screen, SCREEN, "screen"), (phone, PHONE, "phone")):
                shown(browser, f"{url}/?lang=de", size)
                body = browser.find_element(By.TAG_NAME, "body")
                waiting(browser).until(lambda d, b=body: b.get_attribute("data-over") == "true")
                assert "Spielende" in body.text
                check(browser, shots, f"{name}-{where}-over", screen=size == SCREEN)
