"""The registry of models, as the core declares it.

Every model — traffic agent (a flow's ``type``), congestion control (``cc``), loss
recovery (``recovery``), TCP receiver (``receiver``), queue discipline (``queue``), link
error model (``error_model``) — is declared once, in its own Rust file, with its name,
summary, source and parameters (type, unit, default, range, one line of doc, source).
This module reads that declaration through ``tcpsim._core.models_json()``; nothing here
repeats a model name, a parameter or a default. `tcpsim models`, the parameter tables in
``docs/models/`` (`tcpsim.docgen`), the scenario classes (`tcpsim.scenario`) and the
sweep key checks (`tcpsim.sweep`) are built on it, so a model added to the core appears
in all of them without an edit here.

    >>> from tcpsim import models
    >>> "red" in [m.name for m in models.models("queue")]
    True
    >>> models.get("queue", "red").param("max_p").default
    0.1
    >>> Model("red", limit="100p", min_th=20)       # a model for a queue = ... key
    Model('red', limit='100p', min_th=20)

Parameter values keep the scenario file's conventions: quantities with units are strings
(``"40ms"``, ``"10Mbps"``, ``"250p"``), unit-less ones numbers. In the JSON defaults
(`Param.default`) times are seconds, rates bit/s and sizes bytes; `Param.default_toml`
is the default as a scenario file writes it.
"""

from __future__ import annotations

import functools
import json
from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Mapping, Optional, Tuple

from ._core import ScenarioError, closest_name, model_markdown, models_json

__all__ = [
    "Family",
    "Param",
    "ModelSpec",
    "Model",
    "UnknownModelError",
    "families",
    "family",
    "models",
    "find",
    "get",
    "lookup",
    "closest",
    "registry_json",
]


class UnknownModelError(ScenarioError):
    """A model name or family that is not registered; the message names the closest
    registered one. A `tcpsim.ScenarioError` (so a `ValueError`)."""


# --------------------------------------------------------------------------- records


@dataclass(frozen=True)
class Family:
    """A kind of model: `id` as used by `tcpsim models` and docs markers ("agent", "cc",
    "recovery", "receiver", "queue", "error_model"), the scenario `key` that selects one
    ("type" for agents), a `title` in plain words, the `scope` where the key is written
    ("flow", "tcp_flow" or "link") and the `default` model (None: no model when the key
    is left out)."""

    id: str
    key: str
    title: str
    scope: str
    default: Optional[str]


@dataclass(frozen=True)
class Param:
    """One parameter of a model, as the core declares it."""

    name: str
    #: "number", "integer", "true/false", "time", "size", "rate", "limit", "choice",
    #: "list of [start, end] times", ...
    type: str
    choices: Tuple[str, ...]
    #: unit for docs ("packets", "s", "B", "bit/s", "" for none)
    unit: str
    #: JSON default: seconds for times, bytes for sizes, bit/s for rates, "50p" for
    #: limits; None when the parameter is unset by default (its doc says what that means)
    default: Any
    #: the default as written in a scenario file ('"200ms"', '5', ''), '' when unset
    default_toml: str
    #: valid range, inclusive, in the parameter's unit; None where any value is valid
    min: Optional[float]
    max: Optional[float]
    doc: str
    source: str
    #: the scenario must give it (no default); `example_toml` is a valid value
    required: bool = False
    example_toml: str = ""

    @property
    def type_text(self) -> str:
        """The type as docs write it: choices spelled out."""
        if self.type == "choice":
            quoted = [f'"{c}"' for c in self.choices]
            # "a", "b" or "c", as the core writes it (no `|`, which splits a Markdown cell)
            return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
        return self.type

    def range_text(self) -> str:
        """ "0 – 1" style range, '' without one."""
        if self.min is None or self.max is None:
            return ""
        return f"{_number(self.min)} – {_number(self.max)}"


@dataclass(frozen=True)
class Relations:
    """What a model says of the models of other families (the core's `Relations`, read
    from its spec: no pairing is written by name on the Python side)."""

    #: a window control: the loss recovery a flow gets when it names none (None: the
    #: family default)
    default_recovery: Optional[str] = None
    #: a loss recovery that reads SACK blocks: the flow needs a receiver with sack = true
    reads_sack: bool = False
    #: works only on an ECN-capable flow (ecn = true)
    needs_ecn: bool = False
    #: a window control that reads the echo option: the flow needs a receiver with
    #: echo = true (the default)
    reads_echo: bool = False
    #: a traffic source: the keys of the families a flow of it selects models of
    #: (TCP: "cc", "recovery", "receiver")
    selects: Tuple[str, ...] = ()
    #: the relations in words, as the core writes them (for `tcpsim models` and docs)
    text: Tuple[str, ...] = ()


