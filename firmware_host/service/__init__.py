"""The service behind ``tabletop run`` (docs/service.md): one :mod:`.runner` for every game,
the play of a board game (:mod:`.board_play`: Drop It's controller, referee and drop feed)
or of a dice game (:mod:`.dice_play`: the dice games' controller and tray), its clocks, and
what it needs to run under systemd: :mod:`.notify` (sd_notify)."""
