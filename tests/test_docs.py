"""The README is a newcomer's front page: short, linking every doc; the docs are the
project's own (no reference outside the repository, no tracker numbers), their links
resolve, and the example files they name ship."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").rglob("*.md"))
PAGES = [README, ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", *DOCS]
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# The camera's pages are kept by the camera's developers; their tracker references go
# when they next edit them.
def test_the_readme_is_short_and_links_every_doc():
    text = README.read_text()
    assert len(text.splitlines()) < 150
    linked = {(README.parent / target).resolve() for target in LINK.findall(text)}
    missing = [str(doc.relative_to(ROOT)) for doc in DOCS if doc.resolve() not in linked]
    assert missing == []
    for name in ("LICENSE", "CHANGELOG.md", "CONTRIBUTING.md", "docs/images/page.png"):
        assert (ROOT / name).resolve() in linked, name
    assert "make run" in text and "make test" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_links_resolve_inside_the_repository(page):
    for target in LINK.findall(page.read_text()):
        if target.startswith(("http://", "https://", "mailto:")):
            continue
        resolved = (page.parent / target).resolve()
        assert resolved.exists(), f"{page.name}: {target}"
        assert resolved.is_relative_to(ROOT), f"{page.name}: {target} leaves the repository"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_reference_outside_the_repository_nor_to_the_tracker(page):
    text = page.read_text()
    assert "shared/" not in text
    assert "DESIGN" not in text
    assert not re.search(r"\b[Ii]ssue \d|\bthe issue\b|issue's|the brief\b", text)
    assert not re.search(r"this (shared )?(2-core )?machine|another engineer", text)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_example_files_the_docs_name_ship(page):
    for name in set(re.findall(r"examples/[\w/.-]+\.yaml", page.read_text())):
        assert (ROOT / name).is_file(), f"{page.name} names {name}"
