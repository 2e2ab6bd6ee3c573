"""TOML output, written by `tomli-w` (Python reads TOML with ``tomllib`` but has no
writer). tomli-w does the escaping of every key and value; this module adds only what it
does not offer: a value on one line (for labels and inline tables) and the key alone.

- `dumps`: a whole document (canonical sweep scenarios);
- `toml_key`, `toml_string`, `toml_scalar`, `inline`: pieces, for the readable layout of
  `tcpsim.Scenario.to_toml` (``[section]``, ``[[flow]]``, model tables inline), which
  tomli-w cannot be asked for, and for one-line labels of sweep values.
"""

from __future__ import annotations

import datetime as _dt
from typing import Any, Mapping

import tomli_w

_SUFFIX = " = 0\n"


def dumps(doc: Mapping[str, Any]) -> str:
    """A TOML document (tomli-w's layout)."""
    return tomli_w.dumps(doc)


def toml_key(key: str) -> str:
    """A key as TOML needs it: bare when it can be, else a quoted string."""
    text = tomli_w.dumps({key: 0})
    return text[: -len(_SUFFIX)]


def toml_scalar(value: Any) -> str:
    """A string, integer, float, boolean or date/time as a TOML value."""
    return tomli_w.dumps({"v": value})[len("v = "):-1]


def toml_string(s: str) -> str:
    """A basic TOML string, with quotes, backslashes and control characters escaped."""
    return toml_scalar(str(s))


def inline(value: Any, sort_keys: bool = False) -> str:
    """Any TOML value on one line: tables as ``{ k = v }``, arrays as ``[a, b]``.
    Raises TypeError for what TOML cannot hold."""
    if isinstance(value, Mapping):
        if not value:
            return "{}"
        keys = sorted(value, key=str) if sort_keys else list(value)
        return "{ " + ", ".join(f"{toml_key(str(k))} = {inline(value[k], sort_keys)}"
                                for k in keys) + " }"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(inline(v, sort_keys) for v in value) + "]"
    if isinstance(value, (str, bool, int, float, _dt.date, _dt.time)):
        return toml_scalar(value)
    raise TypeError(f"cannot write {type(value).__name__} {value!r} as a TOML value")
