"""Parameter sweeps: one base scenario, a grid of values and a list of seeds, run as many
independent simulations on local processes or on a Dask cluster.

    >>> from tcpsim.sweep import Sweep, run_sweep
    >>> sweep = Sweep("examples/dumbbell.toml",
    ...               grid={"dumbbell.bottleneck.queue.max_th": [30, 60, 90],
    ...                     "flow[*].recovery": ["reno", "newreno"]},
    ...               seeds=[1, 2, 3])
    >>> table = run_sweep(sweep, "results/sweeps/red")      # 18 runs, all cores
    >>> table.groupby("dumbbell.bottleneck.queue.max_th")["jain_index"].mean()

A sweep *expands* to runs: the Cartesian product of the grid values (first key
outermost) times the seeds. Each run is the base scenario with those values assigned,
written out as canonical TOML (keys sorted, no comments); its **run id** is a hash of
that text and of the tcpsim version, so the same scenario always gets the same id.

On disk (``out_dir``)::

    sweep.parquet           one row per run (index run_id): parameters + summary metrics
    sweep.json              the expanded sweep: name, grid, seeds, run ids
    runs/<run_id>/          that run's results (Results.save) + scenario.toml + run.json

A run directory only ever appears complete: it is written under ``runs/.tmp-*`` and
renamed into place, with ``run.json`` (which lists every file and its size) written last.
A run counts as finished only when ``run.json`` exists and every file it lists has the
recorded size. Running a sweep again therefore reuses every finished run and computes
only the rest, so an interrupted or partly failed sweep resumes without redoing or losing
work, and the table holds exactly one row per run.

Executors: local processes (default, ``os.cpu_count()`` of them) or Dask
(``scheduler="tcp://HOST:PORT"`` or ``client=distributed.Client(...)``). With Dask every
run is one task keyed by its run id; the worker returns the result files to this process,
which writes them, so workers need no shared file system and a run whose worker dies is
simply recomputed by the scheduler on another worker. See ``docs/sweeps.md``.
"""

from __future__ import annotations

import argparse
import copy
import datetime as _dt
import errno
import hashlib
import itertools
import json
import math
import os
import re
import shutil
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Tuple, Union

try:  # Python >= 3.11
    import tomllib as _toml
except ModuleNotFoundError:  # pragma: no cover - Python 3.9/3.10
    import tomli as _toml  # type: ignore[no-redef]

from ._toml import toml_key as _toml_key, toml_string as _toml_string
from . import _core
from ._core import ScenarioError
from .api import read_scenario
from .results import PathLike, Results, _atomic_write, load_results

__all__ = [
    "Sweep",
    "Run",
    "SweepError",
    "run_sweep",
    "load_sweep",
    "run_metrics",
    "canonical_toml",
    "METRICS",
]

#: Version of the run layout and of `run_metrics`; part of every run.json.
LAYOUT_VERSION = 1
METRICS_VERSION = 1

#: The summary metrics of every run (columns of the sweep table, in this order).
METRICS: Tuple[str, ...] = (
    "flows", "goodput_bps", "goodput_bps_min", "jain_index", "retransmits", "timeouts",
    "rtt_mean_s", "drops", "early_drops", "overflow_drops", "marks", "bottleneck",
    "bottleneck_utilization", "bottleneck_queue_mean_pkts", "bottleneck_drops", "events",
    "wall_s",
)

MARKER = "run.json"
#: Seconds to wait for a Dask scheduler to answer.
CONNECT_TIMEOUT = 30
_TMP_PREFIX = ".tmp-"
_RUN_ID_RE = re.compile(r"^[0-9a-f]{16}$")
_SPEC_SWEEP_KEYS = ("base", "grid", "seeds", "out", "name")


class SweepError(RuntimeError):
    """A sweep could not complete: some runs failed, or the output directory is in use.

    Attributes:
        failures: ``{run_id: "ExceptionType: message"}`` of the runs that failed.
        results: the table of the runs that did finish (a DataFrame), or None.
    """

    def __init__(self, message: str, failures: Optional[Dict[str, str]] = None, results=None):
        super().__init__(message)
        self.failures = dict(failures or {})
        self.results = results


class Run(NamedTuple):
    """One run of a sweep: ``(run_id, params, toml_text)``."""

    run_id: str
    params: Dict[str, Any]
    toml_text: str


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


# ============================================================================ the sweep


def _split_grid_key(key: str) -> List[str]:
    """``"a.min_th, a.max_th"`` (linked keys, varied together) -> two paths."""
    parts, buf, quoted = [], [], False
    for ch in key:
        if ch == '"':
            quoted = not quoted
        if ch == "," and not quoted:
            parts.append("".join(buf).strip())
            buf = []
        else:
            buf.append(ch)
    parts.append("".join(buf).strip())
    return parts


def _flatten_grid(grid: Mapping[str, Any], prefix: str = "") -> Dict[str, Any]:
    """Nested tables (``[sweep.grid.dumbbell] pairs = [...]``, or unquoted dotted keys)
    become dotted keys; lists are leaves."""
    flat: Dict[str, Any] = {}
    for k, v in grid.items():
        key = f"{prefix}.{k}" if prefix else str(k)
        if isinstance(v, Mapping):
            flat.update(_flatten_grid(v, key))
        else:
            flat[key] = v
    return flat


def _strip_line(message: str, name: str) -> str:
    """Drops the core's ", line N" after `name`: the line of generated text misleads."""
    if message.startswith(name):
        return name + re.sub(r"^, line \d+", "", message[len(name):])
    return message


def _related(column: str, key: str) -> bool:
    """Whether grid path `column` and the core's error key `key` lie on one path (one
    is a prefix of the other; ``[*]`` matches any index)."""
    try:
        a, b = _parse_path(column), _parse_path(key)
    except ValueError:
        return False
    for x, y in zip(a, b):
        if x.name != y.name:
            return False
        for i, j in zip(x.indexes, y.indexes):
            if i != j and i != "*":
                return False
    return True