@dataclass(frozen=True)
class ModelSpec:
    """A registered model: its family, name, summary, source, parameters and relations
    to other models."""

    family: Family
    name: str
    summary: str
    source: str
    params: Tuple[Param, ...]
    relations: Relations = Relations()

    def param(self, name: str) -> Optional[Param]:
        return next((p for p in self.params if p.name == name), None)

    @property
    def param_names(self) -> List[str]:
        return [p.name for p in self.params]

    @property
    def ref(self) -> str:
        """``family/name``, as in docs markers: ``queue/red``."""
        return f"{self.family.id}/{self.name}"

    def markdown_table(self) -> str:
        """The Markdown parameter table the core writes for this model."""
        return model_markdown(self.family.id, self.name)

    def defaults(self) -> Dict[str, Any]:
        """``{parameter: default}`` as TOML-ready values (strings with units for
        quantities), for the parameters that have a default."""
        return {p.name: _toml_literal(p.default_toml) for p in self.params if p.default_toml != ""}

    def to_json(self) -> Dict[str, Any]:
        """This model's entry of the registry JSON."""
        return next(m for m in registry_json()["models"]
                    if m["family"] == self.family.key and m["name"] == self.name)


# --------------------------------------------------------------------------- the registry


@functools.lru_cache(maxsize=None)
def _registry_text() -> str:
    return models_json()


def registry_json() -> Dict[str, Any]:
    """The registry as the core gives it (a fresh copy): ``{"families": [...],
    "models": [...], "flow_common_keys": [...]}``."""
    return json.loads(_registry_text())


@functools.lru_cache(maxsize=None)
def _load() -> Tuple[Tuple[Family, ...], Tuple[ModelSpec, ...]]:
    doc = registry_json()
    fams = tuple(Family(f["id"], f["key"], f["title"], f["scope"], f["default"]) for f in doc["families"])
    by_key = {f.key: f for f in fams}
    specs = []
    for m in doc["models"]:
        params = tuple(
            Param(
                name=p["name"], type=p["type"], choices=tuple(p.get("choices") or ()),
                unit=p["unit"], default=p["default"], default_toml=p["default_toml"],
                min=p["min"], max=p["max"], doc=p["doc"], source=p["source"],
                required=bool(p.get("required")), example_toml=p.get("example_toml") or "",
            )
            for p in m["params"]
        )
        r = m.get("relations") or {}
        relations = Relations(default_recovery=r.get("default_recovery"), reads_sack=bool(r.get("reads_sack")),
                              needs_ecn=bool(r.get("needs_ecn")), reads_echo=bool(r.get("reads_echo")),
                              selects=tuple(r.get("selects") or ()),
                              text=tuple(m.get("relations_text") or ()))
        specs.append(ModelSpec(by_key[m["family"]], m["name"], m["summary"], m["source"], params, relations))
    return fams, tuple(specs)


#: Other words accepted for a family (``tcpsim models flow tcp``).
_FAMILY_ALIASES = {
    "type": "agent", "flow": "agent", "agents": "agent", "source": "agent",
    "congestion_control": "cc", "congestion-control": "cc",
    "loss_recovery": "recovery", "queue_discipline": "queue", "aqm": "queue", "qdisc": "queue",
    "queues": "queue", "receivers": "receiver", "error": "error_model",
    "error-model": "error_model", "errors": "error_model",
}


def families(with_models: bool = False) -> List[Family]:
    """Every family in the core's order; with `with_models`, only those that have at
    least one registered model."""
    fams, specs = _load()
    if with_models:
        used = {s.family.id for s in specs}
        return [f for f in fams if f.id in used]
    return list(fams)


def family(name: str) -> Family:
    """The family called `name` (its id, its scenario key or a common alias such as
    "flow" or "aqm"); raises `UnknownModelError` naming the closest one."""
    fams, _ = _load()
    word = name.strip().lower()
    word = _FAMILY_ALIASES.get(word, word)
    for f in fams:
        if word in (f.id, f.key):
            return f
    ids = [f.id for f in fams]
    hint = closest(word, ids + list(_FAMILY_ALIASES))
    hint = f"; did you mean '{_FAMILY_ALIASES.get(hint, hint)}'?" if hint else ""
    raise UnknownModelError(f"unknown model family '{name}'{hint} Families: {', '.join(ids)}")


def is_family(name: str) -> bool:
    try:
        family(name)
        return True
    except UnknownModelError:
        return False


