"""Structured logs: one line per event, ``key=value`` fields, journald-friendly.

Every record becomes one line: ``level=info logger=tabletop.doctor event="hub up"
port=/dev/ttyACM0``. Fields come from ``extra={"fields": {...}}`` (or :func:`event`);
values with spaces, quotes or ``=`` are quoted with backslash escapes, newlines are
escaped so one event is always one line. Under systemd the journal adds the time, so
no timestamp is written (``TABLETOP_LOG_TIME=1`` adds one); ``TABLETOP_LOG_FORMAT=json``
writes one JSON object per line instead.

The level comes from the argument, else ``$TABLETOP_LOG_LEVEL``, else ``info``.

>>> import io, logging
>>> stream = io.StringIO()
>>> _ = setup_logging("debug", stream=stream, fmt="kv")
>>> event(logging.getLogger("tabletop.doctor"), "beam stuck", logging.WARNING, gate="entry", beam=7)
>>> stream.getvalue()
'level=warning logger=tabletop.doctor event="beam stuck" gate=entry beam=7\\n'
"""

from __future__ import annotations

import json
import logging
import os
import sys
import time
from collections.abc import Mapping
from typing import Any, Literal, TextIO

LEVELS = ("debug", "info", "warning", "error", "critical")
"""The level names accepted (lower case) in config and ``$TABLETOP_LOG_LEVEL``."""

Format = Literal["kv", "json"]

_ESCAPES = (("\\", "\\\\"), ('"', '\\"'), ("\n", "\\n"), ("\r", "\\r"), ("\t", "\\t"))


def quote(value: object) -> str:
    """A value as it appears after ``key=``: bare when safe, else double-quoted.

    >>> quote("ttyACM0"), quote("hub up"), quote('say "hi"'), quote("a\\nb")
    ('ttyACM0', '"hub up"', '"say \\\\"hi\\\\""', '"a\\\\nb"')
    """
    text = str(value)
    if text and not any(c in text for c in ' "=\\\n\r\t'):
        return text
    for plain, escaped in _ESCAPES:
        text = text.replace(plain, escaped)
    return f'"{text}"'


class StructuredFormatter(logging.Formatter):
    """Formats a record as one ``key=value`` line (or one JSON object with ``fmt="json"``)."""

    def __init__(self, fmt: Format = "kv", with_time: bool = False) -> None:
        super().__init__()
        self.fmt = fmt
        self.with_time = with_time

    def fields(self, record: logging.LogRecord) -> dict[str, Any]:
        """The record's fields in output order."""
        out: dict[str, Any] = {}
        if self.with_time:
            out["time"] = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + (
                f".{int(record.msecs):03d}Z"
            )
        out["level"] = record.levelname.lower()
        out["logger"] = record.name
        out["event"] = record.getMessage()
        extra = getattr(record, "fields", None)
        if isinstance(extra, Mapping):
            out.update({str(k): v for k, v in extra.items()})
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return out

    def format(self, record: logging.LogRecord) -> str:
        """One line for ``record``."""
        fields = self.fields(record)
        if self.fmt == "json":
            return json.dumps(fields, default=str, ensure_ascii=False)
        return " ".join(f"{key}={quote(value)}" for key, value in fields.items())


def level_from(name: str | None) -> int:
    """The logging level for ``name`` (or ``$TABLETOP_LOG_LEVEL``, default ``info``).

    An unknown name is a ``ValueError`` that lists the accepted ones.
    """
    chosen = (name or os.environ.get("TABLETOP_LOG_LEVEL") or "info").strip().lower()
    if chosen not in LEVELS:
        raise ValueError(f"log level {chosen!r}: expected one of {', '.join(LEVELS)}")
    return logging.getLevelNamesMapping()[chosen.upper()]


def setup_logging(
    level: str | None = None, stream: TextIO | None = None, fmt: Format | None = None
) -> logging.Handler:
    """Send every log record to ``stream`` (stderr: what journald captures) as one
    structured line; replaces the root logger's handlers and returns the new one."""
    chosen_fmt = fmt or ("json" if os.environ.get("TABLETOP_LOG_FORMAT") == "json" else "kv")
    handler = logging.StreamHandler(stream if stream is not None else sys.stderr)
    handler.setFormatter(
        StructuredFormatter(chosen_fmt, with_time=os.environ.get("TABLETOP_LOG_TIME") == "1")
    )
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level_from(level))
    return handler


def event(logger: logging.Logger, what: str, level: int = logging.INFO, /, **fields: Any) -> None:
    """Log ``what`` with ``fields`` as ``key=value`` pairs (default level: info)."""
    logger.log(level, what, extra={"fields": fields})