def _short(value: Any, limit: int = 60) -> str:
    text = _toml_value(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


class Sweep:
    """A base scenario, a grid of values for keys of it, and seeds.

    Args:
        base: the base scenario: path of a ``.toml`` file, TOML text, a dict (as
            ``tomllib`` gives) or an object with ``to_toml()`` (a `tcpsim.Scenario`).
        grid: ``{key path: [values]}``. A key path names a key of the scenario:
            ``"dumbbell.bottleneck.queue.max_th"``, ``"flow[0].recovery"`` (an element of
            ``[[flow]]``), ``"flow[*].recovery"`` (every element). Several paths joined
            by commas are varied together: ``"q.min_th, q.max_th" = [[5, 15], [10, 30]]``.
            Each value replaces the base's value (a table value replaces the whole
            table); missing tables on the way are created.
        seeds: values of ``simulation.seed``; every grid point runs once per seed.
            ``None`` keeps the base's seed.
        name: label of the sweep (progress bar, default output directory).
        source: name of the spec file, used in error messages.

    Raises:
        tcpsim.ScenarioError: the base scenario, a key path or a value is invalid; the
            message names the spec file (`source`) and the grid key.
    """

    def __init__(
        self,
        base: Any,
        grid: Optional[Mapping[str, Sequence[Any]]] = None,
        seeds: Optional[Iterable[int]] = None,
        *,
        name: Optional[str] = None,
        source: Optional[str] = None,
        out: Optional[PathLike] = None,
    ):
        self.source = source or "<sweep>"
        self.out = Path(out) if out is not None else None
        self.base, self.base_name, base_is_text = self._load_base(base)
        if name:
            self.name = name
        elif source:
            self.name = Path(source).stem
        elif not self.base_name.startswith("<"):
            self.name = Path(self.base_name).stem
        else:
            self.name = "sweep"
        self.seeds = self._check_seeds(seeds)
        # (column, [paths], [values]) per grid entry; linked keys share one entry.
        self._entries: List[Tuple[List[str], List[List[_Step]], List[List[Any]]]] = []
        for key, values in (grid or {}).items():
            self._entries.append(self._check_entry(str(key), values))
        columns = [c for cols, _, _ in self._entries for c in cols]
        dup = sorted({c for c in columns if columns.count(c) > 1})
        if dup:
            raise ScenarioError(f"{self.source}: [sweep.grid] names '{dup[0]}' more than once")
        if self.seeds is not None and "simulation.seed" in columns:
            raise ScenarioError(
                f"{self.source}: [sweep.grid] key 'simulation.seed' and seeds both set the seed; "
                "use one of them"
            )
        self._check_base(base_is_text)
        self._check_paths()
        self._runs: Optional[List[Run]] = None
        self.runs()  # expands and validates every run now

    # ------------------------------------------------------------------ construction

    @classmethod
    def from_spec(cls, spec: Any) -> "Sweep":
        """Reads a sweep spec: a path of a ``.toml`` spec file, or its text. Relative
        paths in it (``base``, ``out``) are relative to the spec file. See docs/sweeps.md."""
        try:
            text, name = read_scenario(spec)
        except OSError as e:
            raise ScenarioError(f"cannot read sweep spec {spec}: {e.strerror or e}") from None
        try:
            doc = _toml.loads(text)
        except _toml.TOMLDecodeError as e:
            raise ScenarioError(f"{name}: not valid TOML: {e}") from None
        here = Path(name).parent if name != "<string>" else Path(".")
        unknown = sorted(set(doc) - {"sweep", "base"})
        if unknown:
            raise ScenarioError(
                f"{name}: unknown table '{unknown[0]}'; a sweep spec has [sweep] "
                "(base, seeds, out, name, [sweep.grid]) and optionally an inline [base] scenario"
            )
        sw = doc.get("sweep")
        if not isinstance(sw, dict):
            raise ScenarioError(f"{name}: missing [sweep] table (see docs/sweeps.md)")
        bad = sorted(set(sw) - set(_SPEC_SWEEP_KEYS))
        if bad:
            raise ScenarioError(
                f"{name}, key 'sweep.{bad[0]}': unknown key; expected one of "
                + ", ".join(f"'{k}'" for k in _SPEC_SWEEP_KEYS)
            )
        if "base" in sw and "base" in doc:
            raise ScenarioError(f"{name}: give either sweep.base (a file) or an inline [base] table, not both")
        if "base" in doc:
            if not isinstance(doc["base"], dict):
                raise ScenarioError(f"{name}, key 'base': expected a table (the base scenario)")
            base: Any = doc["base"]
        elif "base" in sw:
            if not isinstance(sw["base"], str):
                raise ScenarioError(f"{name}, key 'sweep.base': expected the path of a scenario file")
            base = here / sw["base"]
            if not base.is_file():
                raise ScenarioError(f"{name}, key 'sweep.base': scenario file not found: {base}")
        else:
            raise ScenarioError(
                f"{name}: no base scenario; set sweep.base = \"scenario.toml\" or add a [base] table"
            )
        grid = sw.get("grid", {})
        if not isinstance(grid, dict):
            raise ScenarioError(f"{name}, key 'sweep.grid': expected a table of key = [values]")
        out = sw.get("out")
        if out is not None and not isinstance(out, str):
            raise ScenarioError(f"{name}, key 'sweep.out': expected a directory path")
        sweep_name = sw.get("name")
        if sweep_name is not None and not isinstance(sweep_name, str):
            raise ScenarioError(f"{name}, key 'sweep.name': expected a string")
        return cls(
            base,
            grid=_flatten_grid(grid),
            seeds=sw.get("seeds"),
            name=sweep_name or (Path(name).stem if name != "<string>" else None),
            source=name,
            out=(here / out) if out is not None else None,
        )

    def _load_base(self, base: Any) -> Tuple[Dict[str, Any], str, bool]:
        if isinstance(base, Mapping):
            return copy.deepcopy(dict(base)), f"{self.source} [base]", False
        if hasattr(base, "to_toml") and callable(base.to_toml):
            text, name = base.to_toml(), "<scenario>"
        else:
            try:
                text, name = read_scenario(base)
            except OSError as e:
                raise ScenarioError(f"{self.source}: cannot read base scenario {base}: {e.strerror or e}") from None
        try:
            doc = _toml.loads(text)
        except _toml.TOMLDecodeError as e:
            raise ScenarioError(f"{self.source}: base scenario {name}: not valid TOML: {e}") from None
        self._base_text = text
        return doc, name, True

    def _check_seeds(self, seeds: Any) -> Optional[List[int]]:
        if seeds is None:
            return None
        if isinstance(seeds, (str, bytes, Mapping)) or not isinstance(seeds, Iterable):
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': expected a list of integers such as [1, 2, 3]")
        out = []
        for s in seeds:
            if isinstance(s, bool) or not isinstance(s, int) or s < 0:
                raise ScenarioError(
                    f"{self.source}, key 'sweep.seeds': expected integers >= 0, got {_short(s)}"
                )
            out.append(int(s))
        if not out:
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': the list is empty")
        if len(set(out)) != len(out):
            raise ScenarioError(f"{self.source}, key 'sweep.seeds': a seed is listed twice")
        return out

    def _check_entry(self, key: str, values: Any):
        where = f"{self.source}, [sweep.grid] key '{key}'"
        paths = _split_grid_key(key)
        steps = []
        for p in paths:
            try:
                steps.append(_parse_path(p))
            except ValueError as e:
                raise ScenarioError(f"{where}: bad key path '{p}': {e}") from None
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, (list, tuple)):
            raise ScenarioError(f"{where}: expected a list of values, got {_type_name(values)}")
        if not values:
            raise ScenarioError(f"{where}: the list of values is empty")
        rows: List[List[Any]] = []
        for v in values:
            if len(paths) > 1:
                if not isinstance(v, (list, tuple)) or len(v) != len(paths):
                    raise ScenarioError(
                        f"{where}: {len(paths)} linked keys need each value to be a list of "
                        f"{len(paths)} values, got {_short(v)}"
                    )
                row = list(v)
            else:
                row = [v]
            for x in row:
                try:
                    _toml_value(x)
                except TypeError as e:
                    raise ScenarioError(f"{where}: {e}") from None
            rows.append(row)
        texts = [_toml_value(r) for r in rows]
        dup = next((t for t in texts if texts.count(t) > 1), None)
        if dup is not None:
            raise ScenarioError(f"{where}: the value {dup} is listed twice")
        return paths, steps, rows

    def _apply(self, doc: Dict[str, Any], entry, row: List[Any]) -> None:
        paths, steps, _ = entry
        for p, st, v in zip(paths, steps, row):
            try:
                _assign(doc, p, st, v)
            except ValueError as e:
                raise ScenarioError(f"{self.source}, [sweep.grid] key '{p}': {e}") from None

    def _seeded(self, doc: Dict[str, Any], seed: Optional[int]) -> Dict[str, Any]:
        if seed is not None:
            sim = doc.setdefault("simulation", {})
            if not isinstance(sim, dict):
                raise ScenarioError(f"{self.source}: the base scenario's 'simulation' is not a table")
            sim["seed"] = seed
        return doc

    def _check_base(self, base_is_text: bool) -> None:
        # The base as written (real line numbers), then in canonical form.
        if base_is_text:
            try:
                _core.validate_toml(self._base_text, self.base_name)
            except ScenarioError as e:
                raise ScenarioError(f"{self.source}: base scenario: {e}") from None
        else:
            label = self.base_name
            try:
                _core.validate_toml(canonical_toml(self.base), label)
            except ScenarioError as e:
                raise ScenarioError(_strip_line(str(e), label)) from None

    def _check_paths(self) -> None:
        """Each grid value alone on the base: a key path that does not fit the base (an
        index out of range, a value where a table is needed) fails here, naming the key."""
        for entry in self._entries:
            for row in entry[2]:
                self._apply(copy.deepcopy(self.base), entry, row)

    def _validate_run(self, text: str, params: Mapping[str, Any]) -> None:
        """Validates one expanded scenario. The error names the spec file, the grid keys
        involved (those whose path contains, or lies inside, the key the core complains
        about) with their values, and the rest of the run's parameters."""
        label = self.source
        try:
            _core.validate_toml(text, label)
            return
        except ScenarioError as e:
            message = _strip_line(str(e), label)
        rest = message[len(label):] if message.startswith(label) else ": " + message
        m = re.match(r", key '([^']*)'", rest)
        varying = [c for c in self.columns if c != "seed"]
        involved = [c for c in varying if m and _related(c, m.group(1))]
        others = [c for c in self.columns if c not in involved
                  and (c != "seed" or self.seeds is not None)]
        shown = lambda cols: ", ".join(f"'{c}' = {_short(params[c])}" for c in cols)
        if involved:
            head = f"{label}, [sweep.grid] {shown(involved)}"
            if others:
                head += f" (in the run with {shown(others)})"
        elif others:
            head = f"{label}, the run with {shown(others)}"
        else:
            head = f"{label}, base scenario {self.base_name}"
        raise ScenarioError(head + rest) from None

    # ------------------------------------------------------------------ expansion

    @property
    def grid(self) -> Dict[str, List[Any]]:
        """``{column: [values]}`` (linked keys listed separately)."""
        out: Dict[str, List[Any]] = {}
        for paths, _, rows in self._entries:
            for i, p in enumerate(paths):
                out[p] = [r[i] for r in rows]
        return out

    @property
    def columns(self) -> List[str]:
        """Parameter columns of the sweep table: the grid keys, then ``seed``."""
        return [p for paths, _, _ in self._entries for p in paths] + ["seed"]

    def _base_seed(self) -> Any:
        sim = self.base.get("simulation")
        return sim.get("seed", 1) if isinstance(sim, dict) else 1

    def runs(self) -> List[Run]:
        """Every run, in order (grid product, first key outermost, seeds innermost).

        Each scenario is validated; an invalid combination raises `ScenarioError` naming
        the spec file and the run's parameters. Identical scenarios are listed once."""
        if self._runs is not None:
            return list(self._runs)
        runs: List[Run] = []
        seen = set()
        seeds: List[Optional[int]] = list(self.seeds) if self.seeds is not None else [None]
        products = itertools.product(*[rows for _, _, rows in self._entries])
        for combo in products:
            for seed in seeds:
                doc = copy.deepcopy(self.base)
                params: Dict[str, Any] = {}
                for entry, row in zip(self._entries, combo):
                    self._apply(doc, entry, row)
                    params.update(zip(entry[0], row))
                self._seeded(doc, seed)
                params["seed"] = seed if seed is not None else self._base_seed()
                text = canonical_toml(doc)
                rid = run_id(text)
                if rid in seen:
                    continue
                seen.add(rid)
                if self._entries or seed is not None:
                    self._validate_run(text, params)
                runs.append(Run(rid, params, text))
        self._runs = runs
        return list(runs)

    def __len__(self) -> int:
        return len(self.runs())

    def __repr__(self) -> str:
        grid = ", ".join(f"{', '.join(paths)}: {len(rows)}" for paths, _, rows in self._entries)
        seeds = f", seeds={self.seeds}" if self.seeds is not None else ""
        return f"Sweep({self.name!r}, base={self.base_name!r}, grid={{{grid}}}{seeds})"