def models(family_name: Optional[str] = None) -> List[ModelSpec]:
    """Every registered model, in registry order (optionally of one family)."""
    _, specs = _load()
    if family_name is None:
        return list(specs)
    fam = family(family_name)
    return [s for s in specs if s.family == fam]


def find(family_name: str, name: str) -> Optional[ModelSpec]:
    """The model `name` of a family, or None."""
    return next((s for s in models(family_name) if s.name == name), None)


def lookup(name: str) -> List[ModelSpec]:
    """Every model called `name`, whatever its family ("reno" is both a congestion
    control and a loss recovery)."""
    return [s for s in models() if s.name == name]


def get(family_name: Optional[str], name: str) -> ModelSpec:
    """The model `name` (of `family_name`, if given); raises `UnknownModelError` naming
    the closest registered model when there is none, or when `name` is ambiguous
    across families and no family is given."""
    if family_name is not None:
        spec = find(family_name, name)
        if spec is not None:
            return spec
        fam = family(family_name)
        raise UnknownModelError(unknown_model_message(name, fam))
    found = lookup(name)
    if len(found) == 1:
        return found[0]
    if not found:
        raise UnknownModelError(unknown_model_message(name))
    options = ", ".join(f"{s.family.id} ({s.family.title})" for s in found)
    raise UnknownModelError(f"'{name}' names models of several families: {options}; say which")


def unknown_model_message(name: str, fam: Optional[Family] = None) -> str:
    """"unknown queue discipline 'rde'; did you mean 'red'? Registered: ..." """
    pool = models(fam.id) if fam is not None else models()
    names = list(dict.fromkeys(s.name for s in pool))
    what = fam.title if fam is not None else "model"
    hint = closest(name, names)
    if hint is not None and fam is None:
        owners = ", ".join(s.family.title for s in lookup(hint))
        hint_text = f"; did you mean '{hint}' ({owners})?"
    else:
        hint_text = f"; did you mean '{hint}'?" if hint else ""
    elsewhere = [o for o in lookup(name) if fam is not None and o.family != fam]
    if elsewhere:
        hint_text = "; it is a " + " and a ".join(f"{o.family.title} [{o.family.id}]" for o in elsewhere) + "."
    registered = f"{' R' if hint_text else '; r'}egistered: {', '.join(names)}"
    return f"unknown {what} '{name}'{hint_text}{registered}"


def closest(word: str, candidates: Iterable[str]) -> Optional[str]:
    """The candidate nearest to `word` by edit distance, if it is near enough (at most
    2 edits, or a third of the candidate's length): the core's scenario reader rule
    (``scenario/reader.rs``, ``closest``, with the strsim crate), called from here so
    Python and the core suggest the same names."""
    return closest_name(word, [str(c) for c in candidates])


# --------------------------------------------------------------------------- Model


