"""The page of a game the service is playing, in headless Chromium: turns advance live,
the totals shown are the journal's, and the screen's Yes answers the referee's question
(the simulated players leave questions to the page)."""

import asyncio
import threading
import time

from selenium.webdriver.common.by import By
from selenium.webdriver.support.select import Select
from selenium.webdriver.support.wait import WebDriverWait

from firmware_host.games.dropit.rules.pieces import Color, Shape
from firmware_host.journal.review import summaries
from firmware_host.journal.store import Journal
from firmware_host.service.clock import ScaledClock
from firmware_host.service.controller import Phase
from firmware_host.service.referee import Asked
from firmware_host.service.runner import Service
from firmware_host.web.config import load_web_config
from simulator.autoplay import AutoPlayers
from tests.service.support import REST, AskingReferee, options
from tests.web.layout import PHONE, check, viewport
from tests.web.test_browser import totals_shown, turn_shown, waiting

SPEED = 200.0
STAFF_PIN = load_web_config().staff_pin
DEADLINE_S = 60.0


class Running:
    """The service in its own thread and loop, as ``tabletop run`` runs it."""

    def __init__(self, tmp_path, autoplay=True, asking=frozenset({"t3"}), answers=False, **more):
        self.ready = threading.Event()
        self.asked_turns = set(asking)
        self.options = options(
            tmp_path,
            autoplay=autoplay,
            autoplay_answers=answers,
            http=True,
            page_host="127.0.0.1",
            page_port=0,
            speed=SPEED,
            **more,
        )
        self.service: Service | None = None
        self.asking: AskingReferee | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.thread = threading.Thread(target=lambda: asyncio.run(self._main()), daemon=True)

    async def _main(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.service = Service(self.options, clock=ScaledClock(SPEED), announce=print)
        self.asking = AskingReferee(self.service.controller.referee, self.asked_turns)
        self.service.controller.referee = self.asking
        run = asyncio.create_task(self.service.run())
        while self.service.page_url is None:
            await asyncio.sleep(0.01)
        self.ready.set()
        await run

    def journal_totals(self) -> tuple[int, dict[str, int]]:
        with Journal(self.options.journal, create=False) as reader:
            game = summaries(reader)[0]  # the newest
        return game["turns"], game["totals"]

    def call(self, function):
        """Run ``function()`` in the service's loop; its result (bounded wait)."""

        async def run():
            return function()

        return asyncio.run_coroutine_threadsafe(run(), self.loop).result(timeout=10)

    def __enter__(self):
        self.thread.start()
        assert self.ready.wait(30), "the service never served its page"
        return self

    def __exit__(self, *exc):
        self.loop.call_soon_threadsafe(self.service.stop)
        self.thread.join(30)


def turn_at_least(driver, number):
    waiting(driver).until(
        lambda d: int(d.find_element(By.TAG_NAME, "body").get_attribute("data-turn") or 0) >= number
    )


def answer_on_the_page(driver, running, until_turn):
    """Answer every question the page shows, honestly, until turn ``until_turn``."""
    table = running.service.controller
    question = driver.find_element(By.ID, "question")
    deadline = time.monotonic() + DEADLINE_S
    while table.state.next_turn < until_turn:
        assert time.monotonic() < deadline, (
            table.phase,
            table.snapshot().status,
            table.asked,
            question.is_displayed(),
        )
        time.sleep(0.02)  # a bounded poll of the browser
        if question.is_displayed() and table.asked is not None:
            asked = table.asked
            yes = asked.key == REST or running.service.play.hand.truth(asked)
            driver.find_element(By.ID, "yes" if yes else "no").click()
            waiting(driver).until(lambda d, a=asked: table.asked is not a)


def test_the_page_follows_a_game_the_service_plays(browser, tmp_path):
    with Running(tmp_path) as running:
        table = running.service.controller
        browser.get(running.service.page_url)
        waiting(browser).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#board svg .piece"))
        answer_on_the_page(browser, running, until_turn=3)
        turn_shown(browser, 3)

        question = browser.find_element(By.ID, "question")
        waiting(browser).until(
            lambda d: (
                question.is_displayed() and "t3" in d.find_element(By.ID, "question-text").text
            )
        )
        assert table.phase is Phase.QUESTION
        turns, totals = running.journal_totals()  # the game waits for the answer
        assert turns == 2 and totals_shown(browser) == totals
        browser.save_screenshot(str(tmp_path / "service-question.png"))

        browser.find_element(By.ID, "yes").click()
        waiting(browser).until(lambda d: running.asking.answers == [True])
        answer_on_the_page(browser, running, until_turn=8)
        turn_at_least(browser, 8)
        # the game runs on meanwhile (its drops close on the hub's clock, 200x): the next
        # turn's look may have begun already (and ask the eye's own question, answered
        # here), so the one after it is asked too
        upcoming = table.state.next_turn
        table.referee = AskingReferee(running.asking.inner, {f"t{upcoming}", f"t{upcoming + 1}"})
        running.asking = table.referee
        deadline = time.monotonic() + DEADLINE_S
        while not (question.is_displayed() and table.asked and table.asked.key == REST):
            assert time.monotonic() < deadline, (table.phase, table.asked)
            time.sleep(0.02)  # a bounded poll of the browser
            asked = table.asked
            if question.is_displayed() and asked is not None and asked.key != REST:
                yes = running.service.play.hand.truth(asked)
                browser.find_element(By.ID, "yes" if yes else "no").click()
                waiting(browser).until(lambda d, a=asked: table.asked is not a)
        turns, totals = running.journal_totals()
        assert turns >= 7 and totals_shown(browser) == totals
        browser.save_screenshot(str(tmp_path / "service-later.png"))
        assert not browser.find_elements(By.ID, "pin")  # no staff panel for the customers

        # the staff view, behind the PIN, shows the last look: the latest verdict's frame
        look = running.service.play.last_look()
        assert look.state == "look" and look.turn == turns
        browser.get(running.service.page_url.rstrip("/") + "/staff")
        browser.find_element(By.ID, "pin").send_keys("0000")
        browser.find_element(By.ID, "unlock-button").click()
        waiting(browser).until(lambda d: "wrong staff PIN" in d.find_element(By.ID, "message").text)
        assert not browser.find_element(By.ID, "look-frame").is_displayed()
        browser.find_element(By.ID, "pin").clear()
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "unlock-button").click()
        frame = browser.find_element(By.ID, "look-frame")
        waiting(browser).until(
            lambda d: frame.is_displayed()
            and d.execute_script("return arguments[0].naturalWidth", frame) > 0
        )
        assert frame.get_attribute("data-turn") == str(turns)
        words = browser.find_element(By.ID, "look-text").text
        assert f"turn {turns}, {look.player}'s {look.piece}" in words
        browser.save_screenshot(str(tmp_path / "service-staff-look.png"))