def run_id(toml_text: str, version: Optional[str] = None) -> str:
    """The id of a run: 16 hex digits of SHA-256 over the tcpsim version and the
    canonical scenario text."""
    v = version if version is not None else _core.__version__
    h = hashlib.sha256(f"tcpsim {v}\n".encode() + toml_text.encode("utf-8"))
    return h.hexdigest()[:16]


# ============================================================================ metrics


def _jain(x) -> float:
    import numpy as np

    x = np.asarray(x, dtype=float)
    denom = len(x) * float(np.sum(x * x))
    return float(np.sum(x)) ** 2 / denom if denom > 0 else float("nan")


def _num(v: Any) -> Any:
    """Plain Python number (JSON-able) from a numpy scalar."""
    try:
        import numpy as np

        if isinstance(v, np.integer):
            return int(v)
        if isinstance(v, np.floating):
            return float(v)
    except ImportError:  # pragma: no cover
        pass
    return v


def run_metrics(results: Results) -> Dict[str, Any]:
    """The summary metrics of one run (the `METRICS` columns of the sweep table).

    - ``flows``: number of flows; ``goodput_bps``: their total goodput;
      ``goodput_bps_min``: the smallest flow goodput.
    - ``jain_index``: Jain's fairness index of the TCP flows' goodputs (all flows if
      there is no TCP flow).
    - ``retransmits``, ``timeouts``: summed over TCP flows; ``rtt_mean_s``: mean RTT
      over all RTT samples of all flows.
    - ``early_drops``, ``overflow_drops``, ``marks``: summed over every queue;
      ``drops`` = early + overflow drops.
    - ``bottleneck``: the link direction with the highest utilization;
      ``bottleneck_utilization``, ``bottleneck_queue_mean_pkts`` and
      ``bottleneck_drops`` of it.
    - ``events``, ``wall_s``: simulator events and wall-clock seconds of the run.
    """
    nan = float("nan")
    f, q, l, s = results.flows, results.queues, results.links, results.summary
    m: Dict[str, Any] = {k: nan for k in METRICS}
    m["flows"] = int(len(f))
    if len(f):
        gp = f["goodput_bps"].astype(float)
        m["goodput_bps"] = float(gp.sum())
        m["goodput_bps_min"] = float(gp.min())
        tcp = f[f["type"] == "tcp"] if "type" in f else f
        m["jain_index"] = _jain((tcp if len(tcp) else f)["goodput_bps"])
        m["retransmits"] = int(tcp["retransmits"].sum()) if len(tcp) else 0
        m["timeouts"] = int(tcp["timeouts"].sum()) if len(tcp) else 0
        n = f["rtt_samples"].astype(float)
        if n.sum() > 0:
            m["rtt_mean_s"] = float((f["rtt_mean_s"].astype(float).fillna(0) * n).sum() / n.sum())
    if len(q):
        for col in ("early_drops", "overflow_drops", "marks"):
            m[col] = int(q[col].sum())
        m["drops"] = m["early_drops"] + m["overflow_drops"]
    else:
        m.update(early_drops=0, overflow_drops=0, marks=0, drops=0)
    m["bottleneck"] = ""
    if len(l):
        top = l.loc[l["utilization"].astype(float).idxmax()]
        m["bottleneck"] = str(top["link"])
        m["bottleneck_utilization"] = float(top["utilization"])
        if len(q):
            bq = q[q["queue"] == top["link"]]
            if len(bq):
                m["bottleneck_queue_mean_pkts"] = float(bq["mean_length_pkts"].iloc[0])
                m["bottleneck_drops"] = int(bq["early_drops"].iloc[0] + bq["overflow_drops"].iloc[0])
    events = s.get("events")
    m["events"] = int(events) if isinstance(events, (int, float)) else nan
    wall = s.get("wall_seconds", s.get("wall_time_s"))
    m["wall_s"] = float(wall) if isinstance(wall, (int, float)) else nan
    return {k: _num(v) for k, v in m.items()}


