"""A table whose file says ``language: de`` plays a whole Drop It game on the simulator
(``tabletop run --sim --autoplay``) and every word its page and staff view show is German:
the page's visible text, read in headless Chromium as the game goes on, holds none of the
catalogue's English sentences."""

import re

import yaml
from babel.messages.pofile import read_po
from selenium.webdriver.common.by import By

from firmware_host.config.table import REFERENCE_TABLE
from tests.service.test_browser_live import STAFF_PIN, Running, turn_at_least
from tests.test_i18n import PO
from tests.web.test_browser import browser, waiting  # noqa: F401 - a fixture


def german_table(tmp_path):
    data = yaml.safe_load(REFERENCE_TABLE.read_text())
    data["board"] = str(REFERENCE_TABLE.parent.parent / "boards" / "reference.yaml")
    data["language"] = "de"
    path = tmp_path / "table.yaml"
    path.write_text(yaml.safe_dump(data))
    return path


def english_words() -> list[re.Pattern[str]]:
    """The English words of every message the catalogue translates: each run of words
    between its placeholders that its German translation does not keep (``Drop It``,
    ``live`` stay as they are)."""
    with PO.open("rb") as stream:
        catalogue = read_po(stream)
    found = set()
    for entry in catalogue:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        german = " ".join(entry.string if isinstance(entry.string, tuple) else (entry.string,))
        for english in ids:
            for words in re.split(r"\{\w+\}", english):
                words = words.strip(" :;,.?()+\u00d7\u2014-")
                if re.search(r"[A-Za-z]{3}", words) and words not in german:
                    found.add(words)
    return [re.compile(rf"(?<![\w-]){re.escape(words)}(?![\w-])") for words in sorted(found)]


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
        waiting(browser).until(lambda d: d.find_element(By.ID, "results").is_displayed())
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
