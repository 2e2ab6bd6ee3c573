"""Scenarios as Python objects: build, load, save, validate and run them.

Each class mirrors one table of the scenario file format (``docs/scenario.md``), field
for field, so anything a file can say a `Scenario` can say, and back::

    from tcpsim import Scenario, Dumbbell, LinkSpec, RED, DropTail, TcpFlow, Monitor

    sc = Scenario(
        duration="20s",
        dumbbell=Dumbbell(
            pairs=2,
            bottleneck=LinkSpec("10Mbps", "20ms", queue=RED(limit="100p", min_th=20, max_th=60)),
            access=LinkSpec("100Mbps", "2ms"),
        ),
        flows=[TcpFlow("s{i}", "d{i}", name="tcp{i}", count=2, max_window=1000)],
        monitor=Monitor(interval="100ms"),
    )
    res = sc.run()
    Scenario.load(sc.to_toml()) == sc        # True

Conventions:

- Quantities with units are strings exactly as in the file: ``"10Mbps"``, ``"40ms"``,
  ``"1000B"``, ``"250p"``. Unit-less quantities (counts, packets, probabilities) are
  numbers.
- The models and their parameters come from the core's registry (`tcpsim.models`):
  each flow class (`TcpFlow`, `CbrFlow`, one per registered agent) has one field per
  parameter of its agent, links one field per model key (``queue``, ``queue_reverse``,
  ...), and a model key takes a name (``cc="reno"``), a dict
  (``{"kind": "delayed", "timeout": "40ms"}``) or a `Model` (``Model("red", min_th=20)``,
  `RED`, `DropTail`). A model added to the core is accepted here without an edit.
  Names are checked on construction and assignment (with the closest valid name);
  values by the core when the scenario is validated.
- A field left at ``None`` (or an empty list) is *not written* to the TOML, so the Rust
  core's default applies. The defaults live in one place, the core's registry (``tcpsim
  models``); this module never repeats them.
- ``from`` is a Python keyword, so links and flows call it ``from_`` (the TOML key stays
  ``from``).
- Checking is done by the core: `Scenario.validate` turns the scenario into TOML and
  asks the same validator the file path uses, so the rules and the wording of errors are
  identical. Errors name the Python attribute path (``flows[1].rate``) as well as the
  TOML key (``flow[1].rate``).
"""

from __future__ import annotations

import dataclasses
import functools
import keyword
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Dict, List, Optional, Sequence, Union

from ._toml import toml_key as _toml_key, toml_scalar as _toml_scalar
from ._core import ScenarioError, validate_toml
from . import models as _models
from .models import Model
from .api import read_scenario
from .api import run as _run

try:
    import tomllib
except ImportError:  # Python < 3.11: the same parser, packaged as "tomli"
    import tomli as tomllib  # type: ignore[no-redef]

Number = Union[int, float]
Names = Union[str, List[str], None]

__all__ = [
    "Scenario",
    "Link",
    "LinkSpec",
    "Model",
    "DropTail",
    "RED",
    "TcpFlow",
    "CbrFlow",
    "flow_class",
    "Dumbbell",
    "Chain",
    "Monitor",
    "Trace",
    "Routing",
    "Event",
]


# --------------------------------------------------------------------------- base


