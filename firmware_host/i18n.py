"""The table's languages: gettext catalogues compiled by Babel, one per language.

Messages are English in the code, marked where they are written: ``t.gettext("Yes")``,
``t.ngettext("{count} shape left", "{count} shapes left", n)`` and ``t.pgettext(context,
text)`` with a :class:`Translator` ``t`` for the words said now; :func:`lazy`,
:func:`lazy_n` and :func:`lazy_p` for words kept in a view and said later, in whichever
language each reader asked for (a :class:`Message`). The page's scripts and HTML mark
theirs the same way (``_("…")``, ``ngettext``, ``pgettext``, ``data-i18n="…"``) and get
the translations from the service as JSON (:func:`page_messages`).

``make i18n`` extracts every marked message into ``locale/tabletop.pot``, updates each
``locale/<language>/LC_MESSAGES/tabletop.po`` and compiles it to the ``.mo`` the package
ships. English needs no catalogue; any other language is the folder of its catalogue.

>>> t = translator("de")
>>> t.gettext("Yes"), t.ngettext("{count} shape left", "{count} shapes left", 1)
('Ja', 'noch {count} Form')
>>> lazy_n("{count} shape left", "{count} shapes left", 3)(t)
'noch 3 Formen'
>>> lazy("Turn {turn}: {player}", turn=1234, player="Ann")(t)
'Zug 1.234: Ann'
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import Any, Literal

from babel import Locale
from babel.lists import format_list
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo
from babel.messages.plurals import get_plural
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

DOMAIN = "tabletop"
"""The catalogues' gettext domain (``<language>/LC_MESSAGES/tabletop.mo``)."""
SOURCE_LANGUAGE = "en"
"""The language the messages are written in: it needs no catalogue."""
LOCALE_DIR: Traversable = files("firmware_host") / "locale"
"""The shipped catalogues (inside the package, so the wheel carries them)."""
KEYWORDS: dict[str, Any] = {
    "_": None,
    "gettext": None,
    "ngettext": (1, 2),
    "pgettext": ((1, "c"), 2),
    "lazy": None,
    "lazy_n": (1, 2),
    "lazy_p": ((1, "c"), 2),
}
"""The marking functions Babel extracts (the names ``make i18n`` passes with ``-k``)."""


@functools.lru_cache(maxsize=16)
def languages(locale_dir: Traversable = LOCALE_DIR) -> tuple[str, ...]:
    """The languages a table may speak: English and every language with a compiled catalogue."""
    found = {SOURCE_LANGUAGE}
    if locale_dir.is_dir():
        found.update(
            d.name for d in locale_dir.iterdir() if _compiled_file(d.name, locale_dir) is not None
        )
    return tuple(sorted(found))


def _compiled_file(language: str, locale_dir: Traversable) -> Traversable | None:
    """``language``'s compiled catalogue in ``locale_dir``; None for English (the messages'
    own language) or a language without one."""
    mo = locale_dir / language / "LC_MESSAGES" / f"{DOMAIN}.mo"
    return mo if language != SOURCE_LANGUAGE and mo.is_file() else None


@functools.lru_cache(maxsize=16)
def _compiled(language: str, locale_dir: Traversable) -> Catalog | None:
    """``language``'s compiled catalogue in ``locale_dir``, read once (None without one)."""
    mo = _compiled_file(language, locale_dir)
    if mo is None:
        return None
    with mo.open("rb") as stream:
        return read_mo(stream)


def language_name(language: str) -> str:
    """The language's name in itself, as the page's switch shows it ("Deutsch", "English")."""
    name = Locale.parse(language).get_display_name(language) or language
    return name[:1].upper() + name[1:]


@dataclass(frozen=True)
class Translator:
    """The words of one language: gettext, ngettext and pgettext, and numbers formatted for it.

    Immutable and shared: each reader asks for its own language's (:func:`translator`).
    """

    language: str
    catalogue: NullTranslations

    def gettext(self, message: str) -> str:
        """``message`` in this language."""
        return self.catalogue.gettext(message)

    def ngettext(self, singular: str, plural: str, count: int) -> str:
        """The form of ``singular``/``plural`` this language uses for ``count``."""
        return self.catalogue.ngettext(singular, plural, count)

    def pgettext(self, context: str, message: str) -> str:
        """``message`` in ``context`` (where one English word has two translations)."""
        # Babel declares its result ``str | object``; a catalogue holds strings.
        return str(self.catalogue.pgettext(context, message))

    def number(self, value: float) -> str:
        """``value`` written as this language writes numbers (``1,5`` in German)."""
        return format_decimal(value, locale=self.language)

    def say(self, text: Text) -> str:
        """``text`` in this language (a plain ``str`` is said as it is: a name, say)."""
        return text if isinstance(text, str) else text(self)


@functools.lru_cache(maxsize=16)
def translator(language: str, locale_dir: Traversable = LOCALE_DIR) -> Translator:
    """The :class:`Translator` for ``language`` from the catalogues in ``locale_dir``
    (English, or a language without a catalogue there, says the messages as written)."""
    mo = _compiled_file(language, locale_dir)
    if mo is None:
        return Translator(language, NullTranslations())
    with mo.open("rb") as stream:
        return Translator(language, Translations(stream, domain=DOMAIN))


