"""Reading a document's reproduction files: ``experiments/<document>/document.toml``,
one file per experiment and ``numbers.toml`` (format: docs/reproducing.md).

An *experiment* is a base scenario (``[base]``), named *cases* (each a set of key paths
assigned on the base, as sweep grid keys are), an optional *axis* (one key swept over a
list of values), a ``[experiment.quick]`` table of overrides for ``--quick``, an optional
``[experiment.trace]`` table (runs that also write an ns-2 trace) and ``[[figure]]``s.
"""

from __future__ import annotations

import copy
import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover
    import tomli as _toml  # type: ignore[no-redef]

from .._core import ScenarioError

#: Check kinds (docs/reproducing.md#checks).
CHECK_KINDS = ("value", "ratio", "ordering", "trend", "shape")

#: Figure kinds drawn against time that may be laid out as panels, one per case
#: (``panels`` in a ``[[figure]]``; docs/reproducing.md#figures).
PANEL_KINDS = ("throughput", "flow_throughput", "cwnd", "queue", "utilization")


def experiments_root() -> Path:
    """The repository's ``experiments/`` directory (next to ``python/``)."""
    return Path(__file__).resolve().parents[3] / "experiments"


@dataclass
class Case:
    name: str
    label: str
    set: Dict[str, Any]
    reading: str = ""
    #: The case's arguments of the experiment's ns-2 twin (None: no twin of this case).
    ns2: Optional[List[str]] = None
    #: The case has no twin on purpose (``ns2 = false`` in an experiment with a twin,
    #: e.g. a model ns-2 lacks): the report says "no twin" for its checks.
    no_twin: bool = False


@dataclass
class Ns2Twin:
    """An experiment's ns-2.35 twin (`tcpsim reproduce --ns2`, module `ns2`)."""

    script: str                     # relative to the repository root
    args: List[str] = field(default_factory=list)
    axis: Optional[str] = None      # the script argument that takes the axis value
    #: False: the script writes no trace (its runs would write gigabytes), so the
    #: ``trace_*`` metrics and those counted from the trace are not measured for ns-2.
    trace: bool = True


@dataclass
class Figure:
    id: str
    caption: str
    kind: str
    at: Optional[str] = None
    cases: Optional[List[str]] = None
    metrics: List[str] = field(default_factory=list)
    #: Keys of the figure table that only its kind reads (e.g. ``n``, ``window``).
    extra: Dict[str, Any] = field(default_factory=dict)
    #: One panel per case, in the order of `cases`, each titled with its letter here
    #: ("" for a panel the document does not letter) and the case's label; None: the
    #: cases drawn together in one axes.
    panels: Optional[List[str]] = None


@dataclass
class Samples:
    """How document 003's fairness and smoothness metrics sample throughput; ``None``
    takes the metric's documented default (`tcpsim.metrics.sampled_throughput`)."""

    #: Samples count from this time on (s); 003: 15 s.
    from_s: Optional[float] = None
    #: The length of each sample (s); 003: 0.5 s.
    every_s: Optional[float] = None
    #: The bottleneck queue's limit in packets, for its normalized length.
    buffer_pkts: Optional[float] = None


