"""The page in a real browser: Debian's headless Chromium, driven by selenium through
Debian's (version-matched) chromedriver, against the real app served by uvicorn.

The screen sees the board, turns advance live, the totals shown are the game's, and its
yes button answers the referee; then a phone-sized window joins with the code the screen
shows and answers a question put to its player. Screenshots go to a temp dir.
"""

import shutil

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from firmware_host.config.board import load_board
from firmware_host.games.dropit.actions import Answer
from firmware_host.web.access import Access
from firmware_host.web.actions import TABLE_SEAT
from firmware_host.web.demo import DemoFeed
from tests.web.support import FOUR, report, serve, web_config

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"
FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
)
WAIT_S = 20


@pytest.fixture
def browser(tmp_path):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in FLAGS:
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium-profile'}")
    options.add_argument("--window-size=1920,1080")
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def waiting(driver):
    return WebDriverWait(driver, WAIT_S, poll_frequency=0.05)


def turn_shown(driver, number):
    waiting(driver).until(
        lambda d: d.find_element(By.TAG_NAME, "body").get_attribute("data-turn") == str(number)
    )


def totals_shown(driver):
    return {
        item.get_attribute("data-name"): int(item.find_element(By.CLASS_NAME, "total").text)
        for item in driver.find_elements(By.CSS_SELECTOR, "#scores li")
    }


def game_totals(table):
    return {score.name: score.total for score in table.snapshot().state.scores()}


def answers(table):
    return [
        (r.action.question, r.action.yes, r.seat)
        for r in table.received
        if isinstance(r.action, Answer)
    ]


def test_the_page_live_in_a_real_browser(browser, tmp_path):
    table = DemoFeed(load_board(), report(FOUR), ask=[3, 6], game_id="browser-test")
    access = Access(web_config(), seed=11)
    # the screen is the table's own address; the phone comes over IPv6 loopback (not a screen)
    with serve(table, access, ("127.0.0.1", "::1")) as served:
        screen_url, phone_url = served.urls
        browser.get(f"{screen_url}/")
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .level-line"))
        assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .bonus")) == 12
        assert browser.find_element(By.ID, "turn").text == "Turn 1: Ann"
        assert browser.find_element(By.ID, "conn").text == "live"
        assert not browser.find_element(By.ID, "simulated").is_displayed()  # a real table

        # turns advance live, and the totals shown are the game's
        for turn in (2, 3):
            served.tick()
            turn_shown(browser, turn)
            assert totals_shown(browser) == game_totals(table)
        assert len(browser.find_elements(By.CSS_SELECTOR, "#board svg .piece")) == 2
        assert browser.find_element(By.ID, "turn").text == "Turn 3: Cleo"

        # the referee asks before turn 3; the screen's yes reaches the table
        served.tick()
        question = browser.find_element(By.ID, "question")
        waiting(browser).until(lambda d: question.is_displayed())
        assert (
            "Cleo, please answer: Does the yellow square touch a lit-up part of the bottom edge?"
            in question.text
        )
        lit = "#board svg .edge.asked[data-side=bottom][data-symbol=yellow]"
        assert browser.find_elements(By.CSS_SELECTOR, lit)
        assert browser.find_elements(By.CSS_SELECTOR, "#board svg .ghost[data-color='yellow']")
        browser.find_element(By.ID, "yes").click()
        turn_shown(browser, 4)
        assert answers(table) == [("q1", True, TABLE_SEAT)]
        assert not question.is_displayed()
        assert totals_shown(browser) == game_totals(table)
        assert "Turn 3, Cleo: yellow square" in browser.find_element(By.ID, "verdict-text").text
        browser.save_screenshot(str(tmp_path / "screen.png"))
        code = browser.find_element(By.ID, "join-code").text
        assert code == access.join_code("browser-test")

        # a phone joins as Ben with the code shown on the screen
        browser.set_window_size(390, 844)
        browser.get(f"{phone_url}/?code={code}")
        form = browser.find_element(By.ID, "join-phone")
        waiting(browser).until(lambda d: form.is_displayed())
        assert not browser.find_element(By.ID, "join-screen").is_displayed()
        assert browser.find_element(By.ID, "join-code-input").get_attribute("value") == code
        Select(browser.find_element(By.ID, "join-seat")).select_by_value("Ben")
        browser.find_element(By.ID, "join").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "seat").text == "you: Ben")
        assert not form.is_displayed()

        served.tick(2)  # turns 4 and 5
        turn_shown(browser, 6)
        # Ben's turn: his phone offers his own shapes; choosing one reaches the table
        shapes = browser.find_elements(By.CSS_SELECTOR, "#shapes button")
        assert {b.get_attribute("data-color") for b in shapes} == {"blue"}
        blue_circle = next(b for b in shapes if b.get_attribute("data-shape") == "circle")
        blue_circle.click()
        chosen = "#shapes button.chosen[data-shape='circle']"
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, chosen))
        assert (table.received[-1].action.type, table.received[-1].seat) == ("select", "Ben")
        assert table.snapshot().selection.to_json() == {
            "player": "Ben",
            "color": "blue",
            "shape": "circle",
        }
        served.tick()  # the referee asks Ben before turn 6
        yes, no = browser.find_element(By.ID, "yes"), browser.find_element(By.ID, "no")
        waiting(browser).until(lambda d: no.is_displayed())
        assert "blue diamond" in browser.find_element(By.ID, "question-text").text
        no.click()
        waiting(browser).until(lambda d: not no.is_displayed())
        assert answers(table)[-1] == ("q2", False, "Ben")
        served.tick()  # no: the referee asks again
        waiting(browser).until(lambda d: yes.is_displayed())
        browser.save_screenshot(str(tmp_path / "phone.png"))
        yes.click()
        turn_shown(browser, 7)
        assert answers(table) == [
            ("q1", True, TABLE_SEAT),
            ("q2", False, "Ben"),
            ("q3", True, "Ben"),
        ]
        assert totals_shown(browser) == game_totals(table)
    assert (tmp_path / "screen.png").stat().st_size > 10_000
    assert (tmp_path / "phone.png").stat().st_size > 5_000


def test_a_simulated_table_shows_its_badge(browser):
    table = DemoFeed(load_board(), report(FOUR), ask=[], game_id="simulated-test")
    with serve(table, Access(web_config(), seed=11), ("127.0.0.1",), simulated=True) as served:
        browser.get(f"{served.urls[0]}/")
        badge = browser.find_element(By.ID, "simulated")
        waiting(browser).until(lambda d: badge.is_displayed())
        assert badge.text == "SIMULATED TABLE"
        assert browser.find_element(By.ID, "turn").text == "Turn 1: Ann"