# ============================================================================ run storage


def _read_marker(run_dir: Path) -> Optional[Dict[str, Any]]:
    """The run's marker if the run is complete (marker present, every listed file there
    with its recorded size), else None."""
    try:
        marker = json.loads((run_dir / MARKER).read_text(encoding="utf-8"))
        if marker.get("run_id") != run_dir.name:
            return None
        files = marker.get("files")
        if not isinstance(files, dict) or not files:
            return None
        for name, size in files.items():
            if (run_dir / name).stat().st_size != size:
                return None
        return marker
    except (OSError, ValueError, AttributeError):
        return None


def is_finished(run_dir: PathLike) -> bool:
    """Whether `run_dir` holds a complete run (see the module docstring)."""
    return _read_marker(Path(run_dir)) is not None


def _install_run(runs_dir: Path, rid: str, write_files: Callable[[Path], None], marker: Dict[str, Any]) -> bool:
    """Writes a run into a temporary directory (files, then run.json listing them) and
    renames it to ``runs_dir/rid``. Returns False if a complete run was already there
    (this copy is then discarded)."""
    runs_dir.mkdir(parents=True, exist_ok=True)
    tmp = runs_dir / f"{_TMP_PREFIX}{rid}-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    tmp.mkdir()
    try:
        write_files(tmp)
        sizes = {p.name: p.stat().st_size for p in sorted(tmp.iterdir()) if p.is_file()}
        marker = dict(marker, files=sizes)
        (tmp / MARKER).write_text(json.dumps(marker, indent=2, sort_keys=True, default=str) + "\n",
                                  encoding="utf-8")
        final = runs_dir / rid
        try:
            os.rename(tmp, final)
            return True
        except OSError:
            if _read_marker(final) is not None:
                shutil.rmtree(tmp, ignore_errors=True)
                return False
            # An incomplete directory in the way (not written by a sweep): replace it.
            shutil.rmtree(final, ignore_errors=True)
            os.rename(tmp, final)
            return True
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _execute(task: Dict[str, Any]) -> Tuple[Results, Dict[str, Any]]:
    from . import __version__

    if task["version"] != __version__:
        raise RuntimeError(
            f"this worker has tcpsim {__version__} but the sweep was expanded with tcpsim "
            f"{task['version']}; install the same version everywhere"
        )
    started = time.time()
    raw = _core.run_toml(task["text"], task["name"], None)
    results = Results.from_core(raw, scenario_text=task["text"])
    marker = {
        "run_id": task["run_id"],
        "sweep": task["sweep"],
        "params": task["params"],
        "tcpsim_version": __version__,
        "layout_version": LAYOUT_VERSION,
        "metrics_version": METRICS_VERSION,
        "metrics": run_metrics(results),
        "attempt": uuid.uuid4().hex,
        "host": _hostname(),
        "pid": os.getpid(),
        "started_at": _iso(started),
        "finished_at": _iso(time.time()),
    }
    return results, marker


