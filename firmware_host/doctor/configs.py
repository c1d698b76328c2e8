"""Checking every config file the table runs on: each is loaded and validated as the
service would; a problem is reported with the file, the key and what to change.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from firmware_host.config.board import REFERENCE_BOARD, load_board
from firmware_host.config.loader import CONFIG_DIR, SHIPPED_CONFIG_DIR
from firmware_host.config.noise import load_profile
from firmware_host.config.panel import REFERENCE_PANEL, PanelConfig, load_panel
from firmware_host.config.table import REFERENCE_TABLE, Table, load_table
from firmware_host.doctor.report import Report
from firmware_host.errors import InputError
from firmware_host.games.clack.discs import DISC_SET, load_disc_set
from firmware_host.games.clever.layout import REFERENCE_LAYOUT, load_layout
from firmware_host.games.gotta2.sheet import SHEET, load_sheet
from firmware_host.i18n import SOURCE_LANGUAGE, Listed, Message, Text, lazy, lazy_p
from firmware_host.model.params import HOST_PARAMS, load_params
from firmware_host.web.config import REFERENCE_WEB, WebConfig, load_web_config

SHIPPED_WEB = SHIPPED_CONFIG_DIR / "web" / "reference.yaml"
"""The web settings the product ships (their staff PIN is in every copy of the docs)."""


@dataclass(frozen=True)
class ConfigFiles:
    """The files to check (the shipped reference files by default)."""

    board: Path | str = REFERENCE_BOARD
    table: Path | str = REFERENCE_TABLE
    panel: Path | str = REFERENCE_PANEL
    web: Path | str = REFERENCE_WEB
    physics: Path | str = HOST_PARAMS
    noise: Path | str = "realistic"
    games: dict[str, Path | str] = field(
        default_factory=lambda: {"clack": DISC_SET, "clever": REFERENCE_LAYOUT, "sheet": SHEET}
    )


@dataclass(frozen=True)
class LoadedConfig:
    """What loaded: the table and panel the hub checks need (None when they did not)."""

    table: Table | None
    panel: PanelConfig | None


DOCS: dict[str, Text] = {
    "board": "docs/board.md",
    "table": "docs/sensors.md",
    "panel": Listed(("docs/panel.md", "docs/leds.md")),
    "web": "docs/web.md",
    "physics": "docs/physics.md",
    "noise": "docs/sensors.md",
}

FILES: dict[str, Message] = {
    "board": lazy_p("config file", "board file"),
    "table": lazy_p("config file", "table file"),
    "panel": lazy_p("config file", "panel file"),
    "web": lazy_p("config file", "web file"),
    "physics": lazy_p("config file", "physics file"),
    "noise": lazy_p("config file", "noise file"),
}
"""Each config file by its kind, as a report names it (games' files: :func:`_file`)."""


def _file(kind: str) -> Message:
    return FILES.get(kind) or lazy("{game} game file", game=kind)


def table_language(path: Path | str) -> str:
    """The language of the table file ``path`` (English when it does not load: the doctor
    then says why)."""
    try:
        return load_table(path).config.language
    except InputError:
        return SOURCE_LANGUAGE


def _shown(path: Path | str) -> str:
    """A path as the technician should read it: relative to config/ when inside it."""
    try:
        return str(Path(path).resolve().relative_to(CONFIG_DIR.parent))
    except ValueError:
        return str(path)


def _check(report: Report, kind: str, path: Path | str, load: Callable[[Any], Any]) -> Any:
    try:
        loaded = load(path)
    except InputError as exc:
        guide = DOCS.get(kind, "docs/games/")
        source = _shown(exc.source)
        if exc.problem == "file not found":
            missing = lazy("{file} {path}: file not found", file=_file(kind), path=_shown(path))
            fix = lazy("restore the file or give its path ({guide})", guide=guide)
            report.problem("config", missing, fix)
            return None
        if exc.where:
            fix = lazy(
                "edit {file} at {key}: {problem} (format: {guide})",
                file=source,
                key=exc.where,
                problem=exc.problem,
                guide=guide,
            )
        else:
            fix = lazy(
                "edit {file}: {problem} (format: {guide})",
                file=source,
                problem=exc.problem,
                guide=guide,
            )
        what = lazy(
            "{file} {path}: {problem}", file=_file(kind), path=_shown(path), problem=exc.problem
        )
        report.problem("config", what, fix)
        return None
    report.ok("config", lazy("{file} {path}", file=_file(kind), path=_shown(path)))
    return loaded


LOCAL_HOSTS = ("127.0.0.1", "::1", "localhost")
"""Hosts that serve the page to this machine only."""


def check_page_exposure(report: Report, web: WebConfig, path: Path | str) -> None:
    """Warn when the page is served beyond this machine with the PIN the product ships:
    anyone on the café's network who read the docs could abort a game.

    >>> import io
    >>> report = Report(io.StringIO())
    >>> shipped = load_web_config()
    >>> check_page_exposure(report, shipped.model_copy(update={"host": "0.0.0.0"}), "web.yaml")
    >>> [(f.warning, str(f.what).endswith("(host 0.0.0.0) with the shipped staff PIN"))
    ...  for f in report.findings]
    [(True, True)]
    >>> check_page_exposure(report, shipped, "web.yaml")  # this machine only: nothing to say
    >>> len(report.findings)
    1
    """
    if web.host in LOCAL_HOSTS:
        return
    if web.staff_pin == load_web_config(SHIPPED_WEB).staff_pin:
        report.warn(
            "web",
            lazy(
                "web file {path}: the page is open to the network (host {host}) with the "
                "shipped staff PIN",
                path=_shown(path),
                host=web.host,
            ),
            lazy("set staff_pin in {path} to a PIN of your own (docs/web.md)", path=_shown(path)),
        )


def check_configs(report: Report, files: ConfigFiles) -> LoadedConfig:
    """Load and check every file of ``files``, reporting each."""
    _check(report, "board", files.board, load_board)
    table = _check(report, "table", files.table, load_table)
    panel = _check(report, "panel", files.panel, load_panel)
    web = _check(report, "web", files.web, load_web_config)
    if web is not None:
        check_page_exposure(report, web, files.web)
    _check(report, "physics", files.physics, load_params)
    _check(report, "noise", files.noise, load_profile)
    loaders = {"clack": load_disc_set, "clever": load_layout, "sheet": load_sheet}
    for name, path in files.games.items():
        _check(report, name, path, loaders[name])
    return LoadedConfig(table, panel)
