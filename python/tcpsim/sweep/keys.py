"""Key paths and canonical TOML of sweeps: writing a scenario dict as canonical TOML
(`canonical_toml`), and parsing and assigning grid key paths such as
``dumbbell.bottleneck.queue.max_th`` or ``flow[*].recovery``."""

from __future__ import annotations

import copy
import datetime as _dt
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from .._toml import toml_key as _toml_key, toml_string as _toml_string


# ============================================================================ TOML output


def _toml_value(v: Any) -> str:
    """A TOML value written inline (tables as ``{ ... }``)."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        text = repr(v)
        return text
    if isinstance(v, str):
        return _toml_string(v)
    if isinstance(v, (_dt.datetime, _dt.date, _dt.time)):
        return v.isoformat()
    if isinstance(v, Mapping):
        if not v:
            return "{}"
        return "{ " + ", ".join(f"{_toml_key(str(k))} = {_toml_value(v[k])}" for k in sorted(v)) + " }"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise TypeError(f"cannot write {type(v).__name__} {v!r} as a TOML value")


def _is_array_of_tables(v: Any) -> bool:
    return isinstance(v, (list, tuple)) and len(v) > 0 and all(isinstance(x, Mapping) for x in v)


def canonical_toml(doc: Mapping[str, Any]) -> str:
    """The canonical TOML text of a scenario given as a dict: keys sorted, tables as
    ``[a.b]`` sections, arrays of tables as ``[[a]]``, no comments. Equal dicts give equal
    text, and ``tomllib.loads(canonical_toml(d)) == d``."""
    lines: List[str] = []

    def table(path: List[str], t: Mapping[str, Any], header: Optional[str]) -> None:
        if header is not None:
            if lines:
                lines.append("")
            lines.append(header)
        plain = [k for k in sorted(t) if not isinstance(t[k], Mapping) and not _is_array_of_tables(t[k])]
        for k in plain:
            lines.append(f"{_toml_key(str(k))} = {_toml_value(t[k])}")
        for k in sorted(t):
            v = t[k]
            sub = path + [_toml_key(str(k))]
            if isinstance(v, Mapping):
                table(sub, v, "[" + ".".join(sub) + "]")
            elif _is_array_of_tables(v):
                for element in v:
                    table(sub, element, "[[" + ".".join(sub) + "]]")

    table([], doc, None)
    return "\n".join(lines) + "\n"

# ============================================================================ key paths


_SEGMENT = re.compile(r'\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))((?:\[(?:\d+|\*)\])*)\s*')
_INDEX = re.compile(r"\[(\d+|\*)\]")


@dataclass(frozen=True)
class _Step:
    name: str
    indexes: Tuple[Union[int, str], ...]  # ints, or "*" for every element


def _parse_path(path: str) -> List[_Step]:
    """``dumbbell.bottleneck.queue.max_th``, ``flow[0].recovery``, ``flow[*].recovery``,
    ``link[2].queue."max_th"`` -> steps. Raises ValueError on bad syntax."""
    steps: List[_Step] = []
    pos = 0
    while True:
        m = _SEGMENT.match(path, pos)
        if not m or m.end() == pos:
            raise ValueError(
                "expected a dotted key path such as 'dumbbell.bottleneck.queue.max_th' "
                "or 'flow[0].recovery'"
            )
        name = m.group(1)
        if name is not None:
            name = json.loads(f'"{name}"')
        else:
            name = m.group(2)
        indexes = tuple(
            "*" if i == "*" else int(i) for i in _INDEX.findall(m.group(3) or "")
        )
        steps.append(_Step(name, indexes))
        pos = m.end()
        if pos == len(path):
            return steps
        if path[pos] != ".":
            raise ValueError(f"unexpected {path[pos]!r} at position {pos}")
        pos += 1


def _type_name(v: Any) -> str:
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int):
        return "an integer"
    if isinstance(v, float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, Mapping):
        return "a table"
    if isinstance(v, (list, tuple)):
        return "a list"
    return type(v).__name__


def _assign(doc: Dict[str, Any], key: str, steps: List[_Step], value: Any) -> None:
    """Sets `key` (parsed as `steps`) in `doc` to a copy of `value`. Missing tables are
    created; lists must exist and indexes be in range. Raises ValueError naming the part
    of the path that does not fit."""
    containers: List[Dict[str, Any]] = [doc]
    walked = ""
    for n, step in enumerate(steps):
        last = n == len(steps) - 1
        here = f"{walked}.{step.name}" if walked else step.name
        nxt: List[Any] = []
        for c in containers:
            if not isinstance(c, dict):
                raise ValueError(f"'{walked}' is {_type_name(c)}, not a table")
            if last and not step.indexes:
                c[step.name] = copy.deepcopy(value)
                continue
            if step.name not in c:
                if step.indexes:
                    raise ValueError(f"the base scenario has no '{here}' list to index")
                c[step.name] = {}
            nxt.append(c[step.name])
        walked = here
        for k, idx in enumerate(step.indexes):
            expanded: List[Any] = []
            final_index = last and k == len(step.indexes) - 1
            for v in nxt:
                if not isinstance(v, list):
                    raise ValueError(f"'{walked}' is {_type_name(v)}, not a list")
                if idx == "*":
                    if not v:
                        raise ValueError(f"'{walked}[*]' matches nothing: the list is empty")
                    chosen = list(range(len(v)))
                else:
                    if idx >= len(v):
                        raise ValueError(
                            f"index {idx} is out of range: '{walked}' has {len(v)} "
                            f"element{'s' if len(v) != 1 else ''}"
                        )
                    chosen = [idx]
                for i in chosen:
                    if final_index:
                        v[i] = copy.deepcopy(value)
                    else:
                        expanded.append(v[i])
            walked += f"[{idx}]"
            nxt = expanded
        containers = nxt
