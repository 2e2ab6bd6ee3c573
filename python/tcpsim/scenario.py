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
- A field left at ``None`` (or an empty list) is *not written* to the TOML, so the Rust
  core's default applies. The defaults live in one place, the core, and are listed in
  ``docs/scenario.md``; this module never repeats them.
- ``from`` is a Python keyword, so links and flows call it ``from_`` (the TOML key stays
  ``from``).
- Checking is done by the core: `Scenario.validate` turns the scenario into TOML and
  asks the same validator the file path uses, so the rules and the wording of errors are
  identical. Errors name the Python attribute path (``flows[1].rate``) as well as the
  TOML key (``flow[1].rate``).
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Union

from ._toml import toml_key as _toml_key, toml_string as _toml_string
from . import _core
from .api import read_scenario
from .api import run as _run

try:
    import tomllib
except ImportError:  # Python < 3.11: the same parser, packaged as "tomli"
    import tomli as tomllib  # type: ignore[no-redef]

ScenarioError = _core.ScenarioError

Number = Union[int, float]
Names = Union[str, List[str], None]

__all__ = [
    "Scenario",
    "Link",
    "LinkSpec",
    "DropTail",
    "RED",
    "TcpFlow",
    "CbrFlow",
    "Dumbbell",
    "Chain",
    "Monitor",
]


# --------------------------------------------------------------------------- base


class _Table:
    """Common behaviour of the scenario tables: TOML key mapping, dict conversion and a
    repr that shows only the fields that are set."""

    #: Python field name -> TOML key, where they differ.
    _renamed: Dict[str, str] = {"from_": "from"}

    @classmethod
    def _toml_key(cls, name: str) -> str:
        return cls._renamed.get(name, name)

    @classmethod
    def _field_for_key(cls) -> Dict[str, str]:
        return {cls._toml_key(f.name): f.name for f in dataclasses.fields(cls)}

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
                raise _toml_error(
                    f"{path}.{key}",
                    f"unknown key '{key}'; expected one of "
                    + ", ".join(f"'{k}'" for k in sorted(known)),
                )
            kwargs[known[key]] = value
        kwargs.update({known[k]: v for k, v in converted.items()})
        for f in dataclasses.fields(cls):
            required = f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING  # type: ignore[misc]
            if required and f.name not in kwargs:
                raise _toml_error(path, f"missing key '{cls._toml_key(f.name)}'")
        return cls(**kwargs)


def _plain(value: Any) -> Any:
    """Objects to TOML-shaped dicts/lists (queues become inline tables)."""
    if isinstance(value, _Table):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _listify(value: Any) -> Any:
    return list(value) if isinstance(value, tuple) else value


# --------------------------------------------------------------------------- queues


@dataclass(repr=False)
class DropTail(_Table):
    """``queue = { kind = "droptail", ... }``: tail drop at `limit` (``"50p"``, ``"30000B"``).

    With a limit of N packets the queue holds N - 1 waiting packets plus the one being
    transmitted (ns-2 semantics; see docs/scenario.md)."""

    limit: Optional[str] = None

    kind = "droptail"

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, **super().to_dict()}


@dataclass(repr=False)
class RED(_Table):
    """``queue = { kind = "red", ... }``: ns-2.35 ``Queue/RED``.

    Thresholds are in packets (numbers); `limit` and `mean_packet_size` carry units.
    Give `max_p` or `linterm` (max_p = 1/linterm), not both. Every unset field takes the
    core's default (docs/scenario.md, "kind = red")."""

    limit: Optional[str] = None
    min_th: Optional[Number] = None
    max_th: Optional[Number] = None
    weight: Optional[Number] = None
    max_p: Optional[Number] = None
    linterm: Optional[Number] = None
    gentle: Optional[bool] = None
    wait: Optional[bool] = None
    mean_packet_size: Optional[str] = None
    queue_in_bytes: Optional[bool] = None
    bytes: Optional[bool] = None
    ecn: Optional[bool] = None
    use_mark_p: Optional[bool] = None
    mark_p: Optional[Number] = None

    kind = "red"

    def to_dict(self) -> Dict[str, Any]:
        return {"kind": self.kind, **super().to_dict()}


Queue = Union[DropTail, RED]
QUEUE_KINDS = {"droptail": DropTail, "red": RED}


def _queue_from_dict(data: Any, path: str) -> Queue:
    if not isinstance(data, dict):
        raise _toml_error(path, "expected a table, such as { kind = \"red\", limit = \"100p\" }")
    kind = data.get("kind")
    if kind not in QUEUE_KINDS:
        raise _toml_error(f"{path}.kind", f"expected one of 'droptail', 'red', got {kind!r}")
    rest = {k: v for k, v in data.items() if k != "kind"}
    return QUEUE_KINDS[kind]._from_dict(rest, path)


