"""The journal: every game event, committed to SQLite before anything shows it.

:mod:`.store` keeps games of any kind and their events (:class:`~.store.Journal`);
:mod:`.dropit` records a game of Drop It through it and resumes the unfinished one
after a crash or a power cut; :mod:`.review` lists the games and judges one again
(``tabletop games``, ``tabletop replay``). The file format and the durability settings
are in ``docs/journal.md``.
"""

from firmware_host.journal.store import (
    DuplicateEvent,
    GameRow,
    Journal,
    JournalError,
    StoredEvent,
    default_journal_path,
)

__all__ = [
    "DuplicateEvent",
    "GameRow",
    "Journal",
    "JournalError",
    "StoredEvent",
    "default_journal_path",
]
