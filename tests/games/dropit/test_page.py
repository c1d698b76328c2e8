"""Every state of the Drop It page fits: at the start, with the referee's question, and at
game over, on the table's 1920x1080 screen and on a 412x915 phone, measured in headless
Chromium (tests/web/layout.py: nothing overflows, the screen needs no scrolling, no text
under 16 px on it, no tap target under 44 px). Screenshots of each state go to
``page-shots/`` in pytest's temp dir."""

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select

from firmware_host.config.board import load_board
from firmware_host.web.access import Access
from firmware_host.web.demo import DemoFeed
from tests.web.layout import PHONE, SCREEN, check, viewport
from tests.web.support import FOUR, TEAMS, report, serve, web_config
from tests.web.test_browser import browser, turn_shown, waiting  # noqa: F401 - a fixture


def shown(driver, url, size):
    viewport(driver, size)
    driver.get(url)
    waiting(driver).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .zone"))
    waiting(driver).until(lambda d: d.find_element(By.ID, "conn").text == "live")


def test_every_state_of_the_drop_it_page_fits_the_screen_and_a_phone(
    browser,  # noqa: F811 - the fixture
    tmp_path_factory,
):
    shots = tmp_path_factory.getbasetemp() / "page-shots"
    table = DemoFeed(load_board(), report(TEAMS), ask=[3], game_id="layout")
    with serve(table, Access(web_config(), seed=3), ("127.0.0.1", "::1")) as served:
        screen, phone = served.urls
        first = table.snapshot().current_player

        shown(browser, f"{screen}/", SCREEN)
        check(browser, shots, "dropit-screen-start", screen=True)
        board_at = browser.find_element(By.ID, "board").rect
        code = browser.find_element(By.ID, "join-code").text
        shown(browser, f"{phone}/?code={code}", PHONE)
        check(browser, shots, "dropit-phone-join", screen=False)
        Select(browser.find_element(By.ID, "join-seat")).select_by_value(first)
        browser.find_element(By.ID, "join").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "select").is_displayed())
        # the phone's own actions come before the board
        select = browser.find_element(By.ID, "select").rect
        board = browser.find_element(By.ID, "board").rect
        assert select["y"] + select["height"] <= board["y"]
        check(browser, shots, "dropit-phone-start", screen=False)

        served.tick(3)  # two turns, then the referee asks before turn 3
        assert table.snapshot().question is not None
        shown(browser, f"{screen}/", SCREEN)
        waiting(browser).until(lambda d: d.find_element(By.ID, "question").is_displayed())
        assert browser.find_elements(By.CSS_SELECTOR, "#board svg .ghost")
        assert browser.find_elements(By.CSS_SELECTOR, "#board svg .asked")
        assert browser.find_element(By.ID, "board").rect == board_at  # nothing jumped
        check(browser, shots, "dropit-screen-question", screen=True)
        shown(browser, f"{phone}/", PHONE)
        waiting(browser).until(lambda d: d.find_element(By.ID, "question").is_displayed())
        asked = table.snapshot().question.player
        assert asked != first and asked in browser.find_element(By.ID, "question-text").text
        assert not browser.find_element(By.ID, "yes").is_displayed()  # not this phone's
        check(browser, shots, "dropit-phone-question", screen=False)
        shown(browser, f"{screen}/", SCREEN)  # the screen answers for the table
        waiting(browser).until(lambda d: d.find_element(By.ID, "yes").is_displayed())
        browser.find_element(By.ID, "yes").click()
        turn_shown(browser, 4)

        for _ in range(80):  # the rest of the recorded game, with its joker offers
            served.tick()
        assert table.finished
        shown(browser, f"{screen}/", SCREEN)
        waiting(browser).until(lambda d: d.find_element(By.ID, "results").is_displayed())
        assert not browser.find_element(By.ID, "join-screen").is_displayed()
        check(browser, shots, "dropit-screen-over", screen=True)
        shown(browser, f"{phone}/", PHONE)
        waiting(browser).until(lambda d: d.find_element(By.ID, "results").is_displayed())
        check(browser, shots, "dropit-phone-over", screen=False)


def test_four_players_in_the_middle_of_a_game_fit_too(
    browser,  # noqa: F811 - the fixture
    tmp_path_factory,
):
    shots = tmp_path_factory.getbasetemp() / "page-shots"
    table = DemoFeed(load_board(), report(FOUR), ask=[], game_id="layout-four")
    with serve(table, Access(web_config(), seed=3), ("127.0.0.1", "::1")) as served:
        screen, phone = served.urls
        for _ in range(40):  # every recorded turn, with its joker offers
            served.tick()
        assert table.finished and len(table.snapshot().state.drops) == 16
        shown(browser, f"{screen}/", SCREEN)
        waiting(browser).until(lambda d: d.find_element(By.ID, "select").is_displayed())
        assert len(browser.find_elements(By.CSS_SELECTOR, "#scores li")) == 4
        check(browser, shots, "dropit-4-screen-middle", screen=True)
        shown(browser, f"{phone}/", PHONE)
        check(browser, shots, "dropit-4-phone-middle", screen=False)