# --------------------------------------------------------------------------- links


@dataclass(repr=False)
class LinkSpec(_Table):
    """Rate, delay and queues of a generated link (`Dumbbell` bottleneck and access).

    `queue` is the queue of the first-named → second-named direction and, unless
    `queue_reverse` is given, of the reverse direction too."""

    rate: str
    delay: str
    queue: Optional[Queue] = None
    queue_reverse: Optional[Queue] = None

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "LinkSpec":
        return cls._from_dict(data, path, **_queues_from(data, path))


@dataclass(repr=False)
class Link(_Table):
    """``[[link]]``: a duplex point-to-point link between two declared nodes.

    `queue` serves the ``from_ -> to`` direction (queue name ``"from->to"``) and the
    reverse one unless `queue_reverse` is given."""

    from_: str
    to: str
    rate: str
    delay: str
    queue: Optional[Queue] = None
    queue_reverse: Optional[Queue] = None

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Link":
        return cls._from_dict(data, path, **_queues_from(data, path))


def _queues_from(data: Dict[str, Any], path: str) -> Dict[str, Queue]:
    return {
        key: _queue_from_dict(data[key], f"{path}.{key}")
        for key in ("queue", "queue_reverse")
        if key in data
    }


# --------------------------------------------------------------------------- generators


@dataclass(repr=False)
class Dumbbell(_Table):
    """``[dumbbell]``: nodes ``r1``, ``r2``, ``s0..``, ``d0..``; links ``s{i}-r1``,
    ``r1-r2`` (the bottleneck) and ``r2-d{i}``.

    `access_delays`, one per pair, overrides `access.delay` on the source side."""

    pairs: int
    bottleneck: LinkSpec
    access: LinkSpec
    access_delays: Optional[List[str]] = None

    def __post_init__(self) -> None:
        self.access_delays = _listify(self.access_delays)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Dumbbell":
        converted = {
            key: LinkSpec.from_dict(_table(data[key], f"{path}.{key}"), f"{path}.{key}")
            for key in ("bottleneck", "access")
            if key in data
        }
        return cls._from_dict(data, path, **converted)


@dataclass(repr=False)
class Chain(_Table):
    """``[chain]``: routers ``r0 .. r{n-1}`` in a line, every link alike."""

    routers: int
    rate: str
    delay: str
    queue: Optional[Queue] = None
    queue_reverse: Optional[Queue] = None

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Chain":
        return cls._from_dict(data, path, **_queues_from(data, path))


# --------------------------------------------------------------------------- flows


@dataclass(repr=False)
class TcpFlow(_Table):
    """``[[flow]]`` with ``type = "tcp"``: a bulk transfer over TCP (ns-2 one-way
    ``Agent/TCP``: sequence numbers and windows in packets).

    With ``count = n`` the table stands for n flows; ``{i}`` in `name`, `from_` and `to`
    becomes 0 .. n-1. Every unset field takes the core's default (docs/scenario.md).
    `cc`, `recovery` and `receiver` take a model name or a dict with ``kind`` and the
    model's parameters, e.g. ``cc={"kind": "vegas", "alpha": 2, "beta": 4}``."""

    from_: str
    to: str
    name: Optional[str] = None
    count: Optional[int] = None
    start: Optional[str] = None
    start_spacing: Optional[str] = None
    stop: Optional[str] = None
    recovery: Optional[Union[str, Dict[str, Any]]] = None
    cc: Optional[Union[str, Dict[str, Any]]] = None
    packet_size: Optional[str] = None
    header_size: Optional[str] = None
    ack_size: Optional[str] = None
    initial_window: Optional[Number] = None
    max_window: Optional[int] = None
    initial_ssthresh: Optional[Number] = None
    packets: Optional[int] = None
    dupack_threshold: Optional[int] = None
    limited_transmit: Optional[bool] = None
    min_rto: Optional[str] = None
    max_rto: Optional[str] = None
    initial_rto: Optional[str] = None
    clock_granularity: Optional[str] = None
    receiver: Optional[Union[str, Dict[str, Any]]] = None
    syn: Optional[bool] = None

    type = "tcp"

    def to_dict(self) -> Dict[str, Any]:
        # "type" is left out: a flow without it is TCP.
        return _flow_head(super().to_dict())


