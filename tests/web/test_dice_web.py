"""A dice game behind the real app (Starlette's test client): the dice page, the view, and
every refusal of untrusted input -- malformed, no seat, another player's move, a move the
game is not waiting for, a throw of real dice -- changing nothing, while right actions
reach the game and its journal."""

import json
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from firmware_host.games.table_game import Setup
from firmware_host.journal.store import Journal
from firmware_host.sensors import DieReading
from firmware_host.service.dice_controller import DiceController
from firmware_host.web.access import Access
from firmware_host.web.frontend import DICE_GAMES
from firmware_host.web.server import create_app
from tests.games.dice_duel import DiceDuel
from tests.web.support import PIN, web_config

SCREEN = ("127.0.0.1", 40000)
PHONE = ("192.168.1.50", 40001)
ROOT = Path(__file__).resolve().parents[2]


class Served:
    def __init__(self, tmp_path, thrower=None):
        self.journal = Journal(tmp_path / "journal.sqlite3")
        self.thrown = []
        self.table = DiceController.start(
            self.journal, DiceDuel, Setup(("Ann", "Ben")), dice=2, thrower=thrower
        )
        self.access = Access(web_config(), seed=5)
        self.app = create_app(self.table, self.access, frontend=DICE_GAMES)

    def client(self, at=PHONE):
        return TestClient(self.app, client=at)

    def throw(self, face):
        self.table.die(DieReading(0, True, None))
        self.table.die(DieReading(0, False, face))

    def join(self, client, seat):
        code = self.access.join_code(self.table.snapshot().game_id)
        reply = post(client, {"type": "join", "seat": seat, "code": code})
        assert reply.status_code == 200
        return reply.json()["token"]


@pytest.fixture
def served(tmp_path):
    served = Served(tmp_path)
    yield served
    served.journal.close()


def post(client, action):
    body = action if isinstance(action, str | bytes) else json.dumps(action)
    return client.post("/api/actions", content=body)


def test_the_dice_page_and_its_view(served):
    with served.client(SCREEN) as client:
        page = client.get("/")
        assert page.status_code == 200 and "/static/dice.js" in page.text
        assert client.get("/static/dice.js").status_code == 200
        message = client.get("/api/view").json()
    assert "svg" not in message
    assert message["view"]["kind"] == "duel" and message["view"]["roll"] == {
        "dice": [0],
        "by": "Ann",
    }
    assert message["players"] == ["Ann", "Ben"] and message["join"]["code"]
    game = message["view"]["id"]
    assert message["staff"] == {
        "game": game,
        "status": f"Dice duel (game {game}): {message['view']['status']}",
        "ops": ["abort", "new"],
        "fields": ["players"],
        "setup": {
            "players": [{"name": "Ann", "colors": []}, {"name": "Ben", "colors": []}],
            "teams": None,
            "settings": None,
        },
    }


@pytest.mark.parametrize("kind", ["clack", "clever", "gotta2"])
def test_each_games_page_script_and_css_are_served_from_its_package(served, kind):
    page = ROOT / "firmware_host" / "games" / kind / "page"
    with served.client(SCREEN) as client:
        for name in (f"{kind}.js", f"{kind}.css"):
            served_file = client.get(f"/static/games/{name}")
            assert served_file.status_code == 200, name
            assert served_file.content == (page / name).read_bytes()
        assert client.get("/static/games/dice.js").status_code == 404
        assert client.get("/static/games/../table.py").status_code == 404
        assert client.get("/static/dice.js").status_code == 200


def test_a_joined_phone_moves_for_its_player_only(served):
    served.throw(3)
    with served.client() as client:
        anonymous = post(client, {"type": "move", "move": {"type": "keep"}})
        assert anonymous.status_code == 403
        ben = served.join(client, "Ben")
        as_ann = post(
            client, {"type": "move", "player": "Ann", "move": {"type": "keep"}, "token": ben}
        )
        assert (as_ann.status_code, as_ann.json()["error"]) == (
            403,
            "this device plays as Ben, not Ann",
        )
        not_waiting = post(client, {"type": "move", "move": {"type": "keep"}, "token": ben})
        assert (
            not_waiting.status_code == 409 and "not waiting for a move from Ben" in not_waiting.text
        )
        assert served.table.events == 2
        ann = served.join(client, "Ann")
        malformed = post(client, {"type": "move", "move": {"type": "keep", "x": 1}, "token": ann})
        assert malformed.status_code == 400 and "duel move" in malformed.json()["error"]
        assert served.table.events == 2
        done = post(client, {"type": "move", "move": {"type": "keep"}, "token": ann, "ref": "r1"})
        assert done.json() == {"type": "done", "ref": "r1"}
    assert served.table.snapshot().data["scores"] == {"Ann": 4, "Ben": 0}
    assert [e.data["type"] for e in served.journal.events(served.table.game_id)] == [
        "started",
        "thrown",
        "keep",
    ]


def test_the_screen_names_the_player_it_moves_for(served):
    served.throw(0)
    with served.client(SCREEN) as client:
        unnamed = post(client, {"type": "move", "move": {"type": "pass"}})
        assert unnamed.status_code == 409 and "must name the player" in unnamed.text
        stranger = post(client, {"type": "move", "player": "Zed", "move": {"type": "pass"}})
        assert stranger.status_code == 403
        assert (
            post(client, {"type": "move", "player": "Ann", "move": {"type": "pass"}}).status_code
            == 200
        )
    assert served.table.snapshot().waiting_for == ()


def test_malformed_messages_are_refused_naming_the_key(served):
    with served.client(SCREEN) as client:
        for body, where in (
            ("{", "not JSON"),
            ('{"type": "select", "color": "red"}', "unknown action 'select'"),
            ('{"type": "move", "move": 3}', "move"),
            ('{"type": "roll", "extra": 1}', "extra"),
        ):
            reply = post(client, body)
            assert reply.status_code == 400 and where in reply.json()["error"]
    assert served.table.events == 1


def test_a_throw_from_the_page_needs_the_simulators_dice(tmp_path):
    real = Served(tmp_path)
    with real.client(SCREEN) as client:
        reply = post(client, {"type": "roll"})
        assert reply.status_code == 409 and "throw the dice in the tray" in reply.text
    real.journal.close()
    thrown = []
    (tmp_path / "v").mkdir()
    virtual = Served(tmp_path / "v", thrower=thrown.append)
    with virtual.client() as client:
        ben = virtual.join(client, "Ben")
        assert post(client, {"type": "roll", "token": ben}).status_code == 403
        ann = virtual.join(client, "Ann")
        assert post(client, {"type": "roll", "token": ann}).status_code == 200
    assert thrown == [(0,)]
    virtual.journal.close()


def test_staff_abort_needs_the_pin(served):
    with served.client() as client:
        assert post(client, {"type": "staff", "op": "abort", "pin": "0000"}).status_code == 403
        assert served.table.game_id == 1
        assert post(client, {"type": "staff", "op": "abort", "pin": PIN}).status_code == 200
    assert served.table.game_id == 2
