"""The table's panel: buttons on the Pi's GPIO, through gpiozero (one module per part)."""