@dataclass(repr=False)
class CbrFlow(_Table):
    """``[[flow]]`` with ``type = "cbr"``: constant bit rate over UDP (ns-2
    ``Application/Traffic/CBR`` over ``Agent/UDP``)."""

    from_: str
    to: str
    name: Optional[str] = None
    count: Optional[int] = None
    start: Optional[str] = None
    start_spacing: Optional[str] = None
    stop: Optional[str] = None
    rate: Optional[str] = None
    packet_size: Optional[str] = None
    jitter: Optional[bool] = None

    type = "cbr"

    def to_dict(self) -> Dict[str, Any]:
        return _flow_head(super().to_dict(), self.type)


def _flow_head(d: Dict[str, Any], kind: Optional[str] = None) -> Dict[str, Any]:
    """Orders a flow table as people write it: name, count, endpoints, type, the rest."""
    head = {k: d.pop(k) for k in ("name", "count", "from", "to") if k in d}
    if kind is not None:
        head["type"] = kind
    return {**head, **d}


Flow = Union[TcpFlow, CbrFlow]
FLOW_TYPES = {"tcp": TcpFlow, "cbr": CbrFlow}


def _flow_from_dict(data: Any, path: str) -> Flow:
    data = _table(data, path)
    kind = data.get("type", "tcp")
    if kind not in FLOW_TYPES:
        raise _toml_error(f"{path}.type", f"expected one of 'tcp', 'cbr', got {kind!r}")
    rest = {k: v for k, v in data.items() if k != "type"}
    return FLOW_TYPES[kind]._from_dict(rest, path)


# --------------------------------------------------------------------------- monitor


@dataclass(repr=False)
class Monitor(_Table):
    """``[monitor]``: what the time series samples and how often.

    Without `interval` no time series is kept. `flows` and `queues` are ``"all"``,
    ``"none"`` or a list of flow names / queue names (``"a->b"``)."""

    interval: Optional[str] = None
    flows: Names = None
    queues: Names = None

    def __post_init__(self) -> None:
        self.flows = _listify(self.flows)
        self.queues = _listify(self.queues)

    @classmethod
    def from_dict(cls, data: Dict[str, Any], path: str) -> "Monitor":
        return cls._from_dict(data, path)


# --------------------------------------------------------------------------- scenario


