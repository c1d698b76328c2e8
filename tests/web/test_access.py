"""Join codes, seats, the staff PIN and the lockout after wrong guesses."""

import pytest

from firmware_host.errors import InputError
from firmware_host.web.access import JOIN_CODE_DIGITS, Access
from firmware_host.web.actions import TABLE_SEAT, Refused
from firmware_host.web.config import REFERENCE_WEB, load_web_config
from tests.builders import write_yaml
from tests.web.support import PIN, web_config

PLAYERS = ("Ann", "Ben", "Cleo")
PHONE = "192.168.1.50"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_the_reference_settings_keep_the_page_on_this_machine():
    config = load_web_config()
    assert config.host == "127.0.0.1"
    assert config.phones is False
    assert REFERENCE_WEB.exists()


@pytest.mark.parametrize(
    ("change", "where", "problem"),
    [
        ({"phones": True}, "(top level)", "needs public_url"),
        ({"public_url": "ftp://x"}, "(top level)", "must start with http"),
        ({"staff_pin": "12"}, "staff_pin", "should match pattern"),
        ({"port": 70000}, "port", "less than or equal to 65535"),
        ({"hosts": "0.0.0.0"}, "hosts", "unknown key"),
    ],
)
def test_bad_web_settings_are_named(tmp_path, change, where, problem):
    data = {"version": 1, "staff_pin": "2741", **change}
    path = write_yaml(tmp_path / "web.yaml", data)
    with pytest.raises(InputError) as caught:
        load_web_config(path)
    assert caught.value.source == str(path)
    assert caught.value.where == where
    assert problem in caught.value.problem


def test_a_phone_joins_only_with_the_games_code_and_a_real_seat():
    access = Access(web_config(), seed=3)
    code = access.join_code("g1")
    assert len(code) == JOIN_CODE_DIGITS and code.isdigit()
    assert access.seat_of(None, PHONE, "g1") is None
    with pytest.raises(Refused, match="wrong join code"):
        access.join("g1", PLAYERS, "Ann", "000000" if code != "000000" else "111111", PHONE)
    with pytest.raises(Refused, match="no player 'Zed'"):
        access.join("g1", PLAYERS, "Zed", code, PHONE)
    token = access.join("g1", PLAYERS, "Ben", code, PHONE)
    assert access.seat_of(token, PHONE, "g1") == "Ben"
    assert access.seat_of("forged-token", PHONE, "g1") is None


def test_a_new_game_has_a_new_code_and_forgets_every_seat():
    access = Access(web_config(), seed=3)
    code = access.join_code("g1")
    token = access.join("g1", PLAYERS, "Ann", code, PHONE)
    new_code = access.join_code("g2")
    assert new_code != code
    assert access.seat_of(token, PHONE, "g2") is None
    with pytest.raises(Refused, match="wrong join code"):
        access.join("g2", PLAYERS, "Ann", code, PHONE)


def test_phones_off_means_no_joining_and_the_screen_is_the_table():
    access = Access(web_config(phones=False, public_url=None), seed=3)
    with pytest.raises(Refused, match="phones may not join"):
        access.join("g1", PLAYERS, "Ann", access.join_code("g1"), PHONE)
    assert access.seat_of(None, "127.0.0.1", "g1") == TABLE_SEAT
    assert access.seat_of(None, PHONE, "g1") is None


def test_the_staff_pin():
    access = Access(web_config(), seed=3)
    access.check_pin(PIN, PHONE)
    for wrong in ("", "0000", PIN + "0", PIN[:-1]):
        with pytest.raises(Refused, match="wrong staff PIN"):
            Access(web_config(), seed=3).check_pin(wrong, PHONE)


def test_wrong_guesses_lock_the_address_out_for_a_while():
    clock = Clock()
    access = Access(web_config(max_failures=3, lockout=60), seed=3, clock=clock)
    code = access.join_code("g1")
    for _ in range(3):
        with pytest.raises(Refused, match="wrong staff PIN"):
            access.check_pin("0000", PHONE)
    # locked: even the right code and PIN are refused from that address
    with pytest.raises(Refused, match="too many wrong"):
        access.join("g1", PLAYERS, "Ann", code, PHONE)
    with pytest.raises(Refused, match="too many wrong"):
        access.check_pin(PIN, PHONE)
    access.check_pin(PIN, "192.168.1.51")  # another address is not locked
    clock.now += 59.9
    with pytest.raises(Refused, match="too many wrong"):
        access.check_pin(PIN, PHONE)
    clock.now += 0.2
    access.check_pin(PIN, PHONE)
    assert access.join("g1", PLAYERS, "Ann", code, PHONE)


def test_seeded_codes_are_reproducible():
    assert Access(web_config(), seed=9).join_code("g") == Access(web_config(), seed=9).join_code(
        "g"
    )