def test_in_german_the_page_fits_too_and_one_tap_switches_the_language(
    browser,  # noqa: F811 - the fixture
    tmp_path_factory,
):
    """German runs about a third longer: every state (the start and joining, a question
    with a joker game's banner, the results) at both sizes; a refusal is German too; the
    switch reloads the page in the other language."""
    shots = tmp_path_factory.getbasetemp() / "page-shots"
    table = DemoFeed(load_board(), report(TEAMS), ask=[3], game_id="layout-de")
    access = Access(web_config(), seed=3)
    with serve(table, access, ("127.0.0.1", "::1")) as served:
        screen, phone = served.urls
        first = table.snapshot().current_player
        shown(browser, f"{screen}/?lang=de", SCREEN)
        assert browser.find_element(By.ID, "turn").text.startswith("Zug 1: ")
        check(browser, shots, "dropit-de-screen-start", screen=True)
        code = browser.find_element(By.ID, "join-code").text
        shown(browser, f"{phone}/?lang=de", PHONE)
        check(browser, shots, "dropit-de-phone-join", screen=False)
        Select(browser.find_element(By.ID, "join-seat")).select_by_value(first)
        browser.find_element(By.ID, "join-code-input").send_keys("0" if code != "0" else "1")
        browser.find_element(By.ID, "join").click()
        message = browser.find_element(By.ID, "message")
        waiting(browser).until(lambda d: message.text.startswith("Falscher Beitrittscode"))
        browser.find_element(By.ID, "join-code-input").clear()
        browser.find_element(By.ID, "join-code-input").send_keys(code)
        browser.find_element(By.ID, "join").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "select").is_displayed())
        assert message.text == f"Du spielst als {first}."
        check(browser, shots, "dropit-de-phone-start", screen=False)
        # a table that forgot the seat (a restart) refuses the phone, which asks to join again
        access._for("layout-de").seats.clear()
        browser.find_element(By.CSS_SELECTOR, "#shapes button").click()
        join_form = browser.find_element(By.ID, "join-phone")
        waiting(browser).until(lambda d: join_form.is_displayed())
        assert message.text == "Tritt zuerst mit dem Beitrittscode des Spiels einem Platz bei"
        shown(browser, f"{phone}/?lang=de&code={code}", PHONE)
        Select(browser.find_element(By.ID, "join-seat")).select_by_value(first)
        browser.find_element(By.ID, "join").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "select").is_displayed())

        served.tick(3)  # two turns, then the referee asks before turn 3
        for url, size, name in ((screen, SCREEN, "screen"), (phone, PHONE, "phone")):
            shown(browser, f"{url}/?lang=de", size)
            waiting(browser).until(lambda d: d.find_element(By.ID, "question").is_displayed())
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
            assert browser.find_element(By.ID, "turn").text.startswith("Zug 3: ")
            question = browser.find_element(By.ID, "question-text").text
            assert "bitte antworte:" in question and question.endswith("?")
            assert "Letzter Abwurf" in browser.find_element(By.ID, "verdict").text.title()
            check(browser, shots, f"dropit-de-{name}-question", screen=size == SCREEN)

        switch = browser.find_element(By.CSS_SELECTOR, "#languages button")
        assert switch.text == "English" and switch.size["height"] >= 44
        switch.click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "conn").text == "live")
        assert "lang=en" in browser.current_url
        assert browser.find_element(By.ID, "turn").text.startswith("Turn 3: ")
        assert browser.find_element(By.CSS_SELECTOR, "#languages button").text == "Deutsch"
        shown(browser, f"{screen}/?lang=de", SCREEN)  # the screen answers for the table
        waiting(browser).until(lambda d: d.find_element(By.ID, "yes").is_displayed())
        assert browser.find_element(By.ID, "yes").text == "Ja"
        browser.find_element(By.ID, "yes").click()
        turn_shown(browser, 4)

        for _ in range(80):  # the rest of the recorded game, with its joker offers
            served.tick()
        assert table.finished
        for url, size, name in ((screen, SCREEN, "screen"), (phone, PHONE, "phone")):
            shown(browser, f"{url}/?lang=de", size)
            waiting(browser).until(lambda d: d.find_element(By.ID, "results").is_displayed())
            assert "Spielende" in browser.find_element(By.ID, "turn").text
            check(browser, shots, f"dropit-de-{name}-over", screen=size == SCREEN)
