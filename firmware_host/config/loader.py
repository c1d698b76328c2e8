"""Reading YAML files and checking them against pydantic models, with errors a person can act on.

pydantic (v2) does the type and structure checks: it is well kept, fast, and reports the
exact key path of every problem; our models add the checks of meaning (a circle inside
the drop zone, segments that do not overlap) as validators.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, ClassVar, TypeVar

import yaml
from pydantic import AfterValidator, BaseModel, ConfigDict, FiniteFloat, ValidationError
from pydantic_core import ErrorDetails

from firmware_host import shipped
from firmware_host.errors import InputError

SHIPPED_CONFIG_DIR = shipped.CONFIG
"""The default configuration shipped with the product (``config/`` in the checkout)."""

CONFIG_DIR = Path(os.environ.get("TABLETOP_CONFIG_DIR") or SHIPPED_CONFIG_DIR)
"""Where configuration is looked up first: ``TABLETOP_CONFIG_DIR`` when set (a café's own
folder, laid out as ``config/``), else the shipped defaults. A file the café's folder lacks
is read from the shipped defaults (:func:`config_file`), so the folder holds only what the
café changed."""


def config_file(path: Path | str) -> Path:
    """``path`` itself if it exists; else, for a path inside :data:`CONFIG_DIR` that the
    café's folder lacks, the shipped file of the same name (the lookup order).

    >>> config_file(CONFIG_DIR / "boards" / "reference.yaml").is_file()
    True
    """
    path = Path(path)
    if path.exists() or CONFIG_DIR == SHIPPED_CONFIG_DIR:
        return path
    try:
        relative = path.resolve().relative_to(CONFIG_DIR.resolve())
    except ValueError:
        return path
    shipped_file = SHIPPED_CONFIG_DIR / relative
    return shipped_file if shipped_file.exists() else path

M = TypeVar("M", bound=BaseModel)


MAX_COORDINATE = 100_000.0
"""The largest distance (mm) or angle (degrees) a file may give: beyond it a pose means
nothing on a table, and the geometry's floats lose the millimetre."""


def _bounded(unit: str) -> Callable[[float], float]:
    def check(value: float) -> float:
        if not -MAX_COORDINATE <= value <= MAX_COORDINATE:
            raise ValueError(
                f"expected {unit} between {-MAX_COORDINATE:g} and {MAX_COORDINATE:g}, "
                f"got {value:g}"
            )
        return value

    return check


Millimetres = Annotated[FiniteFloat, AfterValidator(_bounded("a coordinate in mm"))]
"""A coordinate in a file: a finite number of millimetres within :data:`MAX_COORDINATE`."""

Degrees = Annotated[FiniteFloat, AfterValidator(_bounded("an angle in degrees"))]
"""An angle in a file: a finite number of degrees within :data:`MAX_COORDINATE`."""


class ConfigValueError(ValueError):
    """A value that breaks a rule of meaning, raised by a validator for a key below it.

    ``where`` is the key path relative to the model that raised it (``levels[3].top``).
    """

    def __init__(self, where: str, problem: str) -> None:
        super().__init__(problem)
        self.where = where
        self.problem = problem


class StrictModel(BaseModel):
    """Base of every config model: unknown keys are errors, types are not coerced, values frozen."""

    model_config = ConfigDict(extra="forbid", strict=True, frozen=True)


