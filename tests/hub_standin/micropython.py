"""Stand-in for MicroPython's ``micropython`` module: remembers the Ctrl-C setting."""

interrupt_char = 3


def kbd_intr(char: int) -> None:
    global interrupt_char
    interrupt_char = char
