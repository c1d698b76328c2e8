"""The catalogues: every message the players or staff see has its German words, the
compiled catalogues are those of the .po files, no sentence is glued from translated
pieces, and a third language is a translator's job (a toy catalogue, compiled here)."""

import ast
import io
import re
import shutil
import subprocess
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po, write_po

from firmware_host.i18n import (
    KEYWORDS,
    LOCALE_DIR,
    Listed,
    language_name,
    languages,
    lazy,
    lazy_n,
    page_messages,
    plural_expression,
    translator,
)

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ROOT / "firmware_host" / "locale"
PO = LOCALE / "de" / "LC_MESSAGES" / "tabletop.po"
MO = LOCALE / "de" / "LC_MESSAGES" / "tabletop.mo"


def extracted() -> dict[tuple[str | None, str], str]:
    """Every marked message of the sources, as `make i18n` extracts them (babel.cfg)."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found = {}
    for filename, _, message, _, context in extract_from_dir(
        ROOT, method_map, options_map, keywords=KEYWORDS
    ):
        msgid = message[0] if isinstance(message, tuple) else message
        found[context, msgid] = filename
    return found


def test_every_message_has_its_german_words():
    messages = extracted()
    assert len(messages) > 150  # the pages, the questions, the verdicts, the staff view
    with PO.open("rb") as stream:
        catalogue = read_po(stream)
    missing, fuzzy = [], []
    for (context, msgid), filename in sorted(messages.items(), key=str):
        entry = catalogue.get(msgid, context=context)
        strings = entry.string if entry is not None else ""
        if isinstance(strings, tuple) and all(strings):
            strings = "ok"
        if entry is None or not strings:
            missing.append(f"{filename}: {msgid!r}")
        elif entry.fuzzy:
            fuzzy.append(f"{filename}: {msgid!r}")
    assert not missing, "no German words for (run make i18n, translate the .po):\n" + "\n".join(
        missing
    )
    assert not fuzzy, "fuzzy German words (check them, drop the fuzzy flag):\n" + "\n".join(fuzzy)


def test_every_translation_has_the_placeholders_of_its_message():
    with PO.open("rb") as stream:
        catalogue = read_po(stream)
    for entry in catalogue:
        if not entry.id:
            continue
        ids = entry.id if isinstance(entry.id, tuple) else (entry.id,)
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        wanted = set(re.findall(r"\{\w+\}", ids[-1]))
        for text in strings:
            found = set(re.findall(r"\{\w+\}", text))
            # a plural's form may leave the count out ("one joker"), nothing else
            assert found <= wanted and wanted - found <= {"{count}"}, (entry.id, text)


def messages_of(catalogue: Catalog) -> dict:
    def key(value):
        return value if isinstance(value, str) else tuple(value)

    return {(m.context, key(m.id)): key(m.string) for m in catalogue if m.id}


def test_the_shipped_catalogue_is_compiled_from_the_po_file():
    with PO.open("rb") as stream:
        compiled = io.BytesIO()
        write_mo(compiled, read_po(stream))
    compiled.seek(0)
    with MO.open("rb") as shipped:
        assert messages_of(read_mo(shipped)) == messages_of(read_mo(compiled)), (
            "tabletop.mo is stale: run make i18n"
        )


def test_make_i18n_extracts_with_the_same_keywords():
    recipe = (ROOT / "Makefile").read_text().split("\ni18n:")[1].split("\n\n")[0]
    flags = set(re.findall(r"-k (\S+)", recipe))
    spec = {
        name: name
        if arguments is None
        else f"{name}:"
        + ",".join(f"{a[0]}c" if isinstance(a, tuple) else f"{a}" for a in arguments)
        for name, arguments in KEYWORDS.items()
    }
    assert flags == set(spec.values())


# -- no sentence glued from pieces -------------------------------------------------------

MARKERS = {"_", "gettext", "ngettext", "pgettext", "lazy", "lazy_n", "lazy_p"}


def _is_marked(node: ast.AST) -> bool:
    if not isinstance(node, ast.Call):
        return False
    name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
    return name in MARKERS


def _holds_marked(node: ast.AST) -> bool:
    return any(_is_marked(inner) for inner in ast.walk(node))


def glued_in_python(source: str) -> list[int]:
    """Lines where a translated message is joined to more words: with + or %, in an
    f-string, or by str.join over a list that holds one."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        added = isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Mod)
        if added and (_is_marked(node.left) or _is_marked(node.right)):
            lines.append(node.lineno)
        joined = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and any(_holds_marked(argument) for argument in node.args)
        )
        if joined:
            lines.append(node.lineno)
        formatted = isinstance(node, ast.JoinedStr) and any(
            isinstance(v, ast.FormattedValue) and _is_marked(v.value) for v in node.values
        )
        if formatted:
            lines.append(node.lineno)
    return lines


JS_CALL = r"(?<![\w.])(?:_|ngettext|pgettext)\("
GLUED_JS = [
    re.compile(r"\+\s*" + JS_CALL),  # "..." + _("...")
    re.compile(JS_CALL + r"[^;]*?\)\s*\+"),  # _("...") + "..."
    re.compile(r"\$\{\s*" + JS_CALL),  # `... ${_("...")} ...`
    re.compile(r"\[[^\]]*" + JS_CALL + r"[^\]]*\]\.join\("),  # [_("..."), "..."].join(" ")
]


