"""Structured log lines: one per event, key=value or JSON, levels from the env (tests/conftest.py
puts the root logger back after each test)."""

import io
import json
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from firmware_host.logs import StructuredFormatter, event, level_from, setup_logging


def _unquote(text):
    """Parse one key=value line back (the inverse of the formatter, for the test)."""
    fields, i = {}, 0
    while i < len(text):
        key_end = text.index("=", i)
        key = text[i:key_end]
        i = key_end + 1
        if text[i] == '"':
            value, i = [], i + 1
            while text[i] != '"':
                if text[i] == "\\":
                    value.append({"n": "\n", "r": "\r", "t": "\t"}.get(text[i + 1], text[i + 1]))
                    i += 2
                else:
                    value.append(text[i])
                    i += 1
            fields[key] = "".join(value)
            i += 2
        else:
            end = text.find(" ", i)
            end = len(text) if end < 0 else end
            fields[key] = text[i:end]
            i = end + 1
    return fields


@given(st.text(max_size=40))
def test_any_value_stays_on_one_line_and_reads_back(value):
    stream = io.StringIO()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(StructuredFormatter())
    logger = logging.Logger("t")
    logger.addHandler(handler)
    event(logger, "check", port=value)
    line = stream.getvalue()
    assert line.count("\n") == 1
    assert _unquote(line[:-1]) == {
        "level": "info",
        "logger": "t",
        "event": "check",
        "port": value,
    }


def test_levels_come_from_the_argument_then_the_environment(monkeypatch):
    monkeypatch.setenv("TABLETOP_LOG_LEVEL", "WARNING")
    stream = io.StringIO()
    setup_logging(stream=stream)
    logging.getLogger("tabletop.x").info("hidden")
    logging.getLogger("tabletop.x").warning("shown")
    assert stream.getvalue() == "level=warning logger=tabletop.x event=shown\n"
    assert level_from("debug") == logging.DEBUG
    with pytest.raises(ValueError, match="expected one of debug, info"):
        level_from("loud")


def test_json_lines_carry_the_fields_and_the_exception(monkeypatch):
    monkeypatch.setenv("TABLETOP_LOG_FORMAT", "json")
    stream = io.StringIO()
    setup_logging("info", stream=stream)
    log = logging.getLogger("tabletop.y")
    event(log, "hub up", firmware="1.0.0")
    try:
        raise OSError("port gone")
    except OSError:
        log.exception("read failed", extra={"fields": {"port": "/dev/ttyACM0"}})
    first, second = (json.loads(line) for line in stream.getvalue().splitlines())
    assert first == {
        "level": "info",
        "logger": "tabletop.y",
        "event": "hub up",
        "firmware": "1.0.0",
    }
    assert second["port"] == "/dev/ttyACM0" and "OSError: port gone" in second["exception"]