def _run_task_local(task: Dict[str, Any]) -> Dict[str, Any]:
    """Local executor task: runs the scenario and installs the run directory itself."""
    results, marker = _execute(task)
    installed = _install_run(Path(task["runs_dir"]), task["run_id"], results.save, marker)
    return {"run_id": task["run_id"], "installed": installed}


def _run_task_remote(task: Dict[str, Any]) -> Dict[str, Any]:
    """Dask task: runs the scenario and returns the files of its results directory
    (``{name: bytes}``) and its marker; the client installs them."""
    results, marker = _execute(task)
    with tempfile.TemporaryDirectory(prefix="tcpsim-run-") as tmp:
        results.save(tmp)
        files = {p.name: p.read_bytes() for p in sorted(Path(tmp).iterdir()) if p.is_file()}
    return {"run_id": task["run_id"], "files": files, "marker": marker}


def _write_payload(files: Mapping[str, bytes]) -> Callable[[Path], None]:
    def write(d: Path) -> None:
        for name, data in files.items():
            (d / Path(name).name).write_bytes(data)

    return write


def _hostname() -> str:
    import socket

    try:
        return socket.gethostname()
    except OSError:  # pragma: no cover
        return ""


def _iso(t: float) -> str:
    return _dt.datetime.fromtimestamp(t, _dt.timezone.utc).isoformat(timespec="milliseconds")


class _Lock:
    """An exclusive lock on ``out_dir/.sweep.lock`` (POSIX flock; none elsewhere), so
    two sweeps never write to one directory at once."""

    def __init__(self, out: Path):
        self.path = out / ".sweep.lock"
        self.fd: Optional[int] = None

    def __enter__(self) -> "_Lock":
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            return self
        self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(self.fd)
            self.fd = None
            if e.errno in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise SweepError(
                    f"another sweep is writing to {self.path.parent} (it holds {self.path.name})"
                ) from None
            # A file system without locks (some network mounts): go on unlocked.
        return self

    def __exit__(self, *exc) -> None:
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None


# ============================================================================ executors