def test_a_whole_game_from_the_staff_view_to_the_results_and_play_again(browser, tmp_path):
    with Running(tmp_path, autoplay=False, asking=()) as running:
        service = running.service
        table = service.controller
        first = table.game.game_id
        base = service.page_url.rstrip("/")
        browser.get(f"{base}/staff")
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "unlock-button").click()
        players = browser.find_element(By.ID, "new-players")
        waiting(browser).until(lambda d: players.is_displayed() and players.get_attribute("value"))
        assert players.get_attribute("value") == "Ann (red), Ben (blue), Cleo (yellow), Dev (green)"
        players.clear()
        players.send_keys("Zoe (green yellow), Yan")
        Select(browser.find_element(By.ID, "new-edges")).select_by_value("shape")
        browser.find_element(By.ID, "new-jokers").click()  # no jokers
        browser.find_element(By.ID, "new-start").click()
        waiting(browser).until(lambda d: table.game.game_id == first + 1)
        started = table.state.started
        assert [(c.name, tuple(map(str, c.colors))) for c in started.competitors] == [
            ("Zoe", ("green", "yellow")),
            ("Yan", ("red", "blue")),  # dealt
        ]
        assert (str(started.variants.edges), started.variants.jokers) == ("shape", False)
        assert str(service.play.eye.edges) == str(service.play.hand.edges) == "shape"  # judged so
        waiting(browser).until(lambda d: "new game begins" in d.find_element(By.ID, "message").text)
        browser.save_screenshot(str(tmp_path / "staff-set-up.png"))

        # simulated players play the whole game the staff set up; the page shows the results
        browser.get(f"{base}/")
        players_task = AutoPlayers(table, service.play.hand, 5, service.clock, 1.0, answers=True)
        running.call(lambda: asyncio.ensure_future(players_task.play()))
        WebDriverWait(browser, 120, poll_frequency=0.2).until(
            lambda d: d.find_element(By.ID, "results").is_displayed()
        )
        assert table.phase is Phase.OVER
        turns, totals = running.journal_totals()
        assert turns == len(table.state.drops) > 2
        ranked = [
            (r.get_attribute("data-name"), int(r.find_element(By.CLASS_NAME, "total").text))
            for r in browser.find_elements(By.CSS_SELECTOR, "#ranking li")
        ]
        assert dict(ranked) == totals
        assert [total for _, total in ranked] == sorted(totals.values(), reverse=True)
        assert not browser.find_element(By.ID, "scores").is_displayed()
        assert not browser.find_element(By.ID, "join-screen").is_displayed()
        assert "Game over" in browser.find_element(By.ID, "turn").text
        browser.save_screenshot(str(tmp_path / "results.png"))

        # play again: the same players and settings, a new game from turn 1
        browser.find_element(By.ID, "again").click()
        turn_shown(browser, 1)
        assert table.game.game_id == first + 2 and table.state.started == started
        assert not browser.find_element(By.ID, "results").is_displayed()
        assert browser.find_element(By.ID, "turn").text == "Turn 1: Zoe"


