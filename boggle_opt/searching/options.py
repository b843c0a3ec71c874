"""Searcher options: a frozen dataclass per searcher, set with ``-o name value``.

A field's ``metadata={"help": "..."}`` is its help text; ``__post_init__``
validates values by raising ``ValueError`` with a message about the value.
Names may be written with ``-`` or ``_`` on the command line.
"""

from __future__ import annotations

import dataclasses
import difflib
import math
import typing
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..core.errors import BoggleOptError


class OptionError(BoggleOptError):
    """A searcher option that does not exist or has a bad value."""


def did_you_mean(name: str, known: Iterable[str]) -> str:
    """``; did you mean 'x'?`` for the nearest of ``known`` to a mistyped ``name``, else ""."""
    by_fold = {k.casefold(): k for k in known}
    close = difflib.get_close_matches(name.casefold(), list(by_fold), n=1, cutoff=0.6)
    return f"; did you mean {by_fold[close[0]]!r}?" if close else ""


@dataclass(frozen=True)
class OptionInfo:
    name: str  # as written on the command line (dashes)
    type: str
    default: Any
    help: str


def _fields(options_cls: type) -> list[dataclasses.Field[Any]]:
    if not dataclasses.is_dataclass(options_cls):
        raise OptionError(f"{options_cls!r} is not a dataclass")
    return list(dataclasses.fields(options_cls))


def _types(options_cls: type) -> dict[str, Any]:
    return typing.get_type_hints(options_cls)


def _type_name(tp: Any) -> str:
    if tp is type(None):
        return "none"
    args = typing.get_args(tp)
    if args and typing.get_origin(tp) in (typing.Union, getattr(__import__("types"), "UnionType")):
        return " | ".join(_type_name(a) for a in args)
    return getattr(tp, "__name__", str(tp))


def _default(f: dataclasses.Field[Any]) -> Any:
    if f.default is not dataclasses.MISSING:
        return f.default
    if f.default_factory is not dataclasses.MISSING:
        return f.default_factory()
    return None


def describe(options_cls: type) -> list[OptionInfo]:
    """Each option's name, type, default and help, for ``boggle-opt searchers``."""
    types = _types(options_cls)
    return [
        OptionInfo(
            f.name.replace("_", "-"),
            _type_name(types[f.name]),
            _default(f),
            str(f.metadata.get("help", "")),
        )
        for f in _fields(options_cls)
        if f.init
    ]


#: the largest whole number the compiled core takes (a signed 64-bit integer)
INT_MAX = 2**63 - 1
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _convert(name: str, tp: Any, value: object) -> Any:
    """An option's value in its declared type: a command-line string is parsed,
    a value already of that type (from Python, or a run file's record) is
    checked as it is, never written out and parsed again."""
    args = typing.get_args(tp)
    if args and type(None) in args:  # Optional[X]: "none" clears it
        if value is None or (isinstance(value, str) and value.lower() in ("none", "")):
            return None
        rest = [a for a in args if a is not type(None)]
        tp = rest[0] if len(rest) == 1 else str
    if tp is bool:
        if isinstance(value, bool):
            return value
        low = value.lower() if isinstance(value, str) else None
        if low in _TRUE:
            return True
        if low in _FALSE:
            return False
        raise OptionError(f"option {name!r}: expected true or false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        elif isinstance(value, str):
            try:
                number = int(value.replace("_", ""))
            except ValueError:
                raise OptionError(f"option {name!r}: expected a whole number, got {value!r}") from None
        else:
            raise OptionError(f"option {name!r}: expected a whole number, got {value!r}")
        if abs(number) > INT_MAX:  # the compiled core takes signed 64-bit integers
            raise OptionError(f"option {name!r}: {str(value)[:40]} is out of range (at most {INT_MAX})")
        return number
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            real = float(value)
        elif isinstance(value, str):
            try:
                real = float(value)
            except ValueError:
                raise OptionError(f"option {name!r}: expected a number, got {value!r}") from None
        else:
            raise OptionError(f"option {name!r}: expected a number, got {value!r}")
        if not math.isfinite(real):  # 1e400 parses as infinity
            raise OptionError(f"option {name!r}: expected a finite number, got {value!r}")
        return real
    if tp is str or tp is Any:
        if tp is str and not isinstance(value, str):
            raise OptionError(f"option {name!r}: expected text, got {value!r}")
        return value
    raise OptionError(f"option {name!r} has a type ({_type_name(tp)}) that cannot be set")


def make_options(
    searcher: str, options_cls: type, pairs: Mapping[str, object] | Iterable[tuple[str, object]] = ()
) -> Any:
    """An Options instance from ``-o name value`` pairs (strings, parsed) or
    typed values (checked as they are); errors name the option."""
    fields = {f.name: f for f in _fields(options_cls) if f.init}
    types = _types(options_cls)
    values: dict[str, Any] = {}
    items = pairs.items() if isinstance(pairs, Mapping) else pairs
    for raw, value in items:
        raw = str(raw)
        key = raw.replace("-", "_")
        if key not in fields:  # a different case, if only one option matches
            folded = [n for n in fields if n.casefold() == key.casefold()]
            key = folded[0] if len(folded) == 1 else key
        if key not in fields:
            names = [n.replace("_", "-") for n in fields]
            raise OptionError(
                f"searcher {searcher!r} has no option {raw!r}{did_you_mean(raw, names)} "
                f"(options: {', '.join(names) or 'none'})"
            )
        values[key] = _convert(raw, types[key], value)
    return build_options(searcher, options_cls, values)


def build_options(searcher: str, options_cls: type, values: dict[str, Any]) -> Any:
    """Construct Options, turning a validation failure into a one-line OptionError."""
    try:
        return options_cls(**values)
    except (ValueError, TypeError) as exc:
        raise OptionError(f"searcher {searcher!r}: {exc}") from None


def as_dict(options: Any) -> dict[str, Any]:
    """Options as a JSON-friendly dict with command-line names."""
    return {
        f.name.replace("_", "-"): getattr(options, f.name)
        for f in _fields(type(options))
        if f.init
    }


def check(condition: bool, option: str, message: str) -> None:
    """For ``__post_init__``: ``check(self.tmax > 0, "tmax", "must be > 0")``."""
    if not condition:
        raise ValueError(f"option {option!r} {message}")