def _worker_init(lock_fd: Optional[int]) -> None:  # pragma: no cover - runs in pool workers
    """Pool worker setup: Ctrl-C is the parent's business; a forked worker drops its copy
    of the output directory's lock (closing it, not unlocking, leaves the parent's)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if lock_fd is not None:
        try:
            os.close(lock_fd)
        except OSError:
            pass


def _mp_context():
    """fork on Linux (no re-import of the caller's script in the workers); the
    platform's default elsewhere (spawn on macOS and Windows)."""
    import multiprocessing

    if sys.platform.startswith("linux") and "fork" in multiprocessing.get_all_start_methods():
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context()


def _describe(exc: BaseException) -> str:
    text = f"{type(exc).__name__}: {exc}"
    if isinstance(exc, ModuleNotFoundError) or "No module named 'tcpsim" in text:
        text += " (is tcpsim installed on the workers?)"
    return text


def _run_local(tasks: List[Dict[str, Any]], workers: int, done: Callable[[str], None],
               failed: Callable[[str, str], None], lock_fd: Optional[int] = None) -> None:
    if workers <= 1 or len(tasks) <= 1:
        for task in tasks:
            try:
                _run_task_local(task)
            except Exception as e:
                failed(task["run_id"], _describe(e))
            else:
                done(task["run_id"])
        return

    import concurrent.futures as cf
    from concurrent.futures.process import BrokenProcessPool

    pending = list(tasks)
    for _round in range(3):  # a crashed worker process breaks the pool: retry the rest
        if not pending:
            return
        broken: List[Dict[str, Any]] = []
        ctx = _mp_context()
        pool = cf.ProcessPoolExecutor(
            max_workers=min(workers, len(pending)),
            mp_context=ctx,
            initializer=_worker_init,
            initargs=(lock_fd if ctx.get_start_method() == "fork" else None,),
        )
        try:
            futures = {pool.submit(_run_task_local, t): t for t in pending}
            for fut in cf.as_completed(futures):
                task = futures[fut]
                try:
                    fut.result()
                except BrokenProcessPool:
                    broken.append(task)
                except Exception as e:
                    failed(task["run_id"], _describe(e))
                else:
                    done(task["run_id"])
        except BaseException:
            _kill_pool(pool)
            raise
        else:
            pool.shutdown(wait=True)
        pending = broken
    for task in pending:
        failed(task["run_id"], "the worker process running it died (3 attempts)")


def _kill_pool(pool) -> None:
    procs = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        try:
            p.terminate()
        except Exception:  # pragma: no cover
            pass
    for p in procs:
        try:
            p.join(5)
        except Exception:  # pragma: no cover
            pass


def _run_dask(tasks: List[Dict[str, Any]], runs_dir: Path, client, scheduler: Optional[str],
              workers: Optional[int], retries: int, done: Callable[[str], None],
              failed: Callable[[str, str], None]) -> None:
    import asyncio

    try:
        import distributed
    except ImportError:
        raise SweepError(
            "the Dask executor needs dask.distributed: pip install \"dask[distributed]\""
        ) from None
    own = None
    if client is None:
        try:
            if scheduler:
                own = distributed.Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
            else:
                own = distributed.Client(set_as_default=False)  # a LocalCluster
        except (OSError, TimeoutError) as e:
            raise SweepError(f"cannot connect to the Dask scheduler {scheduler}: {e}") from None
        client = own
    futures = []
    try:
        if workers:
            client.wait_for_workers(workers, timeout=300)
        futures = [
            client.submit(_run_task_remote, t, key=f"tcpsim-run-{t['run_id']}", retries=retries)
            for t in tasks
        ]
        by_key = {f.key: t for f, t in zip(futures, tasks)}
        for fut in distributed.as_completed(futures, loop=client.loop):
            task = by_key[fut.key]
            try:
                payload = fut.result()
            except (Exception, asyncio.CancelledError) as e:  # KilledWorker, cancelled, raised
                failed(task["run_id"], _describe(e))
            else:
                try:
                    _install_run(runs_dir, task["run_id"], _write_payload(payload["files"]),
                                 payload["marker"])
                except OSError as e:
                    failed(task["run_id"], f"cannot write the run: {e}")
                else:
                    done(task["run_id"])
            fut.release()
    except BaseException:
        if futures:
            try:
                client.cancel(futures)
            except Exception:  # pragma: no cover
                pass
        raise
    finally:
        if own is not None:
            own.close()


# ============================================================================ run_sweep


def default_out(sweep: Sweep) -> Path:
    """Where a sweep writes without an explicit directory: its spec's ``out``, else
    ``results/sweeps/<name>``."""
    return sweep.out if sweep.out is not None else Path("results") / "sweeps" / sweep.name


def run_sweep(
    sweep: Union[Sweep, PathLike],
    out_dir: Optional[PathLike] = None,
    *,
    executor: Optional[str] = None,
    client=None,
    scheduler: Optional[str] = None,
    workers: Optional[int] = None,
    progress: Union[bool, Callable[[int, int], object]] = True,
    metrics: Optional[Callable[[Results], Mapping[str, Any]]] = None,
    retries: int = 2,
):
    """Runs every run of `sweep` not already finished in `out_dir`, and returns the sweep
    table (also written atomically to ``out_dir/sweep.parquet``).

    Args:
        sweep: a `Sweep`, or the path of a sweep spec file.
        out_dir: output directory (default: the spec's ``out``, else
            ``results/sweeps/<name>``). Finished runs found there are reused.
        executor: ``"local"`` (processes on this machine) or ``"dask"``; default
            ``"dask"`` when `client` or `scheduler` is given, else ``"local"``.
        client: a ``distributed.Client`` to run on (not closed afterwards).
        scheduler: address of a Dask scheduler, ``"tcp://HOST:PORT"``; without `client`
            and `scheduler`, ``executor="dask"`` starts a local Dask cluster.
        workers: local: number of processes (default ``os.cpu_count()``; 1 runs in this
            process). Dask: wait until this many workers have joined before submitting.
        progress: show a tqdm progress bar on standard error (runs done / total); or a
            callable ``progress(done, total)``.
        metrics: optional ``metrics(results) -> {name: value}`` adding columns; it runs
            in this process on each run's saved results (new and reused alike).
        retries: Dask: times a task that raised is retried (a task whose worker died is
            always rescheduled by the scheduler).

    Returns:
        A pandas DataFrame indexed by ``run_id``: the parameter columns (grid keys and
        ``seed``), the `METRICS` columns, any `metrics` columns, and ``reused`` (True if
        the run was found finished rather than computed now).

    Raises:
        tcpsim.ScenarioError: the sweep (or a run of it) is invalid; nothing was run.
        SweepError: some runs failed (the others are kept: run the sweep again to retry
            only the failed ones), or another sweep is writing to `out_dir`.
        KeyboardInterrupt: interrupted; finished runs are kept.
    """
    if not isinstance(sweep, Sweep):
        sweep = Sweep.from_spec(sweep)
    if executor is None:
        executor = "dask" if (client is not None or scheduler) else "local"
    if executor not in ("local", "dask"):
        raise ValueError(f"executor must be 'local' or 'dask', not {executor!r}")
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ValueError(f"workers must be a positive integer, not {workers!r}")

    runs = sweep.runs()  # validates every run before anything starts
    out = Path(out_dir) if out_dir is not None else default_out(sweep)
    runs_dir = out / "runs"
    runs_dir.mkdir(parents=True, exist_ok=True)
    started = time.time()

    with _Lock(out) as lock:
        _clean(runs_dir, {r.run_id for r in runs})
        finished = {r.run_id for r in runs if _read_marker(runs_dir / r.run_id) is not None}
        reused = set(finished)
        todo = [r for r in runs if r.run_id not in finished]
        failures: Dict[str, str] = {}
        _write_json(out / "sweep.json", _sweep_record(sweep, runs))

        bar = _Progress(progress, len(runs), len(finished), sweep.name)

        def done(rid: str) -> None:
            finished.add(rid)
            bar.advance(failures)

        def failed(rid: str, why: str) -> None:
            failures[rid] = why
            bar.advance(failures)

        from . import __version__

        tasks = [
            {
                "run_id": r.run_id, "text": r.toml_text, "name": f"{sweep.name}/{r.run_id}",
                "params": _jsonable(r.params), "sweep": sweep.name, "version": __version__,
                "runs_dir": str(runs_dir.resolve()),
            }
            for r in todo
        ]
        try:
            if tasks:
                if executor == "local":
                    n = workers or os.cpu_count() or 1
                    _run_local(tasks, n, done, failed, lock.fd)
                else:
                    _run_dask(tasks, runs_dir, client, scheduler, workers, retries, done, failed)
        finally:
            bar.close()

        table = _table(sweep, runs, runs_dir, reused, metrics)
        elapsed = time.time() - started
        table.attrs["sweep"] = {
            "name": sweep.name, "runs": len(runs), "computed": len(finished - reused),
            "reused": len(reused), "failed": len(failures), "seconds": round(elapsed, 3),
        }
        if failures:
            first = next(iter(failures.items()))
            raise SweepError(
                f"{len(failures)} of {len(runs)} runs failed (the {len(table)} finished runs "
                f"are kept in {runs_dir}; run the sweep again to retry only the failed ones); "
                f"first: run {first[0]}: {first[1]}",
                failures=failures, results=table,
            )
        _atomic_write(out / "sweep.parquet", lambda p: table.to_parquet(p))
        return table


def _clean(runs_dir: Path, planned: set) -> None:
    """Removes what an interrupted sweep left behind (temporary directories) and
    incomplete run directories of planned runs. Called with the lock held."""
    for entry in runs_dir.iterdir():
        if entry.name.startswith(_TMP_PREFIX):
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name in planned and entry.is_dir() and _read_marker(entry) is None:
            shutil.rmtree(entry, ignore_errors=True)
        elif entry.name in planned and not entry.is_dir():
            entry.unlink()


def _jsonable(v: Any) -> Any:
    return json.loads(json.dumps(v, default=str))


def _write_json(path: Path, data: Any) -> None:
    text = json.dumps(data, indent=2, default=str) + "\n"
    _atomic_write(path, lambda p: p.write_text(text, encoding="utf-8"))


def _sweep_record(sweep: Sweep, runs: List[Run]) -> Dict[str, Any]:
    from . import __version__

    return {
        "name": sweep.name,
        "source": sweep.source,
        "base": sweep.base_name,
        "grid": _jsonable(sweep.grid),
        "seeds": sweep.seeds,
        "tcpsim_version": __version__,
        "runs": [{"run_id": r.run_id, "params": _jsonable(r.params)} for r in runs],
    }


def _param_column(values: List[Any]):
    """Parameter values as a Parquet-friendly column: kept if all of one scalar kind,
    else written as TOML text."""
    import numpy as np

    if not values:
        return values
    if all(isinstance(v, bool) for v in values):
        return np.array(values, dtype=bool)
    if all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        if all(-(2**63) <= v < 2**63 for v in values):
            return np.array(values, dtype="int64")
        return [str(v) for v in values]
    if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in values):
        return [float(v) for v in values]
    if all(isinstance(v, str) for v in values):
        return values
    return [_toml_value(v) for v in values]


