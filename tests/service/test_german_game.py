"""A table whose file says ``language: de`` plays a whole game of each kind on the
simulator (``tabletop run --sim --autoplay``) and every word its page and staff view show
is German: the page's visible text, read in headless Chromium as the game goes on, holds
none of the catalogue's English sentences."""

import re

import pytest
import yaml
from babel.messages.pofile import read_po
from selenium.webdriver.common.by import By
from selenium.webdriver.support.wait import WebDriverWait

from firmware_host.config.table import REFERENCE_TABLE
from firmware_host.games.clack.table import ClackTable
from firmware_host.games.clever.table import CleverTable
from firmware_host.games.gotta2.table import Gotta2Table
from tests.service.dice_support import RunningDice
from tests.service.test_browser_live import STAFF_PIN, Running, turn_at_least
from tests.test_i18n import PO
from tests.web.layout import PHONE, SCREEN, check, viewport
from tests.web.test_browser import browser, waiting  # noqa: F401 - a fixture

GAME_S = 180
"""The longest a whole simulated game may take (real seconds; about 30 on an idle machine)."""


def german_table(tmp_path):
    data = yaml.safe_load(REFERENCE_TABLE.read_text())
    data["board"] = str(REFERENCE_TABLE.parent.parent / "boards" / "reference.yaml")
    data["language"] = "de"
    path = tmp_path / "table.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


FUNCTION_WORDS = (
    "the", "a", "an", "is", "are", "was", "not", "and", "or", "with", "your", "you", "has",
    "have", "of", "to", "for", "it", "this", "that", "on", "at", "be", "will", "no", "yet",
)  # fmt: skip
"""English words nearly every English sentence has: a message that was never marked for
translation (so is not in the catalogue) still shows one."""


def english_words() -> list[re.Pattern[str]]:
    """The English words of every message the catalogue translates (each run of words
    between its placeholders) and :data:`FUNCTION_WORDS`, but none a German translation
    uses too (``Drop It``, ``live``, ``pink``, ``was`` are German as well)."""
    with PO.open("rb") as stream:
        catalogue = [entry for entry in read_po(stream) if entry.id]
    german = " ".join(
        re.sub(r"\{\w+\}", "", text)
        for entry in catalogue
        for text in (entry.string if isinstance(entry.string, tuple) else (entry.string,))
    )
    found = set()
    for entry in catalogue:
        for english in entry.id if isinstance(entry.id, tuple) else (entry.id,):
            for words in re.split(r"\{\w+\}", english):
                words = words.strip(" :;,.?()+\u00d7\u2014-")
                if re.search(r"[A-Za-z]{3}", words) and not _within(words, german):
                    found.add(words)
    found.update(word for word in FUNCTION_WORDS if not _within(word, german))
    return [re.compile(rf"(?<![\w-]){re.escape(words)}(?![\w-])") for words in sorted(found)]


def _within(words: str, text: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", text) is not None


def english_in(text: str, patterns: list[re.Pattern[str]]) -> list[str]:
    return [p.pattern for p in patterns if p.search(text)]


def test_the_finding_of_english_words_finds_them():
    patterns = english_words()
    assert english_in("Zug 3: Ann wählt eine Form", patterns) == []
    assert english_in("turn 3: Ann selects a shape", patterns)
    assert english_in("Ann, please answer: Berührt …", patterns)
    assert len(english_in("Zug 3: Hub is not there", patterns)) == 2  # never marked words


def test_a_german_table_plays_a_whole_game_in_german(browser, tmp_path):  # noqa: F811
    patterns = english_words()
    seen = []
    with Running(tmp_path, asking=(), table=str(german_table(tmp_path)), answers=True) as (running):
        page = running.service.page_url
        browser.get(page)
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .piece"))
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "de"
        for turn in (2, 5, 9, 14):
            turn_at_least(browser, turn)
            seen.append(browser.find_element(By.TAG_NAME, "body").text)
        # the rest of the game: on a busy machine more than one wait's 20 s
        whole_game = WebDriverWait(browser, GAME_S, poll_frequency=0.05)
        whole_game.until(lambda d: d.find_element(By.ID, "results").is_displayed())
        seen.append(browser.find_element(By.TAG_NAME, "body").text)
        assert "Spielende" in seen[-1] and "Ergebnisse" in seen[-1]

        browser.get(page.rstrip("/") + "/staff")
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "unlock-button").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "panel").is_displayed())
        seen.append(browser.find_element(By.TAG_NAME, "body").text)
        assert "Neues Spiel starten" in seen[-1] and "Der Blick auf Zug" in seen[-1]
    for text in seen:
        assert english_in(text, patterns) == [], text


