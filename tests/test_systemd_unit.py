"""The service unit asks systemd for what the service relies on (docs/install.md)."""

from tests.firmware_path import ROOT

UNIT = ROOT / "hardware" / "systemd" / "tabletop.service"


def read_unit(text):
    """``{section: {key: [values]}}`` (a key may repeat, as Environment= does)."""
    sections, current = {}, None
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            current = sections.setdefault(line.strip("[]"), {})
        else:
            key, value = line.split("=", 1)
            current.setdefault(key, []).append(value)
    return sections


def test_the_unit_is_notify_with_a_watchdog_restarts_and_keeps_the_journal():
    service = read_unit(UNIT.read_text())["Service"]
    assert service["Type"] == ["notify"] and int(service["WatchdogSec"][0]) > 0
    assert service["Restart"] == ["on-failure"]
    assert service["StateDirectory"] == ["tabletop"]
    assert "TABLETOP_JOURNAL=/var/lib/tabletop/journal.sqlite3" in service["Environment"]
    assert set(service["SupplementaryGroups"][0].split()) == {"dialout", "gpio"}
    assert service["User"] == ["tabletop"]
    assert service["ExecStart"][0].endswith("tabletop run")
    assert service["ReadWritePaths"] == ["/var/lib/tabletop"]
