"""What the table shows: the LED score tracks (one module per backend).

:mod:`.track_lights` maps a score track state to lights; :mod:`.track_display` is the
interface every backend offers (``show``, ``animate``) with the animations on an
injectable clock; :mod:`.gpio_tracks` drives the lights through gpiozero.
"""
