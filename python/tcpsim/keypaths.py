"""Key paths into scenarios, shared by sweep grids and command-line overrides, and
canonical TOML: writing a scenario dict as canonical TOML
(`canonical_toml`), and parsing and assigning grid key paths such as
``dumbbell.bottleneck.queue.max_th`` or ``flow[*].recovery``."""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Tuple, Union

from ._toml import dumps as _dumps, inline as _inline


# ============================================================================ TOML output


def _toml_value(v: Any) -> str:
    """A TOML value written inline on one line (tables as ``{ ... }``, keys sorted);
    tomli-w writes every scalar."""
    return _inline(v, sort_keys=True)


def _sorted(v: Any) -> Any:
    if isinstance(v, Mapping):
        return {str(k): _sorted(v[k]) for k in sorted(v, key=str)}
    if isinstance(v, (list, tuple)):
        return [_sorted(x) for x in v]
    return v


def canonical_toml(doc: Mapping[str, Any]) -> str:
    """The canonical TOML text of a scenario given as a dict, written by tomli-w with
    every table's keys sorted, so equal dicts give equal text (and equal run ids), and
    ``tomllib.loads(canonical_toml(d)) == d``."""
    try:
        return _dumps(_sorted(doc))
    except TypeError as e:
        raise TypeError(f"cannot write the scenario as TOML: {e}") from None

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


def _strip_line(message: str, name: str) -> str:
    """Drops the core's ", line N" after `name` in a message about generated text (a
    sweep's run, an overridden scenario): its line numbers would mislead."""
    if message.startswith(name):
        return name + re.sub(r"^, line \d+", "", message[len(name):])
    return message


def _related(column: str, key: str) -> bool:
    """Whether grid path `column` and the core's error key `key` lie on one path (one
    is a prefix of the other; ``[*]`` matches any index). A parameter of a model
    (``...queue.max_th``) stands for the whole model: a model's checks relate its
    parameters (max_th > min_th), so every grid key of that model is involved."""
    try:
        a, b = _parse_path(column), _parse_path(key)
    except ValueError:
        return False
    mk = _model_key(b)
    if mk is not None and mk.param is not None:
        b = b[: mk.slot + 1]
    for x, y in zip(a, b):
        if x.name != y.name:
            return False
        for i, j in zip(x.indexes, y.indexes):
            if i != j and i != "*":
                return False
    return True


# ============================================================================ model keys


@dataclass(frozen=True)
class _ModelKey:
    """Where a key path meets a key that selects a model (``cc``, ``queue``, ...)."""

    slot: int  # index of the step naming the model key
    family: Any  # tcpsim.models.Family
    param: Optional[str]  # the model parameter the path sets, if it sets exactly one


def _model_key(steps: List[_Step]) -> Optional[_ModelKey]:
    """``flow[*].cc.alpha`` -> (1, cc, "alpha"); ``dumbbell.bottleneck.queue.max_p`` ->
    (2, queue, "max_p"); ``link[0].queue`` -> (1, queue, None). Model keys come from the
    registry: those of TCP flows directly under ``flow``, those of links under
    ``link``, ``dumbbell`` or ``chain``."""
    from . import models as reg

    names = [s.name for s in steps]
    slots = dict(reg.slot_keys("tcp_flow") if names[0] == "flow" else reg.slot_keys("link"))
    if names[0] == "flow":
        candidates = [1]
    elif names[0] in ("link", "dumbbell", "chain"):
        candidates = range(1, len(names))
    else:
        return None
    for i in candidates:
        if i < len(names) and names[i] in slots and not steps[i].indexes:
            param = names[i + 1] if len(names) == i + 2 and not steps[i + 1].indexes else None
            return _ModelKey(i, slots[names[i]], param)
    return None


def _containers(doc: Any, steps: List[_Step]) -> List[Dict[str, Any]]:
    """The tables `steps` lead to in `doc` (indexes expanded), skipping what does not
    fit (`_assign` reports that)."""
    current = [doc]
    for step in steps:
        nxt = []
        for c in current:
            if not isinstance(c, dict) or step.name not in c:
                continue
            values = [c[step.name]]
            for idx in step.indexes:
                values = [x for v in values if isinstance(v, list)
                          for x in (v if idx == "*" else v[idx:idx + 1])]
            nxt.extend(values)
        current = nxt
    return [c for c in current if isinstance(c, dict)]


def _model_in(table: Dict[str, Any], key: str, family: Any) -> Any:
    """The model `key` of `table` selects: its value, the forward twin's for a missing
    ``*_reverse`` link key, the value of the flow's TCP profile, else the model the core
    gives a table that names none (the family default, or a window control's own
    recovery: `models.default_in`)."""
    from . import models as reg

    if key in table:
        return table[key]
    from_profile = reg.profile_value(table, key)
    if from_profile is not None:
        return from_profile
    if key.endswith("_reverse") and key[: -len("_reverse")] in table:
        return table[key[: -len("_reverse")]]
    return reg.default_in(family, table)