def test_the_staff_view_sets_up_teams_with_their_colours(browser, tmp_path):
    with Running(tmp_path, autoplay=False, asking=()) as running:
        table = running.service.controller
        browser.get(running.service.page_url.rstrip("/") + "/staff")
        browser.find_element(By.ID, "pin").send_keys(STAFF_PIN)
        browser.find_element(By.ID, "unlock-button").click()
        teams = browser.find_element(By.ID, "new-teams")
        waiting(browser).until(lambda d: teams.is_displayed())
        teams.send_keys("Foxes (red, blue): Ann, Ben; Owls: Cleo, Dev")
        browser.find_element(By.ID, "new-start").click()
        waiting(browser).until(lambda d: table.state.started.teams)
        started = table.state.started
        assert [(c.name, c.members, tuple(map(str, c.colors))) for c in started.competitors] == [
            ("Foxes", ("Ann", "Ben"), ("red", "blue")),
            ("Owls", ("Cleo", "Dev"), ("yellow", "green")),
        ]
        # the form shows the teams as they are now
        browser.get(running.service.page_url.rstrip("/") + "/staff")
        teams = browser.find_element(By.ID, "new-teams")
        waiting(browser).until(lambda d: teams.get_attribute("value"))
        assert teams.get_attribute("value") == (
            "Foxes (red blue): Ann, Ben; Owls (yellow green): Cleo, Dev"
        )
        shots = tmp_path / "page-shots"
        check(browser, shots, "staff-screen", screen=True)
        viewport(browser, PHONE)  # a staff phone: 44 px targets, no sideways scroll
        check(browser, shots, "staff-phone", screen=False)


class WhichPieceFirst:
    """Asks which piece fell for the first drop (as the eye does when nothing identified
    it), then lets ``inner`` referee it as the piece chosen."""

    def __init__(self, inner):
        self.inner = inner
        self.held = None
        self.chosen = None

    def look(self, pieces, identity, readings, piece_id, options=()):
        if piece_id != "t1":
            return self.inner.look(pieces, identity, readings, piece_id, options)
        self.held = (pieces, readings, piece_id, options)
        return Asked("Which piece was dropped?", options=options)

    def answer(self, yes):
        return self.inner.answer(yes)

    def choose(self, color, shape):
        self.chosen = (color, shape)
        pieces, readings, piece_id, options = self.held
        return self.inner.look(pieces, (color, shape), readings, piece_id, options)


def test_which_piece_fell_is_answered_with_the_shapes_not_yes_or_no(browser, tmp_path):
    with Running(tmp_path, autoplay=False, asking=()) as running:
        service = running.service
        table = service.controller
        asking = WhichPieceFirst(table.referee)
        running.call(lambda: setattr(table, "referee", asking))
        browser.get(service.page_url)
        turn_shown(browser, 1)
        waiting(browser).until(lambda d: table.paused is None)  # the hub is connected
        drop = service.play.hand.drop(1, Color.RED, Shape.CIRCLE, 150.0, 0.0)
        asyncio.run_coroutine_threadsafe(drop, running.loop).result(timeout=30)
        deadline = time.monotonic() + DEADLINE_S
        while table.phase is not Phase.QUESTION:
            assert time.monotonic() < deadline, (table.phase, table.snapshot().status)
            time.sleep(0.02)  # a bounded poll of the service's thread
        title = browser.find_element(By.ID, "select-title")
        waiting(browser).until(
            lambda d: title.get_attribute("textContent") == "Ann: which shape fell?"
        )
        assert "Which piece was dropped?" in browser.find_element(By.ID, "question-text").text
        assert not browser.find_element(By.ID, "yes").is_displayed()
        assert not browser.find_element(By.ID, "confirm").is_displayed()
        browser.find_element(By.CSS_SELECTOR, "#shapes [data-color=red][data-shape=circle]").click()
        turn_shown(browser, 2)
        assert asking.chosen == (Color.RED, Shape.CIRCLE)
        assert table.state.drops[0].piece.describe() == "red circle"