_FLOAT_TAG = "tag:yaml.org,2002:float"
_FLOAT = re.compile(
    r"""^(?:[-+]?[0-9][0-9_]*\.[0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?[0-9][0-9_]*[eE][-+]?[0-9]+
    |[-+]?\.[0-9][0-9_]*(?:[eE][-+]?[0-9]+)?
    |[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*
    |[-+]?\.(?:inf|Inf|INF)
    |\.(?:nan|NaN|NAN))$""",
    re.VERBOSE,
)
"""A float as people write it: YAML 1.1's forms plus exponents without a dot or a sign
(``1e2``, ``2.5E-3``), which YAML 1.1 reads as text."""


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A mapping that gives the same key twice (PyYAML keeps the last one silently)."""


class FileLoader(yaml.SafeLoader):
    """PyYAML's safe loader with numbers in every notation people write, and no key given
    twice in a mapping.

    >>> parse_yaml("{a: 1e2, b: -2.5E-3, c: 7, d: 1.0e+308, e: '1e2', f: 1_000}")
    {'a': 100.0, 'b': -0.0025, 'c': 7, 'd': 1e+308, 'e': '1e2', 'f': 1000}
    >>> parse_yaml("{x: 1, y: 2, x: 3}")
    Traceback (most recent call last):
    ...
    firmware_host.config.loader.DuplicateKeyError: duplicate key 'x' (first given on line 1)
      in "<unicode string>", line 1, column 14:
        {x: 1, y: 2, x: 3}
                     ^
    """

    # PyYAML keeps the resolvers on the class (add_implicit_resolver copies them into the
    # subclass); types-PyYAML declares them per instance.
    yaml_implicit_resolvers: ClassVar[dict[Any, list[tuple[str, re.Pattern[str]]]]] = {  # type: ignore[misc]  # see above
        first: [(tag, regexp) for tag, regexp in resolvers if tag != _FLOAT_TAG]
        for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
    }

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict[Any, Any]:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:
                continue  # an unhashable key: the base class reports it
            if first is not key_node:
                raise DuplicateKeyError(
                    None,
                    None,
                    f"duplicate key {key!r} (first given on line {first.start_mark.line + 1})",
                    key_node.start_mark,
                )
        return super().construct_mapping(node, deep=deep)


FileLoader.add_implicit_resolver(_FLOAT_TAG, _FLOAT, list("-+0123456789."))


def parse_yaml(text: str) -> Any:
    """YAML text as data, read by :class:`FileLoader`."""
    return yaml.load(text, Loader=FileLoader)


def load_yaml(path: Path | str) -> Any:
    """Parse one YAML file; a missing file or a syntax error is an :class:`InputError`."""
    path = config_file(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(str(path), "", "file not found") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(str(path), "", f"cannot read the file ({exc})") from None
    try:
        return parse_yaml(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or str(exc)
        if not isinstance(exc, DuplicateKeyError):
            problem = f"malformed YAML: {problem}"
        raise InputError(str(path), where, problem) from None


def format_location(loc: tuple[str | int, ...]) -> str:
    """Render a pydantic location as a key path: ``("levels", 3, "top")`` -> ``levels[3].top``."""
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out or "(top level)"


def _describe(error: ErrorDetails) -> str:
    kind = error["type"]
    given = error.get("input")
    if kind == "extra_forbidden":
        return "unknown key (not part of this file's format)"
    if kind == "missing":
        return "required key is missing"
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    if kind.endswith("_type") or kind in {"literal_error", "enum", "finite_number"}:
        return f"{message.lower()}, got {given!r}"
    return message


def validation_error(source: str, exc: ValidationError) -> InputError:
    """The first problem of a pydantic error as one :class:`InputError` (and how many more)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    problem = _describe(first)
    location = format_location(tuple(first["loc"]))
    cause = first.get("ctx", {}).get("error")
    if isinstance(cause, ConfigValueError):
        problem = cause.problem
        if not first["loc"]:
            location = cause.where
        else:
            location += ("" if cause.where.startswith("[") else ".") + cause.where
    if len(errors) > 1:
        problem += f" (and {len(errors) - 1} more problem{'s' if len(errors) > 2 else ''})"
    return InputError(source, location, problem)


def load_model(model: type[M], path: Path | str, data: Any = None) -> M:
    """Load ``path`` (or already-parsed ``data`` that came from it) into ``model``."""
    if data is None:
        data = load_yaml(path)
    if not isinstance(data, dict):
        raise InputError(str(path), "(top level)", "expected a mapping of keys to values")
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise validation_error(str(path), exc) from None