class Model:
    """A registered model with parameters, for the keys that select one: ``cc``,
    ``recovery``, ``receiver`` (TCP flows), ``queue``, ``queue_reverse`` (links) and the
    other model keys of the registry.

        Model("red", limit="100p", min_th=20)      # queue = { kind = "red", ... }
        Model("delayed", timeout="40ms")           # receiver = { kind = "delayed", ... }
        Model("reno", family="cc")                 # "reno" is also a loss recovery

    The name must be registered, and every parameter a parameter of that model
    (`TypeError` naming the closest one otherwise); values are checked by the core when
    the scenario is validated. Parameters read and write as attributes (an unset one
    reads ``None``; setting ``None`` unsets it). `family` is needed only to tell apart
    models of the same name in different families; where the model is used decides.

    A plain name (``cc="vegas"``) or a dict (``{"kind": "vegas", "alpha": 2}``) can be
    given instead wherever a `Model` is accepted; a `Model` without parameters compares
    equal to its name, and any `Model` to its dict.
    """

    #: For helper subclasses (`tcpsim.RED`): the fixed family id and model name.
    _fixed: Optional[Tuple[str, str]] = None

    def __init__(self, kind: str, /, *, family: Optional[str] = None, **params: Any):
        if not isinstance(kind, str):
            raise TypeError(f"Model(kind, ...): kind must be a model name (a string), not {kind!r}")
        specs = _candidates(kind, family)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_family", specs[0].family.id if family is not None else None)
        object.__setattr__(self, "_specs", specs)
        object.__setattr__(self, "_params", {})
        for name, value in params.items():
            self._check_name(name, TypeError)
            if value is not None:
                self._params[name] = value

    # ------------------------------------------------------------------ access

    @property
    def kind(self) -> str:
        """The model's registered name."""
        return self._kind

    @property
    def family(self) -> Optional[str]:
        """The family id given (or fixed by a helper class), else None."""
        return self._family

    @property
    def params(self) -> Dict[str, Any]:
        """The parameters that are set (a copy)."""
        return dict(self._params)

    @property
    def specs(self) -> List[ModelSpec]:
        """The registry entries this model may be (one, unless the name is shared by
        several families and no family was given)."""
        return list(self._specs)

    def _names(self) -> List[str]:
        return list(dict.fromkeys(n for s in self._specs for n in s.param_names))

    def _check_name(self, name: str, error: type) -> None:
        names = self._names()
        if name in names:
            return
        what = " or ".join(f"{s.family.title} '{s.name}'" for s in self._specs)
        hint = closest(name, names)
        if hint:
            raise error(f"{what} has no parameter '{name}'; did you mean '{hint}'?")
        listed = ", ".join(names) if names else "none"
        raise error(f"{what} has no parameter '{name}'; its parameters: {listed}")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        self._check_name(name, AttributeError)
        return self._params.get(name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        if name in ("kind", "family", "params", "specs"):
            raise AttributeError(f"{type(self).__name__}.{name} cannot be set; build a new model")
        self._check_name(name, AttributeError)
        if value is None:
            self._params.pop(name, None)
        else:
            self._params[name] = value

    def __delattr__(self, name: str) -> None:
        self.__setattr__(name, None)

    # ------------------------------------------------------------------ conversion

    def to_dict(self) -> Dict[str, Any]:
        """The model as a scenario table: ``{"kind": name, **parameters}``, parameters in
        the registry's order."""
        order = {n: i for i, n in enumerate(self._names())}
        return {"kind": self._kind, **{k: self._params[k] for k in sorted(self._params, key=order.__getitem__)}}

    @classmethod
    def from_dict(cls, data: Dict[str, Any], family: Optional[str] = None) -> "Model":
        """A model from a scenario table ``{"kind": ..., ...}`` (`KeyError` without
        ``kind``). The helper class of the kind (`tcpsim.RED`, ...) is used if one exists."""
        data = dict(data)
        kind = data.pop("kind")
        helper = _HELPERS.get((family, kind)) if family is not None else None
        if helper is not None:
            return helper(**data)
        return Model(kind, family=family, **data)

    def __repr__(self) -> str:
        args = [] if self._fixed else [repr(self._kind)]
        if self._family is not None and not self._fixed:
            args.append(f"family={self._family!r}")
        args += [f"{k}={v!r}" for k, v in self.to_dict().items() if k != "kind"]
        name = type(self).__name__
        return f"{name}({', '.join(args)})"

    def __eq__(self, other: Any) -> Any:
        if isinstance(other, str):
            return not self._params and self._kind == other
        if isinstance(other, dict):
            return self.to_dict() == other
        if isinstance(other, Model):
            if self._family and other._family and self._family != other._family:
                return False
            return self._kind == other._kind and self._params == other._params
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable


def _candidates(kind: str, family_name: Optional[str]) -> List[ModelSpec]:
    if family_name is not None:
        return [get(family_name, kind)]
    found = lookup(kind)
    if not found:
        raise UnknownModelError(unknown_model_message(kind))
    return found


#: (family id, name) -> helper class, filled by `helper`.
_HELPERS: Dict[Tuple[Optional[str], str], type] = {}


def helper(family_id: str, name: str, class_name: str, doc: str = "") -> type:
    """A `Model` subclass for one registered model, called with its parameters only:
    ``helper("queue", "red", "RED")(limit="100p")``. Its docstring lists the parameters
    with their defaults from the registry."""
    spec = get(family_id, name)

    def __init__(self, **params: Any) -> None:
        Model.__init__(self, name, family=family_id, **params)

    cls = type(class_name, (Model,), {
        "__init__": __init__,
        "_fixed": (family_id, name),
        "__doc__": (doc + "\n\n" if doc else "") + params_doc(spec),
        "__module__": "tcpsim.scenario",
    })
    _HELPERS[(family_id, name)] = cls
    return cls


def params_doc(spec: ModelSpec, indent: str = "    ") -> str:
    """A docstring section listing a model's parameters from the registry."""
    if not spec.params:
        return f"{spec.family.title} '{spec.name}' has no parameters."
    lines = [f"Parameters of {spec.family.title} '{spec.name}' (registry; `tcpsim models {spec.family.id} {spec.name}`):", ""]
    for p in spec.params:
        default = p.default_toml if p.default_toml else "unset"
        unit = f", {p.unit}" if p.unit else ""
        lines.append(f"{indent}{p.name} ({p.type_text}{unit}; default {default}): {p.doc}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- helpers


def _number(x: float) -> str:
    """1e12 -> '1000000000000', 0.5 -> '0.5' (the core's way of writing numbers)."""
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    return repr(float(x))


def _toml_literal(text: str) -> Any:
    """A default as the core writes it in TOML -> the Python value."""
    import tomllib

    return tomllib.loads(f"v = {text}")["v"]


def slot_keys(scope: str) -> List[Tuple[str, Family]]:
    """The keys that select a model in a table of `scope` ("tcp_flow" or "link"), with
    their family: ``[("queue", queue), ("queue_reverse", queue), ...]`` for links. A link
    key has a ``_reverse`` twin for the other direction. Only families with a
    registered model are listed."""
    out: List[Tuple[str, Family]] = []
    for f in families(with_models=True):
        if f.scope != scope:
            continue
        out.append((f.key, f))
        if scope == "link":
            out.append((f"{f.key}_reverse", f))
    return out


def _name_of(choice: Any) -> Optional[str]:
    """The model a scenario value names: ``"vegas"`` or ``{"kind": "vegas", ...}``."""
    kind = choice.get("kind") if isinstance(choice, Mapping) else choice
    return kind if isinstance(kind, str) else None


def default_in(fam: Family, table: Mapping[str, Any]) -> Optional[str]:
    """The model a scenario table that names none of family `fam` gets, given what else
    it names: for a loss recovery, the window control's own pairing (its
    ``relations.default_recovery``: Vegas' recovery for a Vegas flow, Sack1 for FAST),
    else the family's default (None: no model); a flow's TCP profile (``profile = ...``)
    comes first. As the core's scenario reader decides."""
    from_profile = profile_value(table, fam.key)
    if from_profile is not None:
        return _name_of(from_profile)
    if fam.key == "recovery":
        cc_family = family("cc")
        cc = find(cc_family.id, _name_of(table.get(cc_family.key, cc_family.default)) or "")
        if cc is not None and cc.relations.default_recovery:
            return cc.relations.default_recovery
    return fam.default


@dataclass(frozen=True)
class Profile:
    """A TCP profile (``profile = "linux"`` in a TCP ``[[flow]]``): defaults for the flow's
    keys, as the core declares them (``tcp/profile.rs``)."""
    name: str
    summary: str
    source: str
    #: The flow ``type`` it applies to.
    type: str
    #: (flow key, value as scenario text, why) for each key the profile sets.
    defaults: Tuple[Tuple[str, str, str], ...]

    def markdown_table(self) -> str:
        rows = ["| key | value | why |", "|---|---|---|"]
        for key, value, why in self.defaults:
            rows.append(f"| `{key}` | `{value}` | {why.replace('|', chr(92) + '|')} |")
        return "\n".join(rows) + "\n"


@functools.lru_cache(maxsize=None)
def profiles() -> Tuple[Profile, ...]:
    """Every TCP profile, in the core's order."""
    return tuple(
        Profile(p["name"], p["summary"], p["source"], p["type"],
                tuple((d["key"], d["value_toml"], d["why"]) for d in p["defaults"]))
        for p in registry_json().get("profiles", ())
    )


def find_profile(name: str) -> Optional[Profile]:
    """The TCP profile called `name`, if any."""
    return next((p for p in profiles() if p.name == name), None)


def profile_value(table: Mapping[str, Any], key: str) -> Any:
    """The value the TCP profile a flow table names (``profile = "linux"``) gives `key`
    when the table does not write it, as a Python value; None when there is none."""
    if key in table or not isinstance(table.get("profile"), str):
        return None
    profile = find_profile(table["profile"])
    text = next((value for k, value, _ in profile.defaults if k == key), None) if profile else None
    return None if text is None else _toml_literal(text)


#: Keys of every ``[[flow]]`` that are not parameters of its agent, as the core's scenario
#: reader lists them (``FLOW_COMMON_KEYS`` in scenario/parse.rs, given with the registry).
FLOW_COMMON_KEYS: Tuple[str, ...] = tuple(registry_json()["flow_common_keys"])


def flow_keys() -> List[str]:
    """The keys a ``[[flow]]`` table may have besides the common ones: each source's
    parameters and the keys of the families it selects (``relations.selects``)."""
    keys: List[str] = []
    for source in models("agent"):
        keys += source.param_names + list(source.relations.selects)
    return list(dict.fromkeys(keys))

