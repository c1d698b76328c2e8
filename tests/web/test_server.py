"""The app over HTTP and WebSocket (Starlette's test client): the page, the view, and every
refusal of untrusted input -- malformed messages, no join code, wrong code, wrong seat,
wrong PIN -- changing nothing, while right actions reach the table."""

import json

import pytest
from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from firmware_host.config.board import load_board
from firmware_host.games.dropit.actions import Answer
from firmware_host.i18n import lazy
from firmware_host.web.access import Access
from firmware_host.web.actions import TABLE_SEAT, Staff
from firmware_host.web.demo import DemoFeed, Received
from firmware_host.web.frontend import DROP_IT
from firmware_host.web.look import LastLook
from firmware_host.web.server import create_app
from tests.web.support import FOUR, PIN, Ticks, report, web_config

SCREEN = ("127.0.0.1", 40000)
PHONE = ("192.168.1.50", 40001)


class Setup:
    def __init__(self, ask=(1,), look=None, language="en", **config):
        self.table = DemoFeed(load_board(), report(FOUR), ask=ask, game_id="g1")
        self.access = Access(web_config(**config), seed=5)
        self.ticks: Ticks | None = None

        async def background():
            self.ticks = Ticks()
            await self.table.run(2.0, sleep=self.ticks.sleep)

        self.app = create_app(
            self.table,
            self.access,
            DROP_IT,
            background=background,
            look=look,
            language=language,
        )

    def client(self, at=PHONE):
        return TestClient(self.app, client=at)


@pytest.fixture
def setup():
    return Setup()


def post(client, action):
    body = action if isinstance(action, str | bytes) else json.dumps(action)
    return client.post("/api/actions", content=body)


def test_the_page_is_served_without_any_outside_resource(setup):
    with setup.client() as client:
        page = client.get("/")
        assert page.status_code == 200
        assert '<div id="board">' in page.text
        for path in (
            "/static/games/dropit.js",
            "/static/games/dropit.css",
            "/static/live.js",
            "/static/style.css",
        ):
            reply = client.get(path)
            assert reply.status_code == 200
            assert "https://" not in reply.text and "cdn" not in reply.text.lower()
        assert client.get("/healthz").text == "ok"
        assert client.get("/static/../server.py").status_code == 404


def test_only_the_screen_is_shown_the_join_code(setup):
    with setup.client(SCREEN) as screen, setup.client(PHONE) as phone:
        shown = screen.get("/api/view").json()
        assert shown["screen"] is True
        code = setup.access.join_code("g1")
        assert shown["join"]["code"] == code
        assert shown["join"]["url"] == f"http://192.168.1.20:8080/?code={code}"
        assert shown["join"]["qr"].startswith("<svg")
        hidden = phone.get("/api/view").json()
        assert hidden["screen"] is False
        assert hidden["join"] is None
        assert code not in json.dumps(hidden)
        assert hidden["players"] == ["Ann", "Ben", "Cleo", "Dev"]
        assert hidden["svg"].startswith("<svg")
        assert hidden["view"]["game"]["turn"]["player"] == "Ann"


MALFORMED = [
    "",
    "{",
    "null",
    '"answer"',
    b"\x00\xff",
    '{"type": "answer", "question": "q1", "yes": "maybe"}',
    '{"type": "select", "color": "red"}',
    '{"type": "nuke"}',
    '{"type": "confirm", "token": ' + json.dumps("t" * 5000) + "}",
]


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_http_messages_get_400_and_change_nothing(setup, raw):
    with setup.client(SCREEN) as client:
        before = client.get("/api/view").json()
        reply = post(client, raw)
        assert reply.status_code == 400
        assert reply.json()["type"] == "error"
        assert reply.json()["error"].startswith("web message")
        assert client.get("/api/view").json() == before
    assert setup.table.received == []


def ask_first_question(setup, client):
    client.portal.call(setup.ticks.tick)
    client.portal.call(lambda: None)
    question = client.get("/api/view").json()["view"]["question"]
    pose = setup.table.snapshot().question.ghost.pose
    assert question == {
        "id": "q1",
        "text": "Does any part of the red diamond reach level 2 (above the lit-up line) or higher?",
        "player": "Ann",
        "ghost": {"color": "red", "shape": "diamond", "x": pose.x, "y": pose.y}
        | {"angle": pose.angle},
        "mark": {"kind": "level", "ref": "2"},
        "choices": [],
    }
    return question


