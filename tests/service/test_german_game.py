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
from firmware_host.tables.clack import ClackTable
from firmware_host.tables.clever import CleverTable
from firmware_host.tables.gotta2 import Gotta2Table
from tests.service.test_browser_live import STAFF_PIN, Running, turn_at_least
from tests.tables.service_support import RunningDice
from tests.test_i18n import PO
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


def english_words() -> list[re.Pattern[str]]:
    """The English words of every message the catalogue translates: each run of words
    between its placeholders that no German translation uses too (``Drop It``, ``live``,
    ``pink`` are German as well)."""
    with PO.open("rb") as stream:
        catalogue = [entry for entry in read_po(stream) if entry.id]
    german = " ".join(
        text
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
        table = running.service.table
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
