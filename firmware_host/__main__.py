"""``python -m firmware_host`` is the ``tabletop`` command."""

from firmware_host.cli import main

main()
