"""What the wheel ships, and the configuration lookup order (a café's folder, then the
shipped defaults). The wheel itself is built and run outside the checkout by
``.ci/wheel-check``."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware_host import __version__, shipped
from firmware_host.cli import main

ROOT = Path(__file__).resolve().parents[1]


def test_shipped_files_are_the_projects_in_a_checkout():
    assert shipped.CONFIG == ROOT / "config"
    assert shipped.HUB == ROOT / "hardware" / "hub"


def test_the_wheel_ships_every_config_file_the_hub_engine_and_the_pages():
    """setup.py's package data names the folders: a new kind of config file, or a page file
    outside a game's ``page/`` folder, must match."""
    setup = (ROOT / "setup.py").read_text()
    assert '"*/*.yaml"' in setup
    assert all(p.parent.parent == ROOT / "config" for p in (ROOT / "config").rglob("*.yaml"))
    assert '"firmware_host.shipped.hub": "hardware/hub"' in setup
    static = ROOT / "firmware_host" / "web" / "static"
    assert {p.parent for p in static.rglob("*.*")} == {static}
    assert '"firmware_host.games": ["*/page/*.*"]' in setup
    games = ROOT / "firmware_host" / "games"
    pages = [p for p in games.rglob("*") if p.is_file() and "page" in p.relative_to(games).parts]
    assert pages, "no game's page folder"
    assert all(p.parent.name == "page" and p.parent.parent.parent == games for p in pages)


def test_version(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"tabletop {__version__}"


def _run(code: str, config_dir: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "TABLETOP_CONFIG_DIR": str(config_dir)}
    return subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )


def test_a_cafe_folder_overrides_a_file_and_the_rest_come_from_the_defaults(tmp_path):
    (tmp_path / "web").mkdir()
    web = (ROOT / "config" / "web" / "reference.yaml").read_text()
    (tmp_path / "web" / "reference.yaml").write_text(web.replace("port: 8080", "port: 8123"))
    assert "port: 8123" in (tmp_path / "web" / "reference.yaml").read_text()
    done = _run(
        "from firmware_host.web.config import load_web_config\n"
        "from firmware_host.config.board import load_board\n"
        "from firmware_host.config.noise import load_profile\n"
        "print(load_web_config().port, load_board().width, load_profile('harsh').version)",
        tmp_path,
    )
    assert done.returncode == 0, done.stderr
    width = __import__("firmware_host.config.board", fromlist=["x"]).load_board().width
    assert done.stdout.split() == ["8123", str(width), "1"]


def test_a_profile_neither_folder_has_names_both_folders_profiles(tmp_path):
    (tmp_path / "noise").mkdir()
    harsh = (ROOT / "config" / "noise" / "harsh.yaml").read_text()
    (tmp_path / "noise" / "windy.yaml").write_text(harsh)
    done = _run(
        "from firmware_host.config.noise import load_profile\n"
        "print(load_profile('windy').version)\n"
        "load_profile('calm')",
        tmp_path,
    )
    assert done.stdout.strip() == "1"
    assert "no such noise profile (shipped: clean, harsh, realistic, windy)" in done.stderr