def test_devices_without_the_right_code_seat_or_pin_change_nothing(setup):
    with setup.client(PHONE) as phone:
        ask_first_question(setup, phone)
        before = phone.get("/api/view").json()
        code = setup.access.join_code("g1")
        refusals = [
            ({"type": "answer", "question": "q1", "yes": True}, "join a seat"),
            ({"type": "answer", "question": "q1", "yes": True, "token": "guess"}, "join a seat"),
            (
                {"type": "join", "seat": "Ann", "code": "999999" if code != "999999" else "0"},
                "wrong join code",
            ),
            ({"type": "join", "seat": "Nobody", "code": code}, "no player 'Nobody'"),
            ({"type": "staff", "op": "abort", "pin": "0000"}, "wrong staff PIN"),
        ]
        for action, error in refusals:
            reply = post(phone, action)
            assert reply.status_code == 403, action
            assert error in reply.json()["error"]
        # a phone holding another seat may not answer Ann's question
        ben = post(phone, {"type": "join", "seat": "Ben", "code": code}).json()
        assert ben["type"] == "joined" and ben["seat"] == "Ben"
        reply = post(
            phone, {"type": "answer", "question": "q1", "yes": True, "token": ben["token"]}
        )
        assert reply.status_code == 403
        assert "the question is for Ann, not Ben" in reply.json()["error"]
        reply = post(
            phone, {"type": "select", "color": "blue", "shape": "circle", "token": ben["token"]}
        )
        assert reply.status_code == 403
        assert phone.get("/api/view").json() == before
    assert setup.table.received == []


def test_a_seated_phone_answers_and_the_answer_reaches_the_table(setup):
    with setup.client(PHONE) as phone:
        ask_first_question(setup, phone)
        joined = post(
            phone, {"type": "join", "seat": "Ann", "code": setup.access.join_code("g1"), "ref": "j"}
        )
        assert joined.status_code == 200
        assert joined.json()["ref"] == "j"
        token = joined.json()["token"]
        wrong_id = post(phone, {"type": "answer", "question": "q9", "yes": True, "token": token})
        assert wrong_id.status_code == 409
        reply = post(
            phone, {"type": "answer", "question": "q1", "yes": True, "token": token, "ref": "a"}
        )
        assert reply.status_code == 200
        assert reply.json() == {"type": "done", "ref": "a"}
        view = phone.get("/api/view").json()["view"]
        assert view["question"] is None
        assert view["game"]["turn"]["number"] == 2
        assert view["last_drop"]["by"] == "Ann"
    assert setup.table.received == [
        Received(Answer(type="answer", question="q1", yes=True, token=token, ref="a"), "Ann")
    ]


def test_staff_actions_need_the_pin_and_work_with_it(setup):
    with setup.client(PHONE) as phone:
        reply = post(
            phone, {"type": "staff", "op": "settings", "pin": PIN, "settings": {"edges": "shape"}}
        )
        assert reply.status_code == 200
        assert str(setup.table.settings.edges) == "shape"
        assert post(phone, {"type": "staff", "op": "abort", "pin": PIN}).status_code == 200
        assert phone.get("/api/view").json()["view"]["game"]["status"] == "game aborted by staff"
        again = post(phone, {"type": "staff", "op": "resync", "pin": PIN})
        assert again.status_code == 409
        assert "aborted" in again.json()["error"]
    assert [r.action.op for r in setup.table.received if isinstance(r.action, Staff)] == [
        "settings",
        "abort",
    ]


def test_the_screen_acts_for_the_table_without_a_code(setup):
    with setup.client(SCREEN) as screen:
        ask_first_question(setup, screen)
        reply = post(screen, {"type": "answer", "question": "q1", "yes": False})
        assert reply.status_code == 200
        assert setup.table.received[-1].seat == TABLE_SEAT
        assert screen.get("/api/view").json()["view"]["question"] is None


def receive_until(ws, predicate, limit=10):
    for _ in range(limit):
        message = ws.receive_json()
        if predicate(message):
            return message
    raise AssertionError("expected message not received")