def _table(sweep: Sweep, runs: List[Run], runs_dir: Path, reused: set,
           metrics: Optional[Callable[[Results], Mapping[str, Any]]]):
    import pandas as pd

    rows, ids, extra_cols = [], [], []
    params: Dict[str, List[Any]] = {c: [] for c in sweep.columns}
    for r in runs:
        d = runs_dir / r.run_id
        marker = _read_marker(d)
        if marker is None:
            continue
        m = marker.get("metrics") or {}
        if marker.get("metrics_version") != METRICS_VERSION:
            m = run_metrics(load_results(d))
        row = {k: m.get(k, float("nan")) for k in METRICS}
        if metrics is not None:
            custom = dict(metrics(load_results(d)))
            for k in custom:
                if k not in extra_cols:
                    extra_cols.append(k)
            row.update(custom)
        row["reused"] = r.run_id in reused
        rows.append(row)
        ids.append(r.run_id)
        for c in sweep.columns:
            params[c].append(r.params.get(c))
    index = pd.Index(ids, name="run_id")
    data: Dict[str, Any] = {c: _param_column(v) for c, v in params.items()}
    for k in list(METRICS) + extra_cols + ["reused"]:
        data[k] = [row.get(k) for row in rows]
    df = pd.DataFrame(data, index=index)
    for k in METRICS:
        if k != "bottleneck":
            df[k] = pd.to_numeric(df[k], errors="coerce")
    df["reused"] = df["reused"].astype(bool)
    return df


class _Progress:
    def __init__(self, progress, total: int, initial: int, label: str):
        self.total, self.n = total, initial
        self.callback = progress if callable(progress) else None
        self.bar = None
        if progress is True:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=total, initial=initial, desc=label, unit="run",
                            file=sys.stderr, dynamic_ncols=True, leave=True)
        if self.callback:
            self.callback(self.n, self.total)

    def advance(self, failures: Mapping[str, str]) -> None:
        self.n += 1
        if self.bar is not None:
            if failures:
                self.bar.set_postfix(failed=len(failures), refresh=False)
            self.bar.update(1)
        if self.callback:
            self.callback(self.n, self.total)

    def close(self) -> None:
        if self.bar is not None:
            self.bar.close()


def load_sweep(out_dir: PathLike):
    """The table of a finished sweep (``out_dir/sweep.parquet``). Each run's full
    results are in ``out_dir/runs/<run_id>`` (`tcpsim.load_results`)."""
    import pandas as pd

    path = Path(out_dir) / "sweep.parquet"
    if not path.exists():
        raise FileNotFoundError(f"no sweep table {path} (has the sweep finished?)")
    return pd.read_parquet(path)


# ============================================================================ command line


