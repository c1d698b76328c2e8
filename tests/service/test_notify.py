"""sd_notify over a real unix datagram socket standing in for systemd's."""

import socket

import pytest

from firmware_host.service.notify import Notifier


@pytest.fixture
def systemd_socket(tmp_path):
    path = str(tmp_path / "notify")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(2)
    yield path, sock
    sock.close()


def test_each_notification_is_one_datagram_of_key_value_lines(systemd_socket):
    path, sock = systemd_socket
    notifier = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "30000000"})
    assert notifier.enabled and notifier.watchdog_seconds == 30.0
    assert notifier.ready("playing game 3")
    assert notifier.watchdog()
    assert notifier.status("hub lost: game paused")
    assert notifier.stopping()
    got = [sock.recv(4096).decode() for _ in range(4)]
    assert got == [
        "READY=1\nSTATUS=playing game 3",
        "WATCHDOG=1",
        "STATUS=hub lost: game paused",
        "STOPPING=1",
    ]


def test_abstract_socket_names_start_with_a_nul_byte():
    name = f"tabletop-test-{id(object())}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind("\0" + name)
    sock.settimeout(2)
    with sock:
        assert Notifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert sock.recv(100) == b"READY=1"


def test_without_systemd_or_with_it_gone_nothing_fails(tmp_path):
    assert not Notifier({}).ready()
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody")})
    assert gone.enabled and not gone.watchdog()
    with pytest.raises(ValueError, match="one line"):
        gone.status("two\nlines")