def test_the_websocket_sends_views_live_and_takes_actions(setup):
    with setup.client(SCREEN) as client, client.websocket_connect("/ws") as ws:
        first = ws.receive_json()
        assert first["type"] == "view"
        assert first["view"]["game"]["turn"]["number"] == 1
        assert first["view"]["question"] is None
        client.portal.call(setup.ticks.tick)
        asked = receive_until(ws, lambda m: m["type"] == "view")
        assert asked["view"]["question"]["id"] == "q1"
        ws.send_text(json.dumps({"type": "answer", "question": "q1", "yes": True, "ref": "r1"}))
        reply = receive_until(ws, lambda m: m["type"] != "view")
        assert reply == {"type": "done", "ref": "r1"}
        played = receive_until(
            ws, lambda m: m["type"] == "view" and m["view"]["game"]["turn"]["number"] == 2
        )
        assert played["view"]["last_drop"]["turn"] == 1
        client.portal.call(setup.ticks.tick)
        third = receive_until(ws, lambda m: m["type"] == "view")
        assert third["view"]["game"]["turn"]["number"] == 3
    assert setup.ticks.slept == 4.0


@pytest.mark.parametrize("raw", MALFORMED)
def test_malformed_websocket_messages_get_an_error_and_change_nothing(setup, raw):
    with setup.client(SCREEN) as client, client.websocket_connect("/ws") as ws:
        before = ws.receive_json()
        if isinstance(raw, bytes):
            ws.send_bytes(raw)
        else:
            ws.send_text(raw)
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert reply["error"].startswith("web message")
        assert client.get("/api/view").json()["view"] == before["view"]
    assert setup.table.received == []


def test_a_websocket_from_another_site_is_refused(setup):
    with setup.client(SCREEN) as client:
        with (
            pytest.raises(WebSocketDisconnect),
            client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws,
        ):
            ws.receive_json()
        with client.websocket_connect("/ws", headers={"origin": "http://testserver"}) as ws:
            assert ws.receive_json()["type"] == "view"


def test_the_staff_view_is_its_own_page_and_the_players_page_has_no_staff_panel(setup):
    with setup.client(PHONE) as phone:
        assert 'id="pin"' not in phone.get("/").text
        staff = phone.get("/staff")
        assert staff.status_code == 200 and 'id="pin"' in staff.text
        icon = phone.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"


def test_the_last_look_only_for_staff(tmp_path):
    frame = tmp_path / "game-g1-turn-4.jpg"
    frame.write_bytes(b"\xff\xd8 a jpeg")
    looks = [LastLook("ok", "g1", 4, "Dev", "green triangle", frame)]
    setup = Setup(look=lambda: looks[-1])
    with setup.client(PHONE) as phone:
        for headers in ({}, {"X-Staff-Pin": "0000"}):
            for path in ("/api/staff/look", "/api/staff/look.jpg"):
                refused = phone.get(path, headers=headers)
                assert refused.status_code == 403
                assert refused.json()["error"] == "wrong staff PIN"
        staff = {"X-Staff-Pin": PIN}
        assert phone.get("/api/staff/look", headers=staff).json() == {
            "state": "look",
            "camera": "ok",
            "game": "g1",
            "turn": 4,
            "player": "Dev",
            "piece": "green triangle",
            "image": "/api/staff/look.jpg?game=g1&turn=4",
        }
        image = phone.get("/api/staff/look.jpg", headers=staff)
        assert image.status_code == 200 and image.headers["content-type"] == "image/jpeg"
        assert image.content == frame.read_bytes()

        # the latest verdict was judged without the camera: no frame to show
        looks.append(LastLook("camera unplugged", "g1", 5, "Ann", "red circle", None))
        out = phone.get("/api/staff/look", headers=staff).json()
        assert (out["state"], out["camera"]) == ("camera out", "camera unplugged")
        assert out["image"] is None
        assert phone.get("/api/staff/look.jpg", headers=staff).status_code == 404
        missed = lazy("the camera did not see the dropped piece")
        looks.append(LastLook(missed, "g1", 5, "Ann", "red circle", None))
        out = phone.get("/api/staff/look?lang=de", headers=staff).json()
        assert out["camera"] == "Die Kamera hat das abgeworfene Teil nicht gesehen"
        looks.append(LastLook("ok", "g2"))
        assert phone.get("/api/staff/look", headers=staff).json()["state"] == "no look yet"


def test_a_table_without_a_camera_has_no_look(setup):
    with setup.client(PHONE) as phone:
        look = phone.get("/api/staff/look", headers={"X-Staff-Pin": PIN}).json()
        assert (look["state"], look["game"], look["image"]) == ("no camera", "g1", None)