@dataclass
class Experiment:
    name: str
    path: Path
    title: str
    section: str
    base: Dict[str, Any]
    cases: List[Case]
    axis_key: Optional[str] = None
    axis_name: str = ""
    axis_values: List[Any] = field(default_factory=list)
    #: Keys set together with the axis: key -> one value per axis value.
    axis_linked: Dict[str, List[Any]] = field(default_factory=dict)
    quick: Dict[str, Any] = field(default_factory=dict)
    quick_values: Optional[List[Any]] = None
    trace_links: Optional[List[str]] = None
    trace_at: Optional[List[Any]] = None
    figures: List[Figure] = field(default_factory=list)
    reading: str = ""
    variant_of: str = ""
    needs: str = ""
    #: Times (s) of the events after which the window settles anew (a connection
    #: starts, the available bandwidth halves or doubles), for the ``conv_*`` metrics.
    events: List[float] = field(default_factory=list)
    #: BaseRTT (s) of the measured flow: convergence in BaseRTTs and its smoothing.
    base_rtt_s: Optional[float] = None
    #: Measurement windows [start, end] (s) for the ``*_window.K`` metrics.
    windows: List[Tuple[float, float]] = field(default_factory=list)
    #: Document 003's sampled metrics (``[experiment.samples]``), if asked for.
    samples: Optional["Samples"] = None
    #: An outage (start, end) in seconds, such as a handoff's blackout, for the
    #: ``recovery_s.NAME`` metrics (``[experiment.handoff]``).
    outage_s: Optional[Tuple[float, float]] = None
    #: Reference document 002's measures (`measures.aqm_measures`), asked for with an
    #: ``[experiment.aqm]`` table (no keys: the window is the scenario's measure_from).
    aqm: bool = False
    #: The flow whose CUBIC epochs are measured (`measures.cubic_epoch_measures`), asked
    #: for with ``[experiment.cubic_epochs] flow = "NAME"``.
    cubic_flow: str = ""
    #: The ns-2.35 twin, if the experiment has one.
    ns2: Optional[Ns2Twin] = None
    #: The name of the other reading of the document this experiment belongs to, when it
    #: is a variant that inherits `variant_of` (no [base]): the checks on `variant_of`
    #: are evaluated again on it (`checks.evaluate_readings`).
    variant: str = ""

    def points(self, quick: bool) -> List[Any]:
        """The axis values run (``[None]`` without an axis)."""
        if self.axis_key is None:
            return [None]
        if quick and self.quick_values is not None:
            return list(self.quick_values)
        return list(self.axis_values)

    def case(self, name: str) -> Case:
        for c in self.cases:
            if c.name == name:
                return c
        raise KeyError(name)


@dataclass
class Value:
    """A published number (a table cell or a number in the text)."""

    id: str
    where: str
    #: The value as the document prints it (a table cell or the number in the text, with
    #: its unit and any misprint), beside our reading of it in `value`.
    printed: str = ""
    value: Optional[float] = None
    unit: str = ""
    reading: str = ""
    unreadable: bool = False
    ours: Optional[str] = None


@dataclass
class Check:
    id: str
    kind: str
    claim: str
    where: str
    raw: Dict[str, Any]
    known_miss: str = ""
    quick: bool = True


@dataclass
class Document:
    id: str
    path: Path
    title: str
    short: str
    #: the document's bibliographic reference
    citation: str
    seeds: int
    assumptions: List[str]
    experiments: List[Experiment]
    values: List[Value]
    checks: List[Check]
    #: Why the ns-2.35 twins and tcpsim may part (shown with --ns2), if known.
    ns2_note: str = ""
    #: What the runs found about the document as a whole, one paragraph each, written
    #: after a run; they cite the measurements they rest on (`Citation`), as reasons do.
    findings: List[str] = field(default_factory=list)
    #: The document's own errors and contradictions that the reproduction had to
    #: decide (a table that contradicts its text, a scenario listed with the wrong
    #: number of sources), one each, with what we took.
    errata: List[str] = field(default_factory=list)

    def experiment(self, name: str) -> Experiment:
        for e in self.experiments:
            if e.name == name:
                return e
        raise KeyError(name)

    def value(self, vid: str) -> Value:
        for v in self.values:
            if v.id == vid:
                return v
        raise KeyError(vid)


# ============================================================================ references

_REF = re.compile(r"^(?P<exp>[A-Za-z0-9_]+):(?P<case>[A-Za-z0-9_]+)(?:@(?P<point>[^:]+))?:(?P<metric>[A-Za-z0-9_.]+)$")


@dataclass(frozen=True)
class Ref:
    """``EXPERIMENT:CASE@POINT:METRIC``, a measurement of ours."""

    experiment: str
    case: str
    point: Optional[str]
    metric: str

    def __str__(self) -> str:
        at = f"@{self.point}" if self.point is not None else ""
        return f"{self.experiment}:{self.case}{at}:{self.metric}"


def parse_ref(text: str) -> Ref:
    m = _REF.match(text.strip())
    if not m:
        raise ValueError(f"bad measurement reference {text!r}; expected EXPERIMENT:CASE@POINT:METRIC")
    return Ref(m.group("exp"), m.group("case"), m.group("point"), m.group("metric"))


# ============================================================================ citations

#: A measurement cited in a reason: ``{REF}`` or ``{REF OP NUMBER}``.
_CITATION = re.compile(r"\{([^{}]*)\}")
_CONDITION = re.compile(r"^(?P<ref>\S+?)\s*(?:(?P<op>>=|<=|==|=|>|<)\s*(?P<bound>[-+0-9.eE]+))?$")
#: The comparisons a citation's condition may use.
CONDITION_OPS = {">": lambda a, b: a > b, ">=": lambda a, b: a >= b, "<": lambda a, b: a < b,
                 "<=": lambda a, b: a <= b, "=": lambda a, b: a == b, "==": lambda a, b: a == b}