class _Table:
    """Common behaviour of the scenario tables: TOML key mapping, dict conversion, a
    repr that shows only the fields that are set, and attribute names checked on
    assignment (a misspelt field raises instead of being silently ignored)."""

    @classmethod
    def _toml_key(cls, name: str) -> str:
        # Python keywords get a trailing underscore: from_ is the TOML key "from".
        if name.endswith("_") and keyword.iskeyword(name[:-1]):
            return name[:-1]
        return name

    @classmethod
    def _field_for_key(cls) -> Dict[str, str]:
        return {cls._toml_key(f.name): f.name for f in dataclasses.fields(cls)}

    def __setattr__(self, name: str, value: Any) -> None:
        if not name.startswith("_") and name not in self.__dataclass_fields__:  # type: ignore[attr-defined]
            names = [f.name for f in dataclasses.fields(self)]
            hint = _models.closest(name, names)
            hint = f"; did you mean '{hint}'?" if hint else f"; its fields: {', '.join(names)}"
            raise AttributeError(f"{type(self).__name__} has no field '{name}'{hint}")
        object.__setattr__(self, name, value)

    def _is_set(self, f: dataclasses.Field) -> bool:
        value = getattr(self, f.name)
        if f.default is not dataclasses.MISSING:
            return value != f.default
        if f.default_factory is not dataclasses.MISSING:  # type: ignore[misc]
            return value != f.default_factory()  # type: ignore[misc]
        return True  # a required field

    def _set_fields(self):
        return [(f.name, getattr(self, f.name)) for f in dataclasses.fields(self) if self._is_set(f)]

    def __repr__(self) -> str:
        parts = ", ".join(f"{name}={value!r}" for name, value in self._set_fields())
        return f"{type(self).__name__}({parts})"

    def to_dict(self) -> Dict[str, Any]:
        """The table as it appears in TOML (TOML key names; unset fields left out)."""
        out: Dict[str, Any] = {}
        for name, value in self._set_fields():
            if value is None:
                continue
            out[self._toml_key(name)] = _plain(value)
        return out

    @classmethod
    def _from_dict(cls, data: Dict[str, Any], path: str, **converted: Any):
        known = cls._field_for_key()
        kwargs: Dict[str, Any] = {}
        for key, value in data.items():
            if key in converted:
                continue
            if key not in known:
                raise _toml_error(f"{path}.{key}", _unknown_key(key, sorted(known)))
            kwargs[known[key]] = value
        kwargs.update({known[k]: v for k, v in converted.items()})
        for f in dataclasses.fields(cls):
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING  # type: ignore[misc]
            if required and f.name not in kwargs:
                raise _toml_error(path, f"missing key '{cls._toml_key(f.name)}'")
        return cls(**kwargs)


def _unknown_key(key: str, allowed: List[str]) -> str:
    """The core's wording: "unknown key 'x'; did you mean 'y'? Expected one of ..."."""
    hint = _models.closest(key, allowed)
    hint = f"; did you mean '{hint}'?" if hint else ";"
    return f"unknown key '{key}'{hint} " + ("Expected" if hint.endswith("?") else "expected") + \
        " one of " + ", ".join(f"'{k}'" for k in allowed)


