"""The panel's buttons: previous/next shape, confirm, joker, and yes/no for the referee's
questions. Each press becomes an :class:`Action` on an asyncio queue.

gpiozero calls ``when_pressed`` on its own threads (on a Pi: the pin factory's edge
thread); :class:`PanelButtons` hands each press to the event loop with
``loop.call_soon_threadsafe``, so the game sees presses in order, on its own thread.

>>> import asyncio
>>> from gpiozero.pins.mock import MockFactory
>>> from firmware_host.config.panel import load_panel
>>> async def press_confirm():
...     factory = MockFactory()
...     buttons = PanelButtons(load_panel().buttons, pin_factory=factory)
...     factory.pin(13).drive_low()     # the confirm button (GPIO 13) pressed
...     factory.pin(13).drive_high()    # and released
...     action = await buttons.next()
...     buttons.close()
...     return action
>>> asyncio.run(press_confirm())
<Action.CONFIRM: 'confirm'>
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from enum import StrEnum

from gpiozero import Button
from gpiozero.pins import Factory

from firmware_host.config.panel import ButtonsConfig


class Action(StrEnum):
    """What a button asks for (the names of ``buttons.pins`` in the panel file)."""

    PREVIOUS_SHAPE = "previous_shape"
    NEXT_SHAPE = "next_shape"
    CONFIRM = "confirm"
    JOKER = "joker"
    ANSWER_YES = "answer_yes"
    ANSWER_NO = "answer_no"


class PanelButtons:
    """The six buttons of ``config``; presses are queued as :class:`Action` values.

    Create it inside the event loop that reads the presses (or pass ``loop``);
    ``pin_factory`` is gpiozero's (None: the default factory, ``MockFactory`` in tests).
    """

    def __init__(
        self,
        config: ButtonsConfig,
        *,
        loop: asyncio.AbstractEventLoop | None = None,
        pin_factory: Factory | None = None,
    ) -> None:
        self._loop = loop or asyncio.get_running_loop()
        self.actions: asyncio.Queue[Action] = asyncio.Queue()
        """Presses not read yet, oldest first."""
        self._buttons: list[Button] = []
        try:
            for action in Action:
                button = Button(
                    getattr(config.pins, action.value),
                    pull_up=config.pull_up,
                    bounce_time=config.bounce_time,
                    pin_factory=pin_factory,
                )
                self._buttons.append(button)
                button.when_pressed = self._on_press(action)
        except BaseException:
            self.close()
            raise

    def _on_press(self, action: Action) -> Callable[[], None]:
        def pressed() -> None:
            if not self._loop.is_closed():
                self._loop.call_soon_threadsafe(self.actions.put_nowait, action)

        return pressed

    async def next(self) -> Action:
        """The next press (waits for one)."""
        return await self.actions.get()

    def close(self) -> None:
        """Release the pins; presses already queued stay readable."""
        for button in self._buttons:
            button.close()
        self._buttons.clear()