# -- the page's language ----------------------------------------------------------------


def test_the_page_gets_its_words_in_the_language_it_asks_for(setup):
    with setup.client() as client:
        german = client.get("/api/messages?lang=de").json()
        assert german["language"] == "de" and german["default"] == "en"
        assert german["languages"] == [
            {"code": "de", "name": "Deutsch"},
            {"code": "en", "name": "English"},
        ]
        assert german["plural"] == "(n != 1)"
        assert german["messages"]["Spend a joker"] == "Joker einsetzen"
        assert german["messages"]["{count} joker"] == ["{count} Joker", "{count} Joker"]
        english = client.get("/api/messages?lang=en").json()
        assert (english["language"], english["messages"]) == ("en", {})
        assert client.get("/api/messages").json()["language"] == "en"  # the table's


def test_the_table_file_language_is_the_default_and_lang_overrides_it():
    setup = Setup(language="de")
    with setup.client() as client:
        assert client.get("/api/messages").json()["language"] == "de"
        assert client.get("/api/messages?lang=en").json()["language"] == "en"
        status = client.get("/api/view").json()["view"]["game"]["status"]
        assert status == "Ein aufgezeichnetes Spiel läuft (Vorführung)"
        english = client.get("/api/view?lang=en").json()["view"]["game"]["status"]
        assert english == "playing a recorded game (demo)"


def test_an_unknown_language_falls_back_to_the_tables_and_is_logged(caplog):
    setup = Setup(language="de")
    with setup.client() as client:
        reply = client.get("/api/messages?lang=xx")
        assert reply.status_code == 200 and reply.json()["language"] == "de"
        page = client.get("/?lang=xx")
        assert page.status_code == 200 and '<div id="board">' in page.text
    assert "unknown language 'xx' asked by 192.168.1.50: showing the table's (de)" in caplog.text


def test_the_websocket_says_the_question_in_its_language(setup):
    with setup.client(SCREEN) as client, client.websocket_connect("/ws?lang=de") as ws:
        assert ws.receive_json()["view"]["game"]["status"] == (
            "Ein aufgezeichnetes Spiel läuft (Vorführung)"
        )
        client.portal.call(setup.ticks.tick)
        asked = receive_until(ws, lambda m: m["type"] == "view")["view"]
        assert asked["question"]["text"].startswith(("Reicht", "Berührt"))
        assert asked["game"]["status"] == "Warte auf die Antwort von Ann"
        with client.websocket_connect("/ws") as english:
            view = english.receive_json()["view"]
            assert view["question"]["text"].startswith(("Does", "Is"))
            assert view["game"]["status"] == "waiting for Ann to answer the referee"


def test_a_refusal_is_said_in_the_language_of_the_device_it_refuses():
    setup = Setup(language="de")
    with setup.client(PHONE) as phone:
        code = setup.access.join_code("g1")
        reply = post(phone, {"type": "join", "seat": "Ann", "code": "x"}).json()
        assert reply["error"] == "Falscher Beitrittscode (er steht auf dem Bildschirm des Tisches)"
        unseated = post(phone, {"type": "confirm", "ref": "r1"}).json()
        assert unseated == {
            "type": "error",
            "error": "Tritt zuerst mit dem Beitrittscode des Spiels einem Platz bei",
            "ref": "r1",
            "seated": False,  # the page forgets a stale seat by this, in any language
        }
        ben = post(phone, {"type": "join", "seat": "Ben", "code": code}).json()
        with phone.websocket_connect("/ws?lang=en") as ws:
            ws.receive_json()
            ws.send_text(json.dumps({"type": "confirm", "token": ben["token"], "ref": "r2"}))
            reply = receive_until(ws, lambda m: m["type"] != "view")
            assert reply["error"] == "it is Ann's turn, not Ben's"
        with phone.websocket_connect("/ws") as ws:  # the table's language
            ws.receive_json()
            ws.send_text(json.dumps({"type": "confirm", "token": ben["token"], "ref": "r3"}))
            reply = receive_until(ws, lambda m: m["type"] != "view")
            assert reply["error"] == "Ann ist am Zug, nicht Ben"
        wrong_pin = phone.get("/api/staff/look?lang=de", headers={"x-staff-pin": "0"})
        assert wrong_pin.json()["error"] == "Falsche Personal-PIN"