def promote_model_tables(doc: Dict[str, Any], steps: List[_Step]) -> None:
    """Before setting a model parameter (``flow[0].cc.alpha``), turns the model key it
    lies in into a table where the base has a name (``cc = "vegas"`` -> ``{ kind =
    "vegas" }``) or nothing (the model in effect: the family default, or the forward
    twin of a ``*_reverse`` key), so the parameter lands on the model in effect."""
    mk = _model_key(steps)
    if mk is None or mk.param is None or mk.param == "kind":
        return
    key = steps[mk.slot].name
    for table in _containers(doc, steps[: mk.slot]):
        current = table.get(key)
        if isinstance(current, dict):
            continue
        model = _model_in(table, key, mk.family)
        if isinstance(model, dict):
            table[key] = copy.deepcopy(model)
        elif isinstance(model, str):
            table[key] = {"kind": model}


def check_model_key(path: str, steps: List[_Step], base: Dict[str, Any], grid_paths: List[List[_Step]],
                    remedy: str = "vary '{where}' in the grid too") -> Optional[str]:
    """What is wrong with key `path` by the registry, or None: a key a flow does not
    have, a parameter no model of its family has, or one the model the base selects
    does not have (unless `grid_paths`, the other keys set with it, choose that model
    too). `remedy` ends the last message, with ``{where}`` the model key. Values are
    left to the core's validator."""
    from . import models as reg

    names = [s.name for s in steps]
    mk = _model_key(steps)
    if mk is None:
        if names[0] == "flow" and len(steps) == 2 and not steps[1].indexes:
            allowed = list(dict.fromkeys(list(reg.FLOW_COMMON_KEYS) + reg.flow_keys()))
            if names[1] not in allowed:
                hint = reg.closest(names[1], allowed)
                hint = f"; did you mean '{hint}'?" if hint else f"; a flow's keys: {', '.join(allowed)}"
                return f"a flow has no key '{names[1]}'{hint}"
        return None
    fam, param = mk.family, mk.param
    if param is None or param == "kind":
        return None
    owners = [s.name for s in reg.models(fam.id) if s.param(param) is not None]
    if not owners:
        known = list(dict.fromkeys(p for s in reg.models(fam.id) for p in s.param_names))
        hint = reg.closest(param, known)
        hint = f"; did you mean '{hint}'?" if hint else ""
        return f"no {fam.title} has a parameter '{param}'{hint} (`tcpsim models {fam.id}` lists them)"
    slot_names = names[: mk.slot + 1]
    for other in grid_paths:
        other_names = [s.name for s in other]
        if other_names in (slot_names, slot_names + ["kind"]):
            return None  # the grid chooses the model: the core checks each run
    key = names[mk.slot]
    where = ".".join(s.name + "".join(f"[{i}]" for i in s.indexes) for s in steps[: mk.slot + 1])
    for table in _containers(base, steps[: mk.slot]):
        model = _model_in(table, key, fam)
        kind = model.get("kind") if isinstance(model, dict) else model
        if isinstance(kind, str) and kind not in owners:
            return (f"'{param}' is a parameter of {fam.title} {', '.join(repr(o) for o in owners)}, but "
                    f"'{where}' is '{kind}' in the base scenario; set it there, or {remedy.format(where=where)}")
    return None


def drop_stale_params(doc: Dict[str, Any], paths: List[List[_Step]]) -> None:
    """Where `paths` (the keys set together) set a model's kind
    (``dumbbell.bottleneck.queue.kind``), drops the parameters of `doc`'s model that
    the chosen kind does not have, so that kind and other parameters vary
    independently (queue kind x queue limit over a RED base: ``min_th`` goes with
    ``red`` only). Parameters `paths` set are kept (and checked by the core).

    Likewise where `paths` set a flow's source ``type`` (``flow[0].type = "tfrc"``): the
    base flow's keys the chosen source does not have (a TCP flow's ``recovery``,
    ``receiver``, ``max_window`` under TFRC) are dropped, so that one case of a sweep
    can turn a TCP flow into another kind of source."""
    from . import models as reg

    _drop_stale_flow_keys(doc, paths)
    for steps in paths:
        mk = _model_key(steps)
        if mk is None or mk.param != "kind":
            continue
        head = steps[: mk.slot + 1]
        from_keys = {o[mk.slot + 1].name for o in paths
                     if len(o) == mk.slot + 2 and o[: mk.slot + 1] == head}
        for table in _containers(doc, steps[: mk.slot]):
            model = table.get(steps[mk.slot].name)
            if not isinstance(model, dict) or not isinstance(model.get("kind"), str):
                continue
            spec = reg.find(mk.family.id, model["kind"])
            if spec is None:
                continue
            keep = set(spec.param_names) | {"kind"} | from_keys
            for name in [p for p in model if p not in keep]:
                del model[name]


def _drop_stale_flow_keys(doc: Dict[str, Any], paths: List[List[_Step]]) -> None:
    """`drop_stale_params` for flows whose ``type`` `paths` set: keeps the keys every
    flow has (the registry's common keys), the chosen source's parameters and the keys
    of the families it selects, and any key `paths` set on the same flows."""
    from . import models as reg

    sources = {s.name: s for s in reg.models("agent")}
    for steps in paths:
        if len(steps) != 2 or steps[0].name != "flow" or steps[1].name != "type" or steps[1].indexes:
            continue
        head = steps[:1]
        from_keys = {o[1].name for o in paths if len(o) == 2 and o[:1] == head}
        for flow in _containers(doc, head):
            source = sources.get(flow.get("type"))
            if source is None:
                continue  # an unknown type: the core names it
            keep = set(reg.FLOW_COMMON_KEYS) | set(source.param_names) | set(source.relations.selects) | from_keys
            for key in [k for k in flow if k not in keep]:
                del flow[key]