def glued_in_js(source: str) -> list[int]:
    return [
        number
        for number, line in enumerate(source.splitlines(), start=1)
        if any(pattern.search(line) for pattern in GLUED_JS)
    ]


def test_the_gluing_checks_find_glued_sentences():
    assert glued_in_python('x = t.gettext("You have") + " " + name') == [1]
    assert glued_in_python("x = f\"{lazy('Turn')} {n}\"") == [1]
    assert glued_in_python('x = lazy("Turn {n}", n=n)') == []
    assert glued_in_python('x = " ".join([t.gettext("Turn"), str(n)])') == [1]
    assert glued_in_python('x = "%s!" % t.gettext("Turn")') == [1]
    assert glued_in_python('x = ", ".join(names)') == []
    assert glued_in_js('text = _("Turn") + " " + n;') == [1]
    assert glued_in_js('text = `${_("Turn")} ${n}`;') == [1]
    assert glued_in_js('text = "Turn " + ngettext("a", "b", n);') == [1]
    assert glued_in_js('text = _("Turn {turn}", { turn: n });') == []
    assert glued_in_js('text = [_("Turn"), n].join(" ");') == [1]


def test_no_sentence_is_glued_from_translated_pieces():
    package = ROOT / "firmware_host"
    glued = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(package.rglob("*.py"))
        for line in glued_in_python(path.read_text())
    ]
    glued += [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted(package.rglob("*.js"))
        for line in glued_in_js(path.read_text())
    ]
    assert not glued, "write one message with placeholders instead:\n" + "\n".join(glued)


# -- the words at run time ------------------------------------------------------------------


def test_languages_and_their_names():
    assert languages() == ("de", "en")
    assert (language_name("de"), language_name("en")) == ("Deutsch", "English")
    assert plural_expression("en") == plural_expression("de") == "(n != 1)"


def test_plurals_lists_and_numbers_follow_the_language():
    de, en = translator("de"), translator("en")
    shapes = [lazy_n("{count} shape left", "{count} shapes left", n) for n in (0, 1, 2)]
    assert [s(de) for s in shapes] == ["noch 0 Formen", "noch 1 Form", "noch 2 Formen"]
    assert [s(en) for s in shapes] == ["0 shapes left", "1 shape left", "2 shapes left"]
    winners = Listed(("Ann", "Ben", "Cleo"))
    assert (winners(de), winners(en)) == ("Ann, Ben und Cleo", "Ann, Ben, and Cleo")
    assert (de.number(1234.5), en.number(1234.5)) == ("1.234,5", "1,234.5")
    assert str(lazy("Turn {turn}: {player}", turn=3, player="Ann")) == "Turn 3: Ann"


def test_the_page_gets_the_catalogue_as_json_data():
    german = page_messages("de")
    assert german["Yes"] == "Ja"
    assert german["{count} shape left"] == ["noch {count} Form", "noch {count} Formen"]
    assert german["piece\x04yellow square"] == "gelbes Quadrat"
    assert page_messages("en") == {}


def test_a_third_language_is_a_catalogue_in_a_folder(tmp_path):
    """What a translator does (README, "Adding a language"): init a catalogue from the
    template, translate, compile; the table then speaks it."""
    locale = tmp_path / "locale"
    shutil.copytree(LOCALE_DIR, locale)
    pybabel = [sys.executable, "-m", "babel.messages.frontend"]
    template = str(locale / "tabletop.pot")
    subprocess.run(
        [*pybabel, "init", "-i", template, "-d", str(locale), "-l", "fr", "-D", "tabletop"],
        check=True,
        capture_output=True,
    )
    po = locale / "fr" / "LC_MESSAGES" / "tabletop.po"
    with po.open("rb") as stream:
        catalogue = read_po(stream)
    catalogue["Yes"].string = "Oui"
    # French counts 0 as one, and has a form of its own for millions (CLDR: one, many, other)
    catalogue["{count} shape left"].string = (
        "{count} forme restante",
        "{count} de formes restantes",
        "{count} formes restantes",
    )
    with po.open("wb") as stream:
        write_po(stream, catalogue)
    subprocess.run(
        [*pybabel, "compile", "-d", str(locale), "-D", "tabletop"], check=True, capture_output=True
    )
    assert languages(locale) == ("de", "en", "fr")
    french = translator("fr", locale)
    assert french.gettext("Yes") == "Oui"
    left = [lazy_n("{count} shape left", "{count} shapes left", n)(french) for n in (0, 1, 2)]
    assert left == ["0 forme restante", "1 forme restante", "2 formes restantes"]
    assert french.gettext("No") == "No"  # not translated yet: the English words
    assert language_name("fr") == "Français"
    assert page_messages("fr", locale)["Yes"] == "Oui"
    assert plural_expression("fr", locale).startswith("(n == 0 || n == 1) ? 0")