def _plain(value: Any) -> Any:
    """Objects to TOML-shaped dicts/lists (models become tables)."""
    if isinstance(value, (_Table, Model)):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _listify(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


def _registry_table(
    class_name: str,
    base: type,
    required: Sequence[str],
    optional: Sequence[str],
    doc: str,
) -> type:
    """A scenario table class whose fields come (partly) from the registry: `required`
    positional fields, then `optional` keyword fields, all ``None`` (unset) by default.
    Unknown keywords raise `TypeError` naming the closest field."""
    fields: List[Any] = [(n, Any) for n in required]
    fields += [(n, Optional[Any], dataclasses.field(default=None)) for n in optional]
    cls = dataclasses.make_dataclass(class_name, fields, bases=(base,), repr=False)
    cls.__module__ = __name__
    cls.__qualname__ = class_name
    cls.__doc__ = doc
    generated = cls.__init__
    names = list(required) + list(optional)

    @functools.wraps(generated)
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        for key in kwargs:
            if key not in names:
                hint = _models.closest(key, names)
                hint = f"; did you mean '{hint}'?" if hint else f"; its fields: {', '.join(names)}"
                raise TypeError(f"{class_name}() got an unexpected keyword argument '{key}'{hint}")
        generated(self, *args, **kwargs)

    cls.__init__ = __init__  # type: ignore[misc]
    return cls


# --------------------------------------------------------------------------- models


ModelLike = Union[str, Dict[str, Any], Model]

DropTail = _models.helper(
    "queue", "droptail", "DropTail",
    '``queue = { kind = "droptail", ... }``: tail drop at `limit` (``"50p"``, ``"30000B"``).\n\n'
    "With a limit of N packets the queue holds N - 1 waiting packets plus the one being\n"
    "transmitted (ns-2 semantics; see docs/models/droptail.md).",
)
RED = _models.helper(
    "queue", "red", "RED",
    '``queue = { kind = "red", ... }``: ns-2.35 ``Queue/RED``.\n\n'
    "Thresholds are in packets (numbers); `limit` and `mean_packet_size` carry units.\n"
    '`min_th`, `max_th` and `weight` may be ``"auto"``: computed from the link as ns-2.35\n'
    "does by default (``RED(min_th=\"auto\", max_th=\"auto\", weight=\"auto\")``).\n"
    "Give `max_p` or `linterm` (max_p = 1/linterm), not both. Every unset parameter takes\n"
    "the core's default (docs/models/red.md).",
)

#: Keys that select a model, per table scope, with their family (from the registry).
_LINK_SLOTS = dict(_models.slot_keys("link"))
_TCP_SLOTS = dict(_models.slot_keys("tcp_flow"))
_SLOT_KEYS = set(_LINK_SLOTS) | set(_TCP_SLOTS)


def _model_from(value: Any, fam: _models.Family, path: str) -> ModelLike:
    """A model key's value read from a scenario dict: a registered name (kept as the
    string) or a table (a `Model`); names, kinds and parameter names checked against
    the registry."""
    if isinstance(value, str):
        if _models.find(fam.id, value) is None:
            raise _toml_error(path, _models.unknown_model_message(value, fam))
        return value
    if not isinstance(value, dict):
        raise _toml_error(path, f'expected the name of a {fam.title} (a string such as "{_example_name(fam)}") or a table with kind = ...')
    if "kind" not in value:
        raise _toml_error(path, "missing key 'kind'")
    spec = _models.find(fam.id, value["kind"]) if isinstance(value["kind"], str) else None
    if spec is None:
        raise _toml_error(f"{path}.kind", _models.unknown_model_message(str(value["kind"]), fam))
    for key in value:
        if key != "kind" and spec.param(key) is None:
            raise _toml_error(f"{path}.{key}", _unknown_key(key, ["kind"] + spec.param_names))
    return Model.from_dict(value, fam.id)


def _example_name(fam: _models.Family) -> str:
    return fam.default or _models.models(fam.id)[0].name


def _models_from(data: Dict[str, Any], path: str, slots: Dict[str, _models.Family]) -> Dict[str, ModelLike]:
    return {key: _model_from(data[key], fam, f"{path}.{key}") for key, fam in slots.items() if key in data}


def _check_model(value: Any, fam: _models.Family, path: str) -> None:
    """Catches objects the TOML writer cannot express in a model key (the core checks
    names and values)."""
    if value is None or isinstance(value, (str, dict, Model)):
        return
    helpers = [c.__name__ + "(...)" for (f, _), c in _models._HELPERS.items() if f == fam.id]
    raise _error(path, f'expected a {fam.title}: a name such as "{_example_name(fam)}", a dict '
                       f'{{"kind": "{_example_name(fam)}", ...}} or Model(...)'
                       + (f" ({', '.join(helpers)})" if helpers else "") + f", got {value!r}")


# --------------------------------------------------------------------------- links


class _LinkTable(_Table):
    """Links and link templates: the model keys of links (``queue``, ``queue_reverse``
    and any other the registry has) take a name, a dict or a `Model`."""

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str):
        return cls._from_dict(data, path, **_models_from(data, path, _LINK_SLOTS))

    def _check_models(self, path: str) -> None:
        for key, fam in _LINK_SLOTS.items():
            _check_model(getattr(self, key), fam, f"{path}.{key}")


_LINK_MODEL_DOC = (
    "Model keys (from the registry): "
    + ", ".join(f"`{k}` ({fam.title})" for k, fam in _LINK_SLOTS.items())
    + '. Each takes a name (``"red"``), a dict (``{"kind": "red", "limit": "100p"}``) or a\n'
    "`Model` (``RED(limit=\"100p\")``); a ``*_reverse`` key serves the reverse direction and\n"
    "defaults to its forward twin."
)

LinkSpec = _registry_table(
    "LinkSpec", _LinkTable, ["rate", "delay"], list(_LINK_SLOTS),
    "Rate, delay and queues of a generated link (`Dumbbell` bottleneck and access).\n\n"
    "`queue` is the queue of the first-named → second-named direction and, unless\n"
    "`queue_reverse` is given, of the reverse direction too.\n\n" + _LINK_MODEL_DOC,
)

Link = _registry_table(
    "Link", _LinkTable, ["from_", "to", "rate", "delay"], list(_LINK_SLOTS),
    "``[[link]]``: a duplex point-to-point link between two declared nodes.\n\n"
    "`queue` serves the ``from_ -> to`` direction (queue name ``\"from->to\"``) and the\n"
    "reverse one unless `queue_reverse` is given.\n\n" + _LINK_MODEL_DOC,
)


# --------------------------------------------------------------------------- generators