@pytest.mark.parametrize("kind", [CleverTable, ClackTable, Gotta2Table], ids=lambda k: k.KIND)
def test_a_german_table_plays_a_whole_dice_game_in_german(browser, tmp_path, kind):  # noqa: F811
    patterns = english_words()
    seen = []
    with RunningDice(tmp_path, kind, table=str(german_table(tmp_path))) as running:
        browser.get(running.url)
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#game *"))
        table = running.service.controller
        body = browser.find_element(By.TAG_NAME, "body")
        for events in (5, 15):
            waiting(browser).until(lambda d, n=events: table.events >= n)
            seen.append(body.text)
        whole_game = WebDriverWait(browser, GAME_S, poll_frequency=0.05)
        whole_game.until(lambda d: body.get_attribute("data-over") == "true")
        seen.append(body.text)
        assert "Spielende" in seen[-1] and "Noch einmal" in seen[-1]
    for text in seen:
        assert english_in(text, patterns) == [], text


def test_the_staff_view_of_a_german_table_is_german_and_fits(browser, tmp_path):  # noqa: F811
    """The staff view at 1080p and on a phone, in German; a wrong PIN and a set-up the
    rules refuse are refused in German."""
    shots = tmp_path / "page-shots"
    with Running(tmp_path, autoplay=False, asking=(), table=str(german_table(tmp_path))) as (
        running
    ):
        viewport(browser, SCREEN)
        browser.get(running.service.page_url.rstrip("/") + "/staff")
        message = browser.find_element(By.ID, "message")
        browser.find_element(By.ID, "pin").send_keys("0")
        browser.find_element(By.ID, "unlock-button").click()
        waiting(browser).until(lambda d: message.text == "Falsche Personal-PIN")
        browser.find_element(By.ID, "pin").clear()
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "unlock-button").click()
        waiting(browser).until(lambda d: d.find_element(By.ID, "panel").is_displayed())
        players = browser.find_element(By.ID, "new-players")
        players.clear()
        players.send_keys("Ann, Ben, Cleo, Dev, Eli")
        browser.find_element(By.ID, "new-start").click()
        refused = "Aufstellung: Drop It ist für 2, 3 oder 4 Spieler, erhalten: 5"
        waiting(browser).until(lambda d: message.text == refused)
        teams = browser.find_element(By.ID, "new-teams")
        assert teams.get_attribute("placeholder").startswith("Füchse (Rot Blau): ")
        players.clear()  # colours in the page's words
        players.send_keys("Ann (rot), Ben (Blau), Cleo")
        browser.find_element(By.ID, "new-start").click()
        waiting(browser).until(lambda d: message.text == "Das neue Spiel beginnt.")
        table = running.service.controller
        started = [(c.name, tuple(map(str, c.colors))) for c in table.state.started.competitors]
        assert started[:2] == [("Ann", ("red",)), ("Ben", ("blue",))]
        browser.get(running.service.page_url.rstrip("/") + "/staff")

        def form_filled(driver):
            return driver.find_element(By.ID, "new-players").get_attribute("value")

        waiting(browser).until(form_filled)
        assert form_filled(browser).startswith("Ann (Rot), Ben (Blau), Cleo (")
        message = browser.find_element(By.ID, "message")
        players = browser.find_element(By.ID, "new-players")
        players.clear()
        players.send_keys("Ann, Ben, Cleo, Dev, Eli")
        browser.find_element(By.ID, "new-start").click()
        waiting(browser).until(lambda d: message.text == refused)
        check(browser, shots, "staff-de-screen", screen=True)
        viewport(browser, PHONE)
        check(browser, shots, "staff-de-phone", screen=False)
        assert english_in(browser.find_element(By.TAG_NAME, "body").text, english_words()) == []