CLI_EPILOG = """\
examples:
  tcpsim sweep examples/sweep_red.toml
        run every run of the spec on all local cores; results/sweeps/sweep_red/
  tcpsim sweep examples/sweep_red.toml --out results/red --workers 4
        four local processes, results in results/red/
  tcpsim sweep examples/sweep_red.toml --scheduler tcp://10.0.0.5:8786
        run on a Dask cluster (workers need tcpsim installed; results come back here)
  tcpsim sweep examples/sweep_red.toml --dry-run
        check the spec and list the runs, and which are already finished

A sweep spec is a TOML file:

  [sweep]
  base = "dumbbell.toml"              # relative to the spec (or an inline [base] table)
  seeds = [1, 2, 3]
  [sweep.grid]
  "dumbbell.bottleneck.queue.max_th" = [30, 60, 90]
  "flow[*].recovery" = ["reno", "newreno"]

Running the same command again reuses finished runs: an interrupted sweep resumes.
Output: DIR/sweep.parquet (one row per run), DIR/runs/<run_id>/ (each run's results).
exit status: 0 success, 1 some runs failed or other failure, 2 invalid spec or usage
error, 130 interrupted. The format is described in docs/sweeps.md.
"""


def add_cli(subparsers) -> argparse.ArgumentParser:
    """Registers ``tcpsim sweep`` on an argparse subparsers object; returns its parser.
    Dispatch to `cli_main` when ``args.command == "sweep"``."""
    p = subparsers.add_parser(
        "sweep",
        help="run a parameter sweep (grid x seeds) locally or on a Dask cluster",
        description="Expand a sweep spec (base scenario + parameter grid + seeds) into runs and\n"
                    "run those not already finished, on local processes or a Dask cluster.",
        epilog=CLI_EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("spec", metavar="SPEC", help="sweep spec file (.toml)")
    p.add_argument("--out", metavar="DIR",
                   help="output directory (default: the spec's sweep.out, else "
                        "results/sweeps/<spec name>); finished runs there are reused")
    p.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                   help="run on the Dask cluster of this scheduler (needs dask[distributed])")
    p.add_argument("--workers", "-j", metavar="N", type=int,
                   help="local: number of processes (default: all cores); with --scheduler: "
                        "wait for N workers before starting")
    p.add_argument("--dry-run", action="store_true",
                   help="check the spec and list its runs without running anything")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="print nothing but errors (no progress bar, no table)")
    return p


def cli_main(args) -> int:
    """Runs ``tcpsim sweep`` for parsed `args`; returns the exit status."""
    def fail(message: str, status: int) -> int:
        print(f"tcpsim: error: {message}", file=sys.stderr)
        return status

    if args.workers is not None and args.workers < 1:
        return fail("--workers must be at least 1", 2)
    try:
        sweep = Sweep.from_spec(Path(args.spec))
        runs = sweep.runs()
    except ScenarioError as e:
        return fail(str(e), 2)
    out = Path(args.out) if args.out else default_out(sweep)

    if args.dry_run:
        if not args.quiet:
            print(_dry_run_listing(sweep, runs, out / "runs"))
        return 0

    show_bar = not args.quiet and sys.stderr.isatty()
    try:
        table = run_sweep(sweep, out, scheduler=args.scheduler, workers=args.workers,
                          progress=show_bar)
    except ScenarioError as e:
        return fail(str(e), 2)
    except SweepError as e:
        if not args.quiet and e.failures:
            for rid, why in list(e.failures.items())[:10]:
                print(f"run {rid} failed: {why}", file=sys.stderr)
        return fail(str(e).split("; first:")[0], 1)
    except KeyboardInterrupt:
        print(f"tcpsim: interrupted; finished runs are kept in {out}/runs - run the same "
              "command again to resume", file=sys.stderr)
        return 130
    except OSError as e:
        return fail(f"cannot write to {out}: {e}", 1)
    if not args.quiet:
        print(format_sweep(table, sweep))
        info = table.attrs.get("sweep", {})
        print(f"\n{info.get('runs', len(table))} runs ({info.get('computed', '?')} computed, "
              f"{info.get('reused', '?')} reused) in {info.get('seconds', 0):.1f} s; "
              f"table: {out / 'sweep.parquet'}, runs: {out / 'runs'}/<run_id>/")
    return 0


def _dry_run_listing(sweep: Sweep, runs: List[Run], runs_dir: Path) -> str:
    lines = [f"{sweep!r}: {len(runs)} runs"]
    done = 0
    for r in runs:
        ok = _read_marker(runs_dir / r.run_id) is not None
        done += ok
        shown = ", ".join(f"{k}={_short(v, 30)}" for k, v in r.params.items())
        lines.append(f"  {r.run_id}  {'finished' if ok else 'to run  '}  {shown}")
    lines.append(f"{done} finished, {len(runs) - done} to run, output {runs_dir.parent}")
    return "\n".join(lines)


def format_sweep(table, sweep: Optional[Sweep] = None, limit: int = 40) -> str:
    """Means over seeds of the main metrics, one line per grid point."""
    import pandas as pd

    if table.empty:
        return "no runs"
    keys = [c for c in (sweep.columns if sweep is not None else []) if c != "seed" and c in table]
    cols = {"goodput_bps": "goodput Mbps", "jain_index": "Jain", "drops": "drops",
            "bottleneck_utilization": "util %", "bottleneck_queue_mean_pkts": "queue p"}
    t = table.copy()
    t["goodput_bps"] = t["goodput_bps"] / 1e6
    t["bottleneck_utilization"] = t["bottleneck_utilization"] * 100
    agg = {c: "mean" for c in cols}
    agg["seed"] = "count"
    if keys:
        g = t.groupby([t[k].astype(str) for k in keys], sort=False).agg(agg).reset_index()
    else:
        g = t.agg(agg).to_frame().T
    g = g.rename(columns={**cols, "seed": "runs"})
    with pd.option_context("display.width", 200, "display.max_columns", 50,
                           "display.float_format", "{:.3f}".format):
        text = g.head(limit).to_string(index=False)
    more = f"\n({len(g) - limit} more grid points in sweep.parquet)" if len(g) > limit else ""
    return f"Sweep {sweep.name if sweep else ''} (means over seeds)\n{text}{more}".replace("Sweep  (", "Sweep (")