@dataclass(repr=False)
class Dumbbell(_Table):
    """``[dumbbell]``: nodes ``r1``, ``r2``, ``s0..``, ``d0..``; links ``s{i}-r1``,
    ``r1-r2`` (the bottleneck) and ``r2-d{i}``.

    Give either `pairs` (with optional `access_delays`, one per pair, overriding
    `access.delay` on the source side) or `subnets`, a list of dicts
    ``{"hosts": 100, "access_delay": "10ms"}`` (optionally ``"access_rate"``): the pairs
    subnet by subnet, each subnet's delay and rate on the source side. `bottleneck` and
    `access` are required (the core says so when they are missing)."""

    pairs: Optional[int] = None
    bottleneck: Any = None
    access: Any = None
    access_delays: Optional[List[str]] = None
    subnets: Optional[List[Dict[str, Any]]] = None

    def __post_init__(self) -> None:
        self.access_delays = _listify(self.access_delays)
        self.subnets = _listify(self.subnets)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Dumbbell":
        converted = {
            key: LinkSpec.from_dict(_table(data[key], f"{path}.{key}"), f"{path}.{key}")
            for key in ("bottleneck", "access")
            if key in data
        }
        return cls._from_dict(data, path, **converted)


Chain = _registry_table(
    "Chain", _LinkTable, ["routers", "rate", "delay"], list(_LINK_SLOTS),
    "``[chain]``: routers ``r0 .. r{n-1}`` in a line, every link alike.\n\n" + _LINK_MODEL_DOC,
)


# --------------------------------------------------------------------------- flows

FLOW_COMMON_KEYS = _models.FLOW_COMMON_KEYS
#: Those that are fields besides from_ and to (the class gives the type).
_FLOW_COMMON = [k for k in FLOW_COMMON_KEYS if k not in ("from", "to", "type")]
_DEFAULT_AGENT = _models.family("agent").default


def _source_slots(agent: str) -> Dict[str, _models.Family]:
    """The model keys a flow of source `agent` has: the families the source selects
    models of (its ``relations.selects`` in the core: cc, recovery, receiver for TCP)."""
    return {key: _models.family(key) for key in _models.get("agent", agent).relations.selects}


class _Flow(_Table):
    """A ``[[flow]]``: the keys every flow has, plus the parameters of its agent (the
    flow's ``type``) as the registry declares them."""

    #: The agent (registered name) of the class.
    type: ClassVar[str] = ""

    def to_dict(self) -> Dict[str, Any]:
        # A flow of the default agent is written without "type".
        return _flow_head(super().to_dict(), None if self.type == _DEFAULT_AGENT else self.type)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str):
        return cls._from_dict(data, path, **_models_from(data, path, _source_slots(cls.type)))

    def _check_models(self, path: str) -> None:
        for key, fam in _source_slots(self.type).items():
            _check_model(getattr(self, key), fam, f"{path}.{key}")


def _flow_class(spec: _models.ModelSpec, class_name: str, doc: str) -> type:
    slot_families = _source_slots(spec.name)
    slots = list(slot_families)
    seen = {"from_", "to", *_FLOW_COMMON, *slots}
    params = [p for p in spec.param_names if p not in seen]
    python_names = [f"{p}_" if keyword.iskeyword(p) else p for p in params]
    model_doc = ""
    if slots:
        model_doc = ("Model keys: " + ", ".join(f"`{k}` ({slot_families[k].title})" for k in slots)
                     + ", each a name, a dict or a `Model`.\n\n")
    cls = _registry_table(
        class_name, _Flow, ["from_", "to"], _FLOW_COMMON + slots + python_names,
        doc + "\n\nWith ``count = n`` the table stands for n flows; ``{i}`` in `name`, `from_` and\n"
        "`to` becomes 0 .. n-1. Every unset field takes the core's default.\n\n"
        + model_doc + _models.params_doc(spec),
    )
    cls.type = spec.name
    return cls


def _class_name(agent: str) -> str:
    return "".join(part.capitalize() for part in agent.split("_")) + "Flow"


#: Every registered agent -> its flow class (``TcpFlow``, ``CbrFlow``, ...).
FLOW_TYPES: Dict[str, type] = {}
for _spec in _models.models("agent"):
    _name = _class_name(_spec.name)
    FLOW_TYPES[_spec.name] = globals()[_name] = _flow_class(
        _spec, _name, f'``[[flow]]`` with ``type = "{_spec.name}"``: {_spec.summary}.'
    )

TcpFlow = FLOW_TYPES["tcp"]
CbrFlow = FLOW_TYPES["cbr"]


