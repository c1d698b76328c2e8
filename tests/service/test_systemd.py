"""The service tells systemd it is ready, what it is doing, that it is alive (watchdog)
and that it is stopping — over a real unix datagram socket as ``$NOTIFY_SOCKET``."""

import asyncio
import socket

from firmware_host.games.dropit.actions import Select
from firmware_host.service.notify import Notifier
from firmware_host.service.runner import Service
from tests.service.support import options, until


def test_ready_status_watchdog_and_stopping_reach_systemd(tmp_path):
    address = str(tmp_path / "notify.sock")
    systemd = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    systemd.bind(address)
    systemd.setblocking(False)
    notifier = Notifier(env={"NOTIFY_SOCKET": address, "WATCHDOG_USEC": "20000"})
    received: list[str] = []

    def drain() -> list[str]:
        while True:
            try:
                received.append(systemd.recv(4096).decode())
            except BlockingIOError:
                return received

    async def main() -> None:
        service = Service(options(tmp_path), announce=print, notifier=notifier)
        running = asyncio.create_task(service.run())
        await until(lambda: sum(m == "WATCHDOG=1" for m in drain()) >= 3)
        await until(lambda: service.controller.paused is None)  # the hub is up
        await service.controller.act(Select(type="select", color="red", shape="circle"), "Ann")
        await until(lambda: "STATUS=Ann will drop the red circle" in drain())
        service.stop()
        await running

    try:
        asyncio.run(main())
        drain()
    finally:
        systemd.close()
    assert received[0].startswith("READY=1\nSTATUS=")
    assert received.count("WATCHDOG=1") >= 3
    assert received[-1] == "STOPPING=1"