@dataclass(repr=False)
class Scenario(_Table):
    """A whole scenario: ``[simulation]`` (`duration`, `seed`), ``[network] nodes``,
    ``[[link]]`` (`links`), ``[[flow]]`` (`flows`), the generators ``[dumbbell]`` and
    ``[chain]``, and ``[monitor]``.

    Nodes of generators are declared by the generator; `nodes` lists only the extra nodes
    that explicit `links` join."""

    duration: str
    seed: Optional[int] = None
    nodes: List[str] = field(default_factory=list)
    links: List[Link] = field(default_factory=list)
    flows: List[Flow] = field(default_factory=list)
    dumbbell: Optional[Dumbbell] = None
    chain: Optional[Chain] = None
    monitor: Optional[Monitor] = None

    def __post_init__(self) -> None:
        self.nodes = _listify(self.nodes)
        self.links = _listify(self.links)
        self.flows = _listify(self.flows)

    # ------------------------------------------------------------------ TOML out

    def to_dict(self) -> Dict[str, Any]:
        """The scenario as the nested dict a TOML reader would give for its file."""
        self._check_types()
        out: Dict[str, Any] = {}
        sim: Dict[str, Any] = {"duration": self.duration}
        if self.seed is not None:
            sim["seed"] = self.seed
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
        _core.validate_toml(text, name)
        return cls.from_dict(tomllib.loads(text))

    @classmethod
    def from_toml(cls, text: str) -> "Scenario":
        """Like `load`, for TOML text only (never taken for a path)."""
        _core.validate_toml(text, "<string>")
        return cls.from_dict(tomllib.loads(text))

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Scenario":
        """Objects from the nested dict of a TOML document (``tomllib.loads``). Raises
        `tcpsim.ScenarioError` naming any key it does not know."""
        data = dict(data)
        sections = {"simulation", "network", "dumbbell", "chain", "link", "flow", "monitor"}
        for key in data:
            if key not in sections:
                raise _toml_error(key, "unknown key '%s'; expected one of %s" % (
                    key, ", ".join(f"'{s}'" for s in sorted(sections))))
        sim = _table(data.get("simulation", {}), "simulation")
        for key in sim:
            if key not in ("duration", "seed"):
                raise _toml_error(f"simulation.{key}", f"unknown key '{key}'; expected one of 'duration', 'seed'")
        if "duration" not in sim:
            raise _toml_error("simulation", "missing key 'duration'")
        net = _table(data.get("network", {}), "network")
        for key in net:
            if key != "nodes":
                raise _toml_error(f"network.{key}", f"unknown key '{key}'; expected one of 'nodes'")
        return cls(
            duration=sim["duration"],
            seed=sim.get("seed"),
            nodes=list(net.get("nodes", [])),
            links=[Link.from_dict(_table(t, f"link[{i}]"), f"link[{i}]") for i, t in enumerate(_tables(data, "link"))],
            flows=[_flow_from_dict(t, f"flow[{i}]") for i, t in enumerate(_tables(data, "flow"))],
            dumbbell=Dumbbell.from_dict(_table(data["dumbbell"], "dumbbell"), "dumbbell") if "dumbbell" in data else None,
            chain=Chain.from_dict(_table(data["chain"], "chain"), "chain") if "chain" in data else None,
            monitor=Monitor.from_dict(_table(data["monitor"], "monitor"), "monitor") if "monitor" in data else None,
        )

    # ------------------------------------------------------------------ checking, running

    def validate(self) -> "Scenario":
        """Checks the scenario with the core's validator (the one scenario files go
        through) and returns it; raises `tcpsim.ScenarioError` naming the attribute path
        (``flows[1].rate``) and the TOML key (``flow[1].rate``)."""
        text = self.to_toml()
        try:
            _core.validate_toml(text, _SOURCE)
        except ScenarioError as err:
            raise _python_error(err) from None
        return self

    def run(self, **kwargs: Any):
        """Runs the scenario: ``tcpsim.run(self.to_toml(), **kwargs)`` (keywords `out`,
        `progress`, `csv`). Returns `tcpsim.Results`; errors as `validate`."""
        self.validate()
        try:
            return _run(self.to_toml(), **kwargs)
        except ScenarioError as err:
            # Errors found while building (no route, ...): `run` names the text "<string>".
            raise _python_error(err, source="<string>") from None

    # ------------------------------------------------------------------ helpers

    def _check_types(self) -> None:
        """Catches objects the TOML writer cannot express (the core checks values)."""
        def queue(q: Any, path: str) -> None:
            if q is not None and not isinstance(q, (DropTail, RED)):
                raise _error(path, f"expected DropTail(...) or RED(...), got {q!r}")

        def link_like(obj: Any, cls: type, path: str) -> None:
            if not isinstance(obj, cls):
                raise _error(path, f"expected {cls.__name__}(...), got {obj!r}")
            if hasattr(obj, "queue"):
                queue(obj.queue, f"{path}.queue")
                queue(obj.queue_reverse, f"{path}.queue_reverse")

        for name, value in (("nodes", self.nodes), ("links", self.links), ("flows", self.flows)):
            if not isinstance(value, list):
                raise _error(name, f"expected a list, got {value!r}")
        for i, link in enumerate(self.links):
            link_like(link, Link, f"links[{i}]")
        for i, flow in enumerate(self.flows):
            if not isinstance(flow, (TcpFlow, CbrFlow)):
                raise _error(f"flows[{i}]", f"expected TcpFlow(...) or CbrFlow(...), got {flow!r}")
        if self.dumbbell is not None:
            link_like(self.dumbbell, Dumbbell, "dumbbell")
            link_like(self.dumbbell.bottleneck, LinkSpec, "dumbbell.bottleneck")
            link_like(self.dumbbell.access, LinkSpec, "dumbbell.access")
        if self.chain is not None:
            link_like(self.chain, Chain, "chain")
        if self.monitor is not None and not isinstance(self.monitor, Monitor):
            raise _error("monitor", f"expected Monitor(...), got {self.monitor!r}")


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
    ``simulation.duration`` -> ``duration``, ``network.nodes`` -> ``nodes``."""
    key = toml_key
    if key == "simulation":
        return ""
    if key.startswith("simulation."):
        key = key[len("simulation."):]
    elif key in ("network", "network.nodes"):
        return "nodes"
    m = re.match(r"^(link|flow)(\[\d+\])?((?:\..*)?)$", key, re.S)
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
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isnan(value):
            return "nan"
        if math.isinf(value):
            return "inf" if value > 0 else "-inf"
        return repr(value)
    if isinstance(value, str):
        return _toml_string(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml_value(v, f"{path}[{i}]") for i, v in enumerate(value)) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(
            f"{_toml_key(k)} = {_toml_value(v, f'{path}.{k}')}" for k, v in value.items()
        ) + " }"
    try:  # numpy scalars and the like
        import numbers

        if isinstance(value, numbers.Integral):
            return str(int(value))
        if isinstance(value, numbers.Real):
            return _toml_value(float(value), path)
    except Exception:  # pragma: no cover - defensive
        pass
    raise _toml_error(path, f"cannot write {type(value).__name__} {value!r} to TOML; expected a string, number, bool or list")


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
            if isinstance(value, dict) and key not in ("queue", "queue_reverse"):
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