@dataclass(frozen=True)
class Citation:
    """A measurement a reason rests on, written in the reason's text as ``{REF}`` (the
    report shows its value there) or ``{REF OP NUMBER}`` (also a condition on our mean
    over seeds that the reason needs, such as ``> 0`` for "RED's early drops ...": the
    report marks the reason stale when it fails, and the tests fail)."""

    text: str                 # as written, braces included
    ref: Ref
    op: Optional[str] = None
    bound: Optional[float] = None

    def holds(self, value: float) -> bool:
        """Whether `value` (our mean) meets the condition (True without one)."""
        return self.op is None or CONDITION_OPS[self.op](value, self.bound)

    @property
    def condition(self) -> str:
        return f"{self.op} {self.bound:g}" if self.op else ""


def citations(text: str) -> List[Citation]:
    """The measurements cited in a reason's text. Raises ValueError naming a bad one."""
    out = []
    for m in _CITATION.finditer(text or ""):
        c = _CONDITION.match(m.group(1).strip())
        if not c:
            raise ValueError(f"bad citation {m.group(0)!r}; expected {{EXPERIMENT:CASE@POINT:METRIC}} or "
                             f"{{EXPERIMENT:CASE@POINT:METRIC OP NUMBER}} with OP one of {' '.join(CONDITION_OPS)}")
        ref = parse_ref(c.group("ref"))
        bound = float(c.group("bound")) if c.group("op") else None
        out.append(Citation(m.group(0), ref, c.group("op"), bound))
    return out


#: The texts of a check that give a reason for a miss, and may cite measurements.
REASON_KEYS = ("known_miss", "miss_reason")


# ============================================================================ loading


def find_document(doc: str, root: Optional[Path] = None) -> Path:
    """The directory of document `doc`: a path, or a name under ``experiments/``."""
    p = Path(doc)
    if p.is_dir() and (p / "document.toml").is_file():
        return p
    root = root or experiments_root()
    cand = root / doc
    if (cand / "document.toml").is_file():
        return cand
    known = ", ".join(list_documents(root)) or "none"
    raise ScenarioError(f"no reproduction files for document {doc!r} (looked in {root}; known: {known})")


def list_documents(root: Optional[Path] = None) -> List[str]:
    root = root or experiments_root()
    if not root.is_dir():
        return []
    return sorted(d.name for d in root.iterdir() if (d / "document.toml").is_file())


def _read(path: Path) -> Dict[str, Any]:
    try:
        return _toml.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ScenarioError(f"{path}: file not found") from None
    except _toml.TOMLDecodeError as e:
        raise ScenarioError(f"{path}: not valid TOML: {e}") from None


def _table_of(value: Any, where: str, keys: Tuple[str, ...]) -> None:
    """Refuse `value` unless it is a table whose keys are among `keys`: the error names
    `where` and the first unknown key."""
    expected = ", ".join(keys)
    if not isinstance(value, dict):
        raise ScenarioError(f"{where}: expected a table with {expected}")
    bad = sorted(set(value) - set(keys))
    if bad:
        raise ScenarioError(f"{where}, key '{bad[0]}': unknown key (expected {expected})")


def _need(table: Dict[str, Any], key: str, where: str, kind=str):
    if key not in table:
        raise ScenarioError(f"{where}: missing key '{key}'")
    v = table[key]
    if not isinstance(v, kind):
        raise ScenarioError(f"{where}, key '{key}': expected {getattr(kind, '__name__', kind)}")
    return v


