import asyncio

import pytest

from firmware_host.service.clock import ScaledClock, SimulatedClock


def test_simulated_sleepers_wake_in_time_order_without_waiting():
    clock = SimulatedClock()
    woke: list[tuple[str, float]] = []

    async def sleeper(name: str, seconds: float) -> None:
        await clock.sleep(seconds)
        woke.append((name, clock.now()))

    async def main() -> None:
        await asyncio.gather(sleeper("late", 3600.0), sleeper("early", 1.5), sleeper("tie", 1.5))

    loop_start = asyncio.new_event_loop()
    try:
        started = loop_start.time()
        loop_start.run_until_complete(main())
        assert loop_start.time() - started < 1.0
    finally:
        loop_start.close()
    assert woke == [("early", 1.5), ("tie", 1.5), ("late", 3600.0)]


def test_simulated_time_waits_for_ready_work_before_jumping():
    clock = SimulatedClock()
    seen: list[float] = []

    async def busy() -> None:
        for _ in range(5):
            seen.append(clock.now())
            await asyncio.sleep(0)

    async def main() -> None:
        await asyncio.gather(clock.sleep(10.0), busy())

    asyncio.run(main())
    assert seen == [0.0] * 5
    assert clock.now() == 10.0


def test_a_cancelled_sleeper_does_not_move_time():
    clock = SimulatedClock()

    async def main() -> float:
        task = asyncio.create_task(clock.sleep(100.0))
        await asyncio.sleep(0)
        task.cancel()
        await clock.sleep(1.0)
        return clock.now()

    assert asyncio.run(main()) == 1.0


def test_scaled_clock_sleeps_a_fraction_of_real_time():
    clock = ScaledClock(speed=1000.0)

    async def main() -> float:
        loop = asyncio.get_running_loop()
        started = loop.time()
        await clock.sleep(2.0)
        return loop.time() - started

    assert 0.0015 <= asyncio.run(main()) < 1.0
    assert clock.now() >= 2.0


def test_scaled_clock_refuses_a_speed_that_is_not_positive():
    with pytest.raises(ValueError, match="speed"):
        ScaledClock(0)