def flow_class(agent: str) -> type:
    """The flow class of a registered agent: ``flow_class("cbr") is CbrFlow``."""
    if agent not in FLOW_TYPES:
        raise _models.UnknownModelError(_models.unknown_model_message(agent, _models.family("agent")))
    return FLOW_TYPES[agent]


def _flow_head(d: Dict[str, Any], kind: Optional[str] = None) -> Dict[str, Any]:
    """Orders a flow table as people write it: name, count, endpoints, type, the rest."""
    head = {k: d.pop(k) for k in ("name", "count", "from", "to") if k in d}
    if kind is not None:
        head["type"] = kind
    return {**head, **d}


def _flow_from_dict(data: Any, path: str):
    data = _table(data, path)
    kind = data.get("type", _DEFAULT_AGENT)
    if kind not in FLOW_TYPES:
        raise _toml_error(f"{path}.type", _models.unknown_model_message(str(kind), _models.family("agent")))
    rest = {k: v for k, v in data.items() if k != "type"}
    return FLOW_TYPES[kind].from_dict(rest, path)


# --------------------------------------------------------------------------- monitor


@dataclass(repr=False)
class Monitor(_Table):
    """``[monitor]``: what the time series samples and how often.

    Without `interval` no time series is kept. `flows`, `queues` and `groups` are
    ``"all"``, ``"none"`` or a list of flow names / queue names (``"a->b"``) / flow
    group names (the flows' ``group``; each sampled group gets ``delivered_bytes`` and
    ``received_bytes`` series)."""

    interval: Optional[str] = None
    flows: Names = None
    queues: Names = None
    groups: Names = None

    def __post_init__(self) -> None:
        self.flows = _listify(self.flows)
        self.queues = _listify(self.queues)
        self.groups = _listify(self.groups)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Monitor":
        return cls._from_dict(data, path)


@dataclass(repr=False)
class Trace(_Table):
    """``[trace]``: packet traces (docs/traces.md). Off unless a selection is given.

    `ns2` and `pcap_links` are ``"all"``, ``"none"`` or a list of link directions
    (``"a->b"``); `pcap_nodes` the same for node names. Files go under `dir` (default
    ``"traces"``) inside the run's output directory (``run(out=...)``)."""

    dir: Optional[str] = None
    ns2: Names = None
    pcap_links: Names = None
    pcap_nodes: Names = None

    def __post_init__(self) -> None:
        self.ns2 = _listify(self.ns2)
        self.pcap_links = _listify(self.pcap_links)
        self.pcap_nodes = _listify(self.pcap_nodes)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Trace":
        return cls._from_dict(data, path)


# --------------------------------------------------------------------------- changes during a run


@dataclass(repr=False)
class Routing(_Table):
    """``[routing]``: `mode` ``"static"`` (routes computed once, at load: ns-2's default)
    or ``"dynamic"`` (recomputed at once whenever a link goes down or up: ns-2's Session
    routing). See docs/scenario.md."""

    mode: Optional[str] = None

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Routing":
        return cls._from_dict(data, path)


@dataclass(repr=False)
class Event(_Table):
    """``[[event]]``: at time `at`, change the link named by one of its directions
    (`link`, ``"a->b"``): `action` ``"rate"`` or ``"delay"`` (with the new `value`,
    ``"5Mbps"`` / ``"20ms"``), ``"down"`` or ``"up"``; `direction` ``"both"`` (the
    default) or ``"forward"`` (only `link`'s direction). The core checks the values
    (docs/scenario.md)."""

    at: str
    link: str
    action: str
    value: Optional[str] = None
    direction: Optional[str] = None

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Event":
        return cls._from_dict(data, path)


# --------------------------------------------------------------------------- scenario


