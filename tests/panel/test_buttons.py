"""The buttons through gpiozero's mock pins: each press becomes one action, in order, on the
event loop, whichever thread gpiozero calls back on."""

import asyncio
import threading

import pytest
from gpiozero import Button
from gpiozero.pins.mock import MockFactory

from firmware_host.config.panel import ButtonsConfig, load_panel
from firmware_host.panel.buttons import Action, PanelButtons

PANEL = load_panel().buttons
PINS = {Action(name): pin for name, pin in PANEL.pins}


def drain(queue):
    found = []
    while not queue.empty():
        found.append(queue.get_nowait())
    return found


def test_each_button_gives_its_action_in_press_order():
    order = [Action.NEXT_SHAPE, Action.NEXT_SHAPE, Action.PREVIOUS_SHAPE, Action.CONFIRM]
    order += [Action.JOKER, Action.ANSWER_YES, Action.ANSWER_NO]

    async def scenario():
        factory = MockFactory()
        buttons = PanelButtons(PANEL, pin_factory=factory)
        for action in order:
            pin = factory.pin(PINS[action])
            pin.drive_low()
            pin.drive_high()
        got = [await buttons.next() for _ in order]
        await asyncio.sleep(0)
        left = drain(buttons.actions)
        buttons.close()
        return got, left

    got, left = asyncio.run(scenario())
    assert got == order
    assert left == []


def test_releasing_or_holding_a_button_adds_nothing():
    async def scenario():
        factory = MockFactory()
        buttons = PanelButtons(PANEL, pin_factory=factory)
        pin = factory.pin(PINS[Action.JOKER])
        pin.drive_low()
        await asyncio.sleep(0)
        held = drain(buttons.actions)
        pin.drive_high()
        await asyncio.sleep(0)
        released = drain(buttons.actions)
        buttons.close()
        return held, released

    assert asyncio.run(scenario()) == ([Action.JOKER], [])


def test_pull_down_wiring_presses_on_a_high_pin():
    config = ButtonsConfig(pull_up=False, bounce_time=None, pins=PANEL.pins)

    async def scenario():
        factory = MockFactory()
        buttons = PanelButtons(config, pin_factory=factory)
        factory.pin(PINS[Action.ANSWER_YES]).drive_high()
        action = await asyncio.wait_for(buttons.next(), timeout=5)
        factory.pin(PINS[Action.ANSWER_YES]).drive_low()
        buttons.close()
        return action

    assert asyncio.run(scenario()) == Action.ANSWER_YES


def test_a_press_on_gpiozeros_own_thread_reaches_the_event_loop():
    async def scenario():
        factory = MockFactory()
        buttons = PanelButtons(PANEL, pin_factory=factory)
        loop_thread = threading.get_ident()
        callback_threads = []
        button = buttons._buttons[list(Action).index(Action.CONFIRM)]
        pressed = button.when_pressed

        def watched():
            callback_threads.append(threading.get_ident())
            pressed()

        button.when_pressed = watched
        presser = threading.Thread(target=factory.pin(PINS[Action.CONFIRM]).drive_low)
        presser.start()
        action = await asyncio.wait_for(buttons.next(), timeout=5)
        presser.join(timeout=5)
        factory.pin(PINS[Action.CONFIRM]).drive_high()
        buttons.close()
        return action, callback_threads, loop_thread

    action, callback_threads, loop_thread = asyncio.run(scenario())
    assert action == Action.CONFIRM
    assert len(callback_threads) == 1 and callback_threads[0] != loop_thread


def test_close_releases_the_pins_and_keeps_queued_presses():
    async def scenario():
        factory = MockFactory()
        buttons = PanelButtons(PANEL, pin_factory=factory)
        confirm = factory.pin(PINS[Action.CONFIRM])
        confirm.drive_low()
        confirm.drive_high()
        buttons.close()
        factory.pin(PINS[Action.JOKER]).drive_low()
        await asyncio.sleep(0)
        again = Button(PINS[Action.JOKER], pin_factory=factory)
        again.close()
        return drain(buttons.actions)

    assert asyncio.run(scenario()) == [Action.CONFIRM]


def test_a_pin_already_taken_fails_cleanly_and_frees_the_others():
    async def scenario():
        factory = MockFactory()
        taken = Button(PINS[Action.ANSWER_NO], pin_factory=factory)
        with pytest.raises(Exception, match="GPIO21"):
            PanelButtons(PANEL, pin_factory=factory)
        taken.close()
        PanelButtons(PANEL, pin_factory=factory).close()

    asyncio.run(scenario())