@dataclass(frozen=True, slots=True)
class Message:
    """Words to say later, in the language of whoever reads them: a marked message, its
    context and plural, and the values of its ``{placeholders}`` (a value that is itself a
    :class:`Message` is said in the same language; numbers are formatted for it)."""

    message: str
    plural: str = ""
    count: int = 0
    context: str = ""
    values: tuple[tuple[str, Any], ...] = ()

    def __call__(self, t: Translator) -> str:
        """The words in ``t``'s language."""
        if self.plural:
            text = t.ngettext(self.message, self.plural, self.count)
        elif self.context:
            text = t.pgettext(self.context, self.message)
        else:
            text = t.gettext(self.message)
        values = {name: _said(value, t) for name, value in self.values}
        if self.plural:
            values.setdefault("count", t.number(self.count))
        return text.format(**values)

    def __str__(self) -> str:
        return self(translator(SOURCE_LANGUAGE))


ListStyle = Literal[
    "standard", "standard-short", "or", "or-short", "unit", "unit-short", "unit-narrow"
]
"""CLDR's list styles (what Babel's ``format_list`` knows)."""


@dataclass(frozen=True, slots=True)
class Listed:
    """Words said as a list, joined as the reader's language joins lists ("A, B and C";
    ``style`` is a CLDR list style: ``standard``, ``or``, ``standard-short``)."""

    items: tuple[Text, ...]
    style: ListStyle = "standard"

    def __call__(self, t: Translator) -> str:
        """The list in ``t``'s language."""
        return format_list([t.say(item) for item in self.items], self.style, t.language)

    def __str__(self) -> str:
        return self(translator(SOURCE_LANGUAGE))


def _said(value: Any, t: Translator) -> Any:
    if isinstance(value, Message | Listed):
        return value(t)
    if isinstance(value, int | float) and not isinstance(value, bool):
        return t.number(value)
    return value


def lazy(message: str, **values: Any) -> Message:
    """``message`` (with its ``{placeholders}``' ``values``), said when it is read."""
    return Message(message, values=tuple(values.items()))


def lazy_n(singular: str, plural: str, count: int, **values: Any) -> Message:
    """The plural form for ``count`` (``{count}`` in the words), said when it is read."""
    return Message(singular, plural, count, values=tuple(values.items()))


def lazy_p(context: str, message: str, **values: Any) -> Message:
    """``message`` in ``context``, said when it is read."""
    return Message(message, context=context, values=tuple(values.items()))


Text = str | Message | Listed
"""What a view holds for the words it shows: a name as it is, or a message to translate."""


def said(error: Exception) -> Text:
    """The words of ``error``: the message it was raised with, or its ``str``.

    >>> said(ValueError(lazy("the game is over")))(translator("de")), said(KeyError("x"))
    ('Das Spiel ist vorbei', "'x'")
    """
    first = error.args[0] if len(error.args) == 1 else None
    return first if isinstance(first, Message | Listed) else str(error)


Say = Callable[[Text], str]
"""Says a :data:`Text` in one language (:meth:`Translator.say`)."""


def plural_expression(language: str, locale_dir: Traversable = LOCALE_DIR) -> str:
    """The catalogue's plural rule as a C expression of ``n`` (the page evaluates it)."""
    # mypy takes no protocol (Traversable) for Hashable: the Paths and files() here are.
    catalogue = _compiled(language, locale_dir)  # type: ignore[arg-type]  # it hashes
    if catalogue is not None:
        return str(catalogue.plural_expr)
    return get_plural(language).plural_expr


def page_messages(language: str, locale_dir: Traversable = LOCALE_DIR) -> dict[str, Any]:
    """Every translated message of ``language``'s catalogue, for the page's scripts:
    ``{msgid: text}``, ``{singular: [forms]}`` for plurals, and ``"context\\u0004msgid"``
    keys for messages with a context (gettext's convention). Empty for English."""
    # mypy takes no protocol (Traversable) for Hashable: the Paths and files() here are.
    catalogue = _compiled(language, locale_dir)  # type: ignore[arg-type]  # it hashes
    if catalogue is None:
        return {}
    found: dict[str, Any] = {}
    for message in catalogue:
        if not message.id or not message.string:
            continue
        key = message.id if isinstance(message.id, str) else message.id[0]
        if message.context:
            key = f"{message.context}\x04{key}"
        found[key] = message.string if isinstance(message.string, str) else list(message.string)
    return found


_HTML_MARK = re.compile(r'data-i18n(?:-[a-z]+)?="([^"]+)"')


def extract_html(
    fileobj: Any, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, str, str, list[str]]]:
    """A Babel extraction method for the page's HTML: the text of every ``data-i18n="…"``
    attribute (``data-i18n-title``, ``-label``, ``-alt``: the title, ARIA label, image text)."""
    for number, line in enumerate(fileobj.read().decode("utf-8").splitlines(), start=1):
        for found in _HTML_MARK.finditer(line):
            yield number, "gettext", html.unescape(found.group(1)), []