def load_experiment(path: Path, _seen: Tuple[Path, ...] = ()) -> Experiment:
    doc = _read(path)
    where = str(path)
    unknown = sorted(set(doc) - {"experiment", "base", "figure"})
    if unknown:
        raise ScenarioError(f"{where}: unknown table '{unknown[0]}' (expected [experiment], [base], [[figure]])")
    ex = _need(doc, "experiment", where, dict)
    if "base" not in doc and ex.get("variant_of"):
        return _load_variant(path, doc, _seen)
    base = _need(doc, "base", where, dict)
    cases = []
    for name, c in (ex.get("cases") or {"base": {"label": "base", "set": {}}}).items():
        if not isinstance(c, dict):
            raise ScenarioError(f"{where}, key 'experiment.cases.{name}': expected a table")
        bad = sorted(set(c) - {"label", "set", "reading", "ns2"})
        if bad:
            raise ScenarioError(f"{where}, key 'experiment.cases.{name}.{bad[0]}': unknown key "
                                "(expected label, set, reading, ns2)")
        ns2 = c.get("ns2")
        no_twin = ns2 is False
        if ns2 is not None and not no_twin:
            ns2 = _ns2_args(ns2, f"{where}, key 'experiment.cases.{name}.ns2'")
        cases.append(Case(name, c.get("label", name), dict(c.get("set", {})), c.get("reading", ""),
                          None if no_twin else ns2, no_twin))
    e = Experiment(
        name=path.stem, path=path, title=_need(ex, "title", where), section=ex.get("section", ""),
        base=base, cases=cases, reading=ex.get("reading", ""), variant_of=ex.get("variant_of", ""),
        needs=ex.get("needs", ""),
    )
    axis = ex.get("axis")
    if axis is not None:
        e.axis_key = _need(axis, "key", f"{where}, [experiment.axis]")
        e.axis_name = axis.get("name", e.axis_key)
        e.axis_values = list(_need(axis, "values", f"{where}, [experiment.axis]", list))
        for k, vals in (axis.get("linked") or {}).items():
            if not isinstance(vals, list) or len(vals) != len(e.axis_values):
                raise ScenarioError(f"{where}, [experiment.axis], key 'linked.{k}': expected a list of "
                                    f"{len(e.axis_values)} values, one per axis value")
            e.axis_linked[k] = list(vals)
    quick = dict(ex.get("quick", {}))
    if "values" in quick:
        e.quick_values = list(quick.pop("values"))
    e.quick = quick
    ev = ex.get("events")
    if ev is not None:
        ew = f"{where}, [experiment.events]"
        times = _need(ev, "times", ew, list)
        if not times or not all(isinstance(t, (int, float)) and t >= 0 for t in times) or times != sorted(times):
            raise ScenarioError(f"{ew}, key 'times': expected increasing times in seconds, such as [0, 80, 160]")
        e.events = [float(t) for t in times]
        rtt = _need(ev, "base_rtt_s", ew, (int, float))
        if not isinstance(rtt, (int, float)) or rtt <= 0:
            raise ScenarioError(f"{ew}, key 'base_rtt_s': expected a positive number of seconds")
        e.base_rtt_s = float(rtt)
    wins = ex.get("windows")
    if wins is not None:
        ok = isinstance(wins, list) and all(
            isinstance(w, list) and len(w) == 2 and all(isinstance(x, (int, float)) for x in w) and 0 <= w[0] < w[1]
            for w in wins)
        if not ok:
            raise ScenarioError(f"{where}, key 'experiment.windows': expected a list of [start, end] times "
                                "in seconds, such as [[0, 100], [100, 200]]")
        e.windows = [(float(a), float(b)) for a, b in wins]
    sm = ex.get("samples")
    if sm is not None:
        sw = f"{where}, [experiment.samples]"
        _table_of(sm, sw, ("from_s", "every_s", "buffer_pkts"))
        for key, least in (("from_s", 0.0), ("every_s", None), ("buffer_pkts", None)):
            v = sm.get(key)
            if v is not None and (isinstance(v, bool) or not isinstance(v, (int, float))
                                  or (v < least if least is not None else v <= 0)):
                raise ScenarioError(f"{sw}, key '{key}': expected a "
                                    f"{'number >= 0' if least is not None else 'positive number'}")
        e.samples = Samples(**{k: (float(v) if v is not None else None) for k, v in sm.items()})
    ho = ex.get("handoff")
    if ho is not None:
        hw = f"{where}, [experiment.handoff]"
        if not isinstance(ho, dict) or sorted(ho) != ["outage_s"]:
            raise ScenarioError(f"{hw}: expected one key, outage_s = [start, end] in seconds, such as [20, 21]")
        o = ho["outage_s"]
        if not (isinstance(o, list) and len(o) == 2 and all(isinstance(x, (int, float)) and not isinstance(x, bool)
                                                           for x in o) and 0 <= o[0] < o[1]):
            raise ScenarioError(f"{hw}, key 'outage_s': expected [start, end] in seconds with start < end, "
                                "such as [20, 21]")
        e.outage_s = (float(o[0]), float(o[1]))
    aqm = ex.get("aqm")
    if aqm is not None:
        if aqm != {}:
            raise ScenarioError(f"{where}, [experiment.aqm]: expected an empty table (document 002's measures "
                                "take their window from the scenario's simulation.measure_from)")
        e.aqm = True
    ce = ex.get("cubic_epochs")
    if ce is not None:
        if not (isinstance(ce, dict) and sorted(ce) == ["flow"] and isinstance(ce["flow"], str) and ce["flow"]):
            raise ScenarioError(f"{where}, [experiment.cubic_epochs]: expected one key, flow = \"NAME\", the "
                                f"CUBIC flow whose window curve is measured, found {ce!r}")
        e.cubic_flow = ce["flow"]
    twin = ex.get("ns2")
    # ns2 = false: the experiment has no ns-2 twin on purpose (models ns-2.35 lacks), so
    # every case is "no twin" under --ns2, as a case's own ns2 = false makes it
    no_twin = twin is False
    if twin is not None and not no_twin:
        tw = f"{where}, [experiment.ns2]"
        if not isinstance(twin, dict):
            raise ScenarioError(f"{tw}: expected a table naming the twin script (script, args, axis, trace), "
                                f"or ns2 = false for an experiment without ns-2 twin, found {twin!r}")
        _table_of(twin, tw, ("script", "args", "axis", "trace"))
        script = _need(twin, "script", tw)
        axis = twin.get("axis")
        if axis is not None and not (isinstance(axis, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", axis)):
            raise ScenarioError(f"{tw}, key 'axis': expected the name of a script argument, such as \"cbr\"")
        trace = twin.get("trace", True)
        if not isinstance(trace, bool):
            raise ScenarioError(f"{tw}, key 'trace': expected true or false, found {trace!r}")
        e.ns2 = Ns2Twin(script, _ns2_args(twin.get("args", []), f"{tw}, key 'args'"), axis, trace)
    if e.ns2 is None:
        lone = [c.name for c in cases if c.ns2 is not None or c.no_twin]
        if lone:
            raise ScenarioError(f"{where}, key 'experiment.cases.{lone[0]}.ns2': the experiment has no "
                                "[experiment.ns2] table naming the twin script"
                                + (" (ns2 = false says none of its cases has a twin)" if no_twin else ""))
        for c in cases:
            c.no_twin = no_twin
    else:
        # in an experiment with a twin, a case without one says so: no silent gap
        silent = [c.name for c in cases if c.ns2 is None and not c.no_twin]
        if silent:
            raise ScenarioError(f"{where}, key 'experiment.cases.{silent[0]}.ns2': missing; the experiment has an "
                                "ns-2 twin, so each case gives its twin arguments (a list, [] for none) or "
                                "ns2 = false for a case ns-2 cannot run (the report shows it as 'no twin')")
    tr = ex.get("trace")
    if tr is not None:
        e.trace_links = list(_need(tr, "links", f"{where}, [experiment.trace]", list))
        e.trace_at = list(tr["at"]) if "at" in tr else None
    e.figures = _figures(doc, path, [c.name for c in cases])
    return e


#: Keys every [[figure]] may have; the others are its kind's own (`Figure.extra`).
FIGURE_KEYS = ("id", "caption", "kind", "at", "cases", "metrics", "panels")


def _figures(doc: Dict[str, Any], path: Path, case_names: List[str]) -> List[Figure]:
    """The [[figure]] tables of an experiment file, whose cases are `case_names`."""
    out = []
    for i, f in enumerate(doc.get("figure", [])):
        fw = f"{path}, figure[{i}]"
        fig = Figure(
            id=_need(f, "id", fw), caption=_need(f, "caption", fw), kind=_need(f, "kind", fw),
            at=f.get("at"), cases=f.get("cases"), metrics=list(f.get("metrics", [])),
            extra={k: v for k, v in f.items() if k not in FIGURE_KEYS},
        )
        if "panels" in f:
            fig.panels = _panel_letters(f["panels"], fig, fig.cases or case_names, case_names, path, i)
        out.append(fig)
    return out


def _panel_letters(value: Any, fig: Figure, drawn: List[str], case_names: List[str], path: Path,
                   index: int) -> Optional[List[str]]:
    """The letters of the panels of `fig` from its ``panels`` key: ``true`` letters the
    cases drawn (`drawn`) a, b, c, ... in their order, as a document letters the panels
    of a figure; a list gives each its letter (the document's own, such as ["a", "c",
    "e"] for the drop-tail panels of a figure whose RED panels are elsewhere, or "" for a
    panel the document has not); ``false`` is one axes. A ScenarioError names the file,
    line, figure and key on a bad value."""
    line = _key_line(path, "figure", index, "panels")
    where = f"{path}" + (f", line {line}" if line else "") + f", figure[{index}] {fig.id!r}, key 'panels'"
    if value is False:
        return None
    if fig.kind not in PANEL_KINDS:
        raise ScenarioError(f"{where}: figure kind {fig.kind!r} has no panel layout (panels are for "
                            f"{', '.join(PANEL_KINDS)})")
    unknown = [c for c in drawn if c not in case_names]
    if unknown:
        raise ScenarioError(f"{where}: the figure's cases name {unknown[0]!r}, which is not a case of the "
                            f"experiment (its cases: {', '.join(case_names)})")
    if value is True:
        if len(drawn) > 26:
            raise ScenarioError(f"{where}: {len(drawn)} panels are more than the letters a-z; "
                                "give the letters as a list")
        return [chr(ord("a") + k) for k in range(len(drawn))]
    if not (isinstance(value, list) and all(isinstance(v, str) for v in value) and len(value) == len(drawn)):
        raise ScenarioError(f"{where}: expected true, false, or a list of {len(drawn)} panel letters, one per "
                            f"case drawn ({', '.join(drawn)}), such as {json.dumps([chr(ord('a') + k) for k in range(len(drawn))])} "
                            "(\"\" for a panel the document does not letter)")
    return list(value)


#: Keys of a variant that inherits its experiment (``variant_of`` without ``[base]``).
VARIANT_KEYS = {"title", "section", "variant_of", "variant", "reading", "set", "ns2_args", "cases", "ns2"}


def _load_variant(path: Path, doc: Dict[str, Any], seen: Tuple[Path, ...]) -> Experiment:
    """An experiment that is another reading of `variant_of`: the same base, cases, axis,
    quick settings, trace and ns-2 twin, with `set` applied to every case (sweep key
    paths, as a case's `set`) and `ns2_args` appended to the twin's arguments. Figures
    are its own ([[figure]] tables), none by default.

    ``cases = [...]`` keeps only those cases: a reading that concerns some of them (a
    parameter only one queue discipline has); the checks then take the others from
    `variant_of` (`checks.readings`). ``ns2 = false``: the reading has no ns-2 twin (ns-2
    cannot express it), so its cases show "no twin"."""
    where = str(path)
    ex = doc["experiment"]
    bad = sorted(set(ex) - VARIANT_KEYS)
    if bad:
        raise ScenarioError(f"{where}, key 'experiment.{bad[0]}': not allowed in a variant without [base] "
                            f"(expected {', '.join(sorted(VARIANT_KEYS))}; cases, axis and the rest come from "
                            f"variant_of)")
    parent_path = path.with_name(f"{ex['variant_of']}.toml")
    if parent_path in seen or parent_path == path:
        raise ScenarioError(f"{where}, key 'experiment.variant_of': variants refer to each other in a circle")
    if not parent_path.is_file():
        raise ScenarioError(f"{where}, key 'experiment.variant_of': no experiment file {parent_path.name} beside it")
    parent = load_experiment(parent_path, seen + (path,))
    sets = ex.get("set", {})
    if not isinstance(sets, dict):
        raise ScenarioError(f"{where}, key 'experiment.set': expected a table of key paths, such as "
                            "{ \"flow[0].max_window\" = 20 }")
    variant = ex.get("variant", "")
    if not isinstance(variant, str) or not variant:
        raise ScenarioError(f"{where}, key 'experiment.variant': expected the reading's short name, such as "
                            "\"window 20\" (the variants of one reading share it)")
    e = copy.deepcopy(parent)
    e.name, e.path = path.stem, path
    e.title = _need(ex, "title", where)
    e.section = ex.get("section", parent.section)
    e.reading = ex.get("reading", "")
    e.variant_of = ex["variant_of"]
    e.variant = variant
    e.needs = parent.needs
    kept = ex.get("cases")
    if kept is not None:
        names = [c.name for c in parent.cases]
        if not (isinstance(kept, list) and kept and all(isinstance(k, str) for k in kept)):
            raise ScenarioError(f"{where}, key 'experiment.cases': expected a list of case names of {parent.name} "
                                f"({', '.join(names)})")
        unknown = [k for k in kept if k not in names]
        if unknown:
            raise ScenarioError(f"{where}, key 'experiment.cases': {unknown[0]!r} is not a case of {parent.name} "
                                f"(its cases: {', '.join(names)})")
        e.cases = [c for c in e.cases if c.name in kept]
    for c in e.cases:
        # the case's own keys first, so that a key path into a table the case sets whole
        # (document 002's "dumbbell.bottleneck.queue.no_drop_rule" into the case's queue)
        # lands in it; a key both set stays the case's
        c.set = {**c.set, **{k: v for k, v in sets.items() if k not in c.set}}
    twin = ex.get("ns2", True)
    if twin is not False and twin is not True:
        raise ScenarioError(f"{where}, key 'experiment.ns2': expected false (the reading has no ns-2 twin); "
                            "the twin's arguments of a variant go in ns2_args")
    if twin is False and e.ns2 is not None:
        e.ns2 = None
        for c in e.cases:
            c.ns2, c.no_twin = None, True
    if e.ns2 is not None:
        e.ns2.args = e.ns2.args + _ns2_args(ex.get("ns2_args", []), f"{where}, key 'experiment.ns2_args'")
    e.figures = _figures(doc, path, [c.name for c in e.cases])
    return e


def _ns2_args(value: Any, where: str) -> List[str]:
    if not (isinstance(value, list) and all(isinstance(a, str) and re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*=\S*", a)
                                            for a in value)):
        raise ScenarioError(f"{where}: expected a list of KEY=VALUE arguments of the ns-2 twin script, "
                            "such as [\"variant=vegas\", \"queue=red\"]")
    return list(value)


def load_document(doc: str, root: Optional[Path] = None) -> Document:
    """Reads the reproduction files of document `doc` (a name under ``experiments/`` or
    a directory). Raises `ScenarioError` naming the file and key on a format error."""
    d = find_document(doc, root)
    meta = _read(d / "document.toml")
    where = str(d / "document.toml")
    m = _need(meta, "document", where, dict)
    names = _need(m, "experiments", where, list)
    experiments = [load_experiment(d / f"{n}.toml") for n in names]
    nums = _read(d / "numbers.toml")
    values = []
    for i, v in enumerate(nums.get("value", [])):
        vw = f"{d / 'numbers.toml'}, value[{i}]"
        unknown = sorted(set(v) - VALUE_KEYS)
        if unknown:
            raise ScenarioError(_unknown_value_key(d / "numbers.toml", i, v, unknown[0]))
        values.append(Value(
            id=_need(v, "id", vw), where=_need(v, "where", vw), printed=str(v.get("printed", "")),
            value=v.get("value"), unit=v.get("unit", ""), reading=v.get("reading", ""),
            unreadable=bool(v.get("unreadable", False)), ours=v.get("ours"),
        ))
    checks = []
    for i, c in enumerate(nums.get("check", [])):
        cw = f"{d / 'numbers.toml'}, check[{i}]"
        kind = _need(c, "kind", cw)
        if kind not in CHECK_KINDS:
            raise ScenarioError(f"{cw}, key 'kind': expected one of {', '.join(CHECK_KINDS)}, got {kind!r}")
        checks.append(Check(
            id=_need(c, "id", cw), kind=kind, claim=_need(c, "claim", cw), where=c.get("where", ""),
            raw=c, known_miss=c.get("known_miss", ""), quick=bool(c.get("quick", True)),
        ))
    document = Document(
        id=str(m.get("id", d.name)), path=d, title=_need(m, "title", where), short=m.get("short", d.name),
        citation=_need(m, "citation", where), seeds=int(m.get("seeds", 1)),
        assumptions=list(m.get("assumptions", [])), experiments=experiments, values=values, checks=checks,
        ns2_note=str(m.get("ns2_note", "")), findings=_findings(m.get("findings", []), where),
        errata=_paragraphs(m.get("errata", []), where, "errata"),
    )
    _check_refs(document)
    return document


#: Keys of a ``[[value]]`` in numbers.toml (docs/reproducing.md#numberstoml).
VALUE_KEYS = {"id", "where", "printed", "value", "unit", "reading", "unreadable", "ours"}


def _unknown_value_key(path: Path, index: int, value: Dict[str, Any], key: str) -> str:
    """The message for a key a ``[[value]]`` may not have, naming the file, the line of
    the key (the `index`-th ``[[value]]`` table's) and what is expected instead."""
    line = _key_line(path, "value", index, key)
    where = f"{path}" + (f", line {line}" if line else "") + f", value[{index}] {value.get('id', '')!r}, key '{key}'"
    if key == "ocr":
        return (f"{where}: the key is now 'printed' (the value as the document prints it, e.g. "
                "printed = \"63.8438Mbs\"); a longer quotation becomes a location in 'where' and a "
                "paraphrase in our words in 'reading'")
    return f"{where}: unknown key (expected {', '.join(sorted(VALUE_KEYS))})"


def _key_line(path: Path, array: str, index: int, key: str) -> Optional[int]:
    """The line number of `key` in the `index`-th ``[[array]]`` table of `path` (None if
    the file is not laid out one key a line)."""
    seen = -1
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        s = line.strip()
        if s.startswith("["):
            seen += s == f"[[{array}]]"
            if s != f"[[{array}]]" and seen == index:
                return None
        elif seen == index and re.match(rf"{re.escape(key)}\s*=", s):
            return n
    return None


def _paragraphs(value: Any, where: str, key: str) -> List[str]:
    if not (isinstance(value, list) and all(isinstance(f, str) and f.strip() for f in value)):
        raise ScenarioError(f"{where}, key '{key}': expected a list of paragraphs (strings)")
    return list(value)


def _findings(value: Any, where: str) -> List[str]:
    if not (isinstance(value, list) and all(isinstance(f, str) and f.strip() for f in value)):
        raise ScenarioError(f"{where}, key 'findings': expected a list of paragraphs (strings), such as "
                            "[\"No reading reproduces ... ({e2:v4r1_red:vegas_reno_ratio})\"]")
    return list(value)


def _check_refs(doc: Document) -> None:
    """Every reference in numbers.toml (and every citation in document.toml's findings)
    names an experiment, case and axis value that exist, so a typo fails at once rather
    than as a check that never runs."""
    for i, text in enumerate(doc.findings):
        where = f"document.toml, key 'findings', paragraph {i + 1}"
        try:
            cited = citations(text)
        except ValueError as e:
            raise ScenarioError(f"{where}: {e}") from None
        for cit in cited:
            _check_ref(doc, str(cit.ref), where)
    ids = {v.id for v in doc.values}
    for v in doc.values:
        if v.ours:
            _check_ref(doc, v.ours, f"numbers.toml, value '{v.id}'")
        if v.value is None and not v.unreadable:
            raise ScenarioError(f"numbers.toml, value '{v.id}': give 'value', or unreadable = true")
    for c in doc.checks:
        raw = c.raw
        where = f"numbers.toml, check '{c.id}'"
        refs = list(raw.get("items", []))
        for k in ("ours", "series"):
            if k in raw:
                refs.append(raw[k])
        if not refs:
            raise ScenarioError(f"{where}: no measurement ('items', 'ours' or 'series')")
        for r in refs:
            _check_ref(doc, r, where, allow_star=(c.kind == "trend"))
        for key in REASON_KEYS:
            try:
                cited = citations(raw.get(key, ""))
            except ValueError as e:
                raise ScenarioError(f"{where}, key {key!r}: {e}") from None
            for cit in cited:
                _check_ref(doc, str(cit.ref), f"{where}, key {key!r}")
        pub = raw.get("published")
        for p in ([pub] if isinstance(pub, str) else (pub or [])):
            if p not in ids:
                raise ScenarioError(f"{where}, key 'published': no value with id {p!r}")


def _check_ref(doc: Document, text: str, where: str, allow_star: bool = False) -> Ref:
    try:
        ref = parse_ref(text)
    except ValueError as e:
        raise ScenarioError(f"{where}: {e}") from None
    try:
        ex = doc.experiment(ref.experiment)
    except KeyError:
        raise ScenarioError(f"{where}: no experiment {ref.experiment!r} in {text!r}") from None
    try:
        ex.case(ref.case)
    except KeyError:
        raise ScenarioError(f"{where}: experiment {ref.experiment!r} has no case {ref.case!r}") from None
    if ex.axis_key is None:
        if ref.point is not None:
            raise ScenarioError(f"{where}: experiment {ref.experiment!r} has no axis, so no '@{ref.point}'")
    elif ref.point is None or (ref.point == "*" and not allow_star) or (
            ref.point != "*" and ref.point not in [str(v) for v in ex.axis_values]):
        raise ScenarioError(f"{where}: {text!r}: expected @ one of {ex.axis_values}"
                            + (" or @*" if allow_star else ""))
    return ref


def point_key(value: Any) -> Optional[str]:
    return None if value is None else str(value)


def split_metric(metric: str) -> Tuple[str, Optional[str]]:
    """``"flow_throughput_mbps.vegas"`` -> ``("flow_throughput_mbps", "vegas")``."""
    name, _, flow = metric.partition(".")
    return name, (flow or None)