@dataclass(repr=False)
class Scenario(_Table):
    """A whole scenario: ``[simulation]`` (`duration`, `seed`, `measure_from`), ``[network] nodes``,
    ``[[link]]`` (`links`), ``[[flow]]`` (`flows`), the generators ``[dumbbell]`` and
    ``[chain]``, ``[monitor]``, ``[trace]``, ``[routing]`` and ``[[event]]`` (`events`).

    Nodes of generators are declared by the generator; `nodes` lists only the extra nodes
    that explicit `links` join."""

    duration: str
    seed: Optional[int] = None
    nodes: List[str] = field(default_factory=list)
    links: List[Link] = field(default_factory=list)
    flows: List[_Flow] = field(default_factory=list)
    dumbbell: Optional[Dumbbell] = None
    chain: Optional[Chain] = None
    monitor: Optional[Monitor] = None
    trace: Optional[Trace] = None
    #: Start of the measurement window of every reported counter (a time, e.g. "20s";
    #: ``[simulation] measure_from``); the end of the run closes it.
    measure_from: Optional[str] = None
    routing: Optional[Routing] = None
    #: Changes to links during the run (``[[event]]``).
    events: List[Event] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.nodes = _listify(self.nodes)
        self.links = _listify(self.links)
        self.flows = _listify(self.flows)
        self.events = _listify(self.events)

    # ------------------------------------------------------------------ TOML out

    def to_dict(self) -> Dict[str, Any]:
        """The scenario as the nested dict a TOML reader would give for its file."""
        self._check_types()
        out: Dict[str, Any] = {}
        sim: Dict[str, Any] = {"duration": self.duration}
        if self.seed is not None:
            sim["seed"] = self.seed
        if self.measure_from is not None:
            sim["measure_from"] = self.measure_from
        out["simulation"] = sim
        if self.nodes:
            out["network"] = {"nodes": list(self.nodes)}
        if self.dumbbell is not None:
            out["dumbbell"] = self.dumbbell.to_dict()
        if self.chain is not None:
            out["chain"] = self.chain.to_dict()
        if self.links:
            out["link"] = [link.to_dict() for link in self.links]
        if self.flows:
            out["flow"] = [flow.to_dict() for flow in self.flows]
        if self.monitor is not None:
            out["monitor"] = self.monitor.to_dict()
        if self.trace is not None:
            out["trace"] = self.trace.to_dict()
        if self.routing is not None:
            out["routing"] = self.routing.to_dict()
        if self.events:
            out["event"] = [event.to_dict() for event in self.events]
        return out

    def to_toml(self) -> str:
        """The scenario as scenario-file text (docs/scenario.md). Unset fields are left
        out, so the core's defaults apply."""
        return _dump_toml(self.to_dict())

    def save(self, path: Union[str, "os.PathLike[str]"]) -> Path:
        """Writes `to_toml()` to `path` (parent directories created) and returns it."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(self.to_toml(), encoding="utf-8")
        return p

    # ------------------------------------------------------------------ TOML in

    @classmethod
    def load(cls, scenario: Union[str, "os.PathLike[str]"]) -> "Scenario":
        """Reads a scenario file (a path) or TOML text into objects.

        The text is first checked by the core's validator, so an invalid file raises
        `tcpsim.ScenarioError` with exactly the message ``tcpsim.validate`` gives (file,
        line, key, what was expected)."""
        text, name = read_scenario(scenario)
        validate_toml(text, name)
        return cls.from_dict(tomllib.loads(text))

    @classmethod
    def from_toml(cls, text: str) -> "Scenario":
        """Like `load`, for TOML text only (never taken for a path)."""
        validate_toml(text, "<string>")
        return cls.from_dict(tomllib.loads(text))

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Scenario":
        """Objects from the nested dict of a TOML document (``tomllib.loads``). Raises
        `tcpsim.ScenarioError` naming any key it does not know."""
        data = dict(data)
        sections = {"simulation", "network", "dumbbell", "chain", "link", "flow", "monitor", "trace", "routing", "event"}
        for key in data:
            if key not in sections:
                raise _toml_error(key, "unknown key '%s'; expected one of %s" % (
                    key, ", ".join(f"'{s}'" for s in sorted(sections))))
        sim = _table(data.get("simulation", {}), "simulation")
        for key in sim:
            if key not in ("duration", "seed", "measure_from"):
                raise _toml_error(f"simulation.{key}", f"unknown key '{key}'; expected one of 'duration', 'seed', 'measure_from'")
        if "duration" not in sim:
            raise _toml_error("simulation", "missing key 'duration'")
        net = _table(data.get("network", {}), "network")
        for key in net:
            if key != "nodes":
                raise _toml_error(f"network.{key}", f"unknown key '{key}'; expected one of 'nodes'")
        return cls(
            duration=sim["duration"],
            seed=sim.get("seed"),
            measure_from=sim.get("measure_from"),
            nodes=list(net.get("nodes", [])),
            links=[Link.from_dict(_table(t, f"link[{i}]"), f"link[{i}]") for i, t in enumerate(_tables(data, "link"))],
            flows=[_flow_from_dict(t, f"flow[{i}]") for i, t in enumerate(_tables(data, "flow"))],
            dumbbell=Dumbbell.from_dict(_table(data["dumbbell"], "dumbbell"), "dumbbell") if "dumbbell" in data else None,
            chain=Chain.from_dict(_table(data["chain"], "chain"), "chain") if "chain" in data else None,
            monitor=Monitor.from_dict(_table(data["monitor"], "monitor"), "monitor") if "monitor" in data else None,
            trace=Trace.from_dict(_table(data["trace"], "trace"), "trace") if "trace" in data else None,
            routing=Routing.from_dict(_table(data["routing"], "routing"), "routing") if "routing" in data else None,
            events=[Event.from_dict(_table(t, f"event[{i}]"), f"event[{i}]") for i, t in enumerate(_tables(data, "event"))],
        )

    # ------------------------------------------------------------------ checking, running

    def validate(self, *, max_memory: Optional[int] = None, max_samples: Optional[int] = None) -> "Scenario":
        """Checks the scenario with the core's validator (the one scenario files go
        through), its estimated cost included (limits as `tcpsim.validate`), and returns
        it; raises `tcpsim.ScenarioError` naming the attribute path (``flows[1].rate``)
        and the TOML key (``flow[1].rate``)."""
        text = self.to_toml()
        try:
            validate_toml(text, _SOURCE, max_memory=max_memory, max_samples=max_samples)
        except ScenarioError as err:
            raise _python_error(err) from None
        return self

    def run(self, **kwargs: Any):
        """Runs the scenario: ``tcpsim.run(self.to_toml(), **kwargs)`` (keywords `out`,
        `progress`, `csv`, `overrides`, `seed`, `max_memory`, `max_samples`). Returns
        `tcpsim.Results`; errors as `validate`."""
        self.validate(max_memory=kwargs.get("max_memory"), max_samples=kwargs.get("max_samples"))
        try:
            return _run(self.to_toml(), **kwargs)
        except ScenarioError as err:
            # Errors found while building (no route, ...): `run` names the text "<string>".
            raise _python_error(err, source="<string>") from None

    # ------------------------------------------------------------------ helpers

    def _check_types(self) -> None:
        """Catches objects the TOML writer cannot express (the core checks values)."""
        def link_like(obj: Any, cls: type, path: str) -> None:
            if not isinstance(obj, cls):
                raise _error(path, f"expected {cls.__name__}(...), got {obj!r}")
            if isinstance(obj, _LinkTable):
                obj._check_models(path)

        for name, value in (("nodes", self.nodes), ("links", self.links), ("flows", self.flows), ("events", self.events)):
            if not isinstance(value, list):
                raise _error(name, f"expected a list, got {value!r}")
        for i, link in enumerate(self.links):
            link_like(link, Link, f"links[{i}]")
        for i, flow in enumerate(self.flows):
            if not isinstance(flow, _Flow):
                kinds = " or ".join(f"{c.__name__}(...)" for c in FLOW_TYPES.values())
                raise _error(f"flows[{i}]", f"expected {kinds}, got {flow!r}")
            flow._check_models(f"flows[{i}]")
        if self.dumbbell is not None:
            link_like(self.dumbbell, Dumbbell, "dumbbell")
            link_like(self.dumbbell.bottleneck, LinkSpec, "dumbbell.bottleneck")
            link_like(self.dumbbell.access, LinkSpec, "dumbbell.access")
        if self.chain is not None:
            link_like(self.chain, Chain, "chain")
        if self.monitor is not None and not isinstance(self.monitor, Monitor):
            raise _error("monitor", f"expected Monitor(...), got {self.monitor!r}")
        if self.trace is not None and not isinstance(self.trace, Trace):
            raise _error("trace", f"expected Trace(...), got {self.trace!r}")
        if self.routing is not None and not isinstance(self.routing, Routing):
            raise _error("routing", f"expected Routing(...), got {self.routing!r}")
        for i, event in enumerate(self.events):
            if not isinstance(event, Event):
                raise _error(f"events[{i}]", f"expected Event(...), got {event!r}")


# --------------------------------------------------------------------------- errors

#: File name given to the core when validating objects; recognised in its messages.
_SOURCE = "<tcpsim.Scenario>"

_MESSAGE = re.compile(r"^(?P<file>.*?)(?:, line (?P<line>\d+))?(?:, key '(?P<key>[^']*)')?: (?P<msg>.*)$", re.S)


def _error(python_key: str, message: str, toml_key: Optional[str] = None) -> Exception:
    """A `ScenarioError` about an attribute path of a `Scenario`."""
    where = f"Scenario.{python_key}" if python_key else "Scenario"
    text = f"{where}: {message}"
    if toml_key and toml_key != python_key:
        text += f" (TOML key '{toml_key}')"
    err = ScenarioError(text)
    err.key = python_key
    err.toml_key = toml_key if toml_key is not None else python_key
    err.detail = message
    return err


def _toml_error(toml_key: str, message: str) -> Exception:
    """A `ScenarioError` about a TOML key path (named also as the attribute path)."""
    return _error(python_key(toml_key), message, toml_key)


def python_key(toml_key: str) -> str:
    """Maps a TOML key path of the core's errors to the `Scenario` attribute path:
    ``flow[1].rate`` -> ``flows[1].rate``, ``link[0].from`` -> ``links[0].from_``,
    ``simulation.duration`` -> ``duration``, ``network.nodes`` -> ``nodes``,
    ``event[0].at`` -> ``events[0].at``."""
    key = toml_key
    if key == "simulation":
        return ""
    if key.startswith("simulation."):
        key = key[len("simulation."):]
    elif key in ("network", "network.nodes"):
        return "nodes"
    m = re.match(r"^(link|flow|event)(\[\d+\])?((?:\..*)?)$", key, re.S)
    if m:
        head, index, rest = m.group(1) + "s", m.group(2) or "", m.group(3)
        if rest in (".from",):
            rest = ".from_"
        key = head + index + rest
    return key


def _python_error(err: Exception, source: str = _SOURCE) -> Exception:
    """Rewrites a core error about the generated TOML in terms of the objects."""
    m = _MESSAGE.match(str(err))
    if not m or m.group("file") != source:
        return err
    toml_key = m.group("key") or ""
    message = m.group("msg")
    key = python_key(toml_key)
    if re.match(r"^(links|flows)\[\d+\]$", key):
        message = message.replace("'from'", "'from_'")
    return _error(key, message, toml_key)


# --------------------------------------------------------------------------- dict helpers


def _table(value: Any, path: str) -> Dict[str, Any]:
    if not isinstance(value, dict):
        raise _toml_error(path, "expected a table")
    return value


def _tables(data: Dict[str, Any], key: str) -> List[Dict[str, Any]]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise _toml_error(key, f"expected [[{key}]] tables")
    return value


# --------------------------------------------------------------------------- TOML writer




def _toml_value(value: Any, path: str) -> str:
    """A value of the scenario on one line; tomli-w writes (and escapes) every scalar.
    numpy scalars become Python numbers; anything else TOML cannot hold is an error
    naming the key."""
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v, f"{path}[{i}]") for i, v in enumerate(value)) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(
            f"{_toml_key(k)} = {_toml_value(v, f'{path}.{k}')}" for k, v in value.items()
        ) + " }"
    if not isinstance(value, (str, bool, int, float)):
        import numbers

        if isinstance(value, numbers.Integral):
            value = int(value)
        elif isinstance(value, numbers.Real):
            value = float(value)
        else:
            raise _toml_error(path, f"cannot write {type(value).__name__} {value!r} to TOML; "
                                    "expected a string, number, bool or list")
    return _toml_scalar(value)


def _dump_toml(doc: Dict[str, Any]) -> str:
    """Writes the nested dict of a scenario: scalars and inline tables under
    ``[section]`` headers, sub-tables as ``[section.sub]``, lists of tables as
    ``[[section]]``."""
    lines: List[str] = []

    def table(header: str, path: str, body: Dict[str, Any], array: bool = False) -> None:
        if lines:
            lines.append("")
        lines.append(f"[[{header}]]" if array else f"[{header}]")
        subtables = []
        for key, value in body.items():
            if isinstance(value, dict) and key not in _SLOT_KEYS:
                subtables.append((key, value))
            else:
                lines.append(f"{_toml_key(key)} = {_toml_value(value, f'{path}.{key}')}")
        for key, value in subtables:
            table(f"{header}.{_toml_key(key)}", f"{path}.{key}", value)

    for section, body in doc.items():
        if isinstance(body, list):
            for i, item in enumerate(body):
                table(section, f"{section}[{i}]", item, array=True)
        else:
            table(section, section, body)
    return "\n".join(lines) + "\n"
